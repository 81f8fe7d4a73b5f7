-- The candidate store: documents (with the version a pending write replaces), the skills
-- ranking reads, a full-text index, and a write counter per tenant.
-- Identifiers use the "C" collation: byte order, as SQLite sorts them, so listings page
-- alike on both backends and the btree indexes compare bytes.

CREATE TABLE documents (
    tenant text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    document_type text NOT NULL,
    name text NOT NULL,
    source_file text COLLATE "C" NOT NULL,
    content_hash text NOT NULL,
    level text,
    years double precision,
    status text NOT NULL CHECK (status IN ('active', 'pending', 'deleting')),
    -- LightRAG chunk ids of earlier, possibly half-written versions to remove
    stale_chunk_ids text[] NOT NULL DEFAULT '{}',
    record jsonb NOT NULL,
    text text NOT NULL,
    -- the text's words for full-text search, made by the store (talentrag.store.pg_text)
    words tsvector NOT NULL,
    origin text,              -- where a file was read from; NULL when sent as text
    analysis text,            -- the analysis version the record was made under
    given_name text,          -- a name the caller sent, which re-analysis keeps
    signature bytea,          -- a CV's near-duplicate signature
    duplicate_group text COLLATE "C",  -- id of the earliest CV of its duplicate group
    -- the active version a pending write replaces, restored if the write fails
    previous_record jsonb,
    previous_text text,
    previous_analysis text,
    previous_given_name text,
    previous_signature bytea,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (tenant, id)
);

-- Unfinished writes only (recovery reads them; searches never do).
CREATE INDEX documents_unfinished ON documents (tenant, status) WHERE status <> 'active';
CREATE INDEX documents_source ON documents (tenant, source_file);
-- Re-analysis pages through and counts the rows stamped otherwise.
CREATE INDEX documents_analysis ON documents (tenant, analysis, id) WHERE status = 'active';
-- A search's duplicates and `talentrag duplicates` read the few grouped rows only.
CREATE INDEX documents_duplicates ON documents (tenant, duplicate_group, id)
    WHERE duplicate_group IS NOT NULL;
CREATE INDEX documents_words ON documents USING gin (words);
-- Ranking reads the level and years of active CVs from this index alone.
CREATE INDEX documents_ranking ON documents (tenant, id) INCLUDE (level, years)
    WHERE status = 'active' AND document_type = 'cv';

CREATE TABLE document_skills (
    tenant text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    skill text COLLATE "C" NOT NULL,
    kind text NOT NULL,
    confidence double precision NOT NULL,
    mentions integer NOT NULL DEFAULT 0,
    strength text,
    years double precision,
    last_used integer,
    PRIMARY KEY (tenant, id, skill),
    FOREIGN KEY (tenant, id) REFERENCES documents (tenant, id) ON DELETE CASCADE
);

-- Covering index for ranking: a query reads its skills' holders from the index alone.
CREATE INDEX document_skills_ranking ON document_skills (tenant, skill, id)
    INCLUDE (kind, confidence, mentions, strength, years, last_used);

-- One row per tenant: increased by every committed write, read by other processes.
CREATE TABLE generations (
    tenant text COLLATE "C" PRIMARY KEY,
    generation bigint NOT NULL
);
