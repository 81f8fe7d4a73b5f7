#!/usr/bin/env bash
# External check of the MCP server with the MCP Inspector CLI, over stdio and Streamable
# HTTP (`make check-mcp`). Prints what the Inspector saw; exits non-zero on any failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
inspector="$root/.mcp-inspector/node_modules/.bin"
export PATH="$inspector:$PATH" TALENTRAG_EMBEDDER=hashing
data=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$data"' EXIT

cvs=$(ls "$root"/tests/fixtures/corpus/* | grep -v '/jd-')
"$root/.venv/bin/talentrag" ingest $cvs --data-dir "$data/kb" --quiet

check() {  # $1 = label, then inspector arguments
  local label=$1; shift
  local out
  out=$(inspector --cli -e TALENTRAG_EMBEDDER=hashing --format json -q "$@")
  echo "$label: $(echo "$out" | "$root/.venv/bin/python" -c '
import json, sys
d = json.load(sys.stdin)
r = d.get("result", d)
if "tools" in r:
    print("tools", sorted(t["name"] for t in r["tools"]))
else:
    s = r.get("structuredContent") or {}
    if "id" in s:
        print("candidate", s["id"], s["level"], len(s["skills"]), "skills")
    else:
        print("candidates", [c["candidate_id"] for c in s.get("candidates", [])], "| text:", r["content"][0]["text"].splitlines()[0])
')"
}

stdio=("$root/.venv/bin/talentrag" mcp --data-dir "$data/kb")
check "stdio tools/list" --method tools/list "${stdio[@]}"
check "stdio search K8s" --method tools/call --tool-name search_by_skills --tool-args-json '{"required_skills":["K8s"],"preferred_skills":["Terraform"]}' "${stdio[@]}"
check "stdio no match" --method tools/call --tool-name search_by_skills --tool-args-json '{"required_skills":["NonexistentSkill123"]}' "${stdio[@]}"

port=$("$root/.venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$root/.venv/bin/talentrag" serve --port "$port" --data-dir "$data/kb" > /dev/null 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" > /dev/null && break; sleep 0.2; done
check "http tools/list" --method tools/list "http://127.0.0.1:$port/mcp"
check "http search Python+ML" --method tools/call --tool-name search_by_skills --tool-args-json '{"required_skills":["Python","ML"]}' "http://127.0.0.1:$port/mcp"
check "http get_candidate" --method tools/call --tool-name get_candidate --tool-args-json '{"candidate_id":"jane-doe"}' "http://127.0.0.1:$port/mcp"
echo "MCP Inspector checks passed"
