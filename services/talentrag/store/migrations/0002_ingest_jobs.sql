-- Ingest jobs and their items (talentrag.store.jobs): an upload's bytes stay in its item
-- until it is processed, so a stopped server resumes where it was.

CREATE TABLE ingest_jobs (
    tenant text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    status text NOT NULL,
    document_type text NOT NULL,
    replace_existing boolean NOT NULL,
    total integer NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX ingest_jobs_status ON ingest_jobs (status, created_at);

CREATE TABLE ingest_job_items (
    tenant text COLLATE "C" NOT NULL,
    job_id text COLLATE "C" NOT NULL,
    seq integer NOT NULL,
    kind text NOT NULL,
    source text NOT NULL,
    document_id text,
    name text,
    payload bytea,
    outcome text,
    result_id text,
    reason text,
    PRIMARY KEY (tenant, job_id, seq),
    FOREIGN KEY (tenant, job_id) REFERENCES ingest_jobs (tenant, id) ON DELETE CASCADE
);
