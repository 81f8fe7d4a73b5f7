-- Replicas share the ingest jobs: a runner leases a job until lease_until and renews the
-- lease while it runs; another replica takes the job over once the lease has run out.

ALTER TABLE ingest_jobs ADD COLUMN lease_until timestamptz;
