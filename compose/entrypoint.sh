#!/bin/sh
# Loads the sample corpus once when TALENTRAG_LOAD_SAMPLE=1 (unchanged files are skipped),
# then serves the HTTP API and MCP on 0.0.0.0:8000 (API keys are required off localhost).
set -e
sample=/app/services/talentrag/sample_data/corpus
if [ "${TALENTRAG_LOAD_SAMPLE:-0}" = "1" ]; then
  talentrag ingest "$sample/cvs" "$sample/showcase" --quiet
  talentrag ingest "$sample"/jobs/jd-* --document-type job_description --quiet
  talentrag ingest "$sample"/jobs/company-* --document-type company_page --quiet
fi
exec talentrag serve --host 0.0.0.0 --port 8000 "$@"
