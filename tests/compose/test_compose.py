"""compose/: valid against the Compose Specification schema and wired as documented.
(No Docker engine runs here, so the stack itself is not started.)"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import yaml

from talentrag.gateways.lightrag_postgres import POSTGRES_STORAGES

COMPOSE = Path(__file__).parents[2] / "compose"


def _env_example() -> dict[str, str]:
    pairs = (
        line.split("=", 1)
        for line in (COMPOSE / ".env.example").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    return {k.strip(): v.strip() for k, v in pairs}


def _interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error} forms."""

    def value(match: re.Match[str]) -> str:
        name, op, rest = match.group(1), match.group(2), match.group(3)
        if name in env:
            return env[name]
        assert op != ":?", f"{name} is required but missing from .env.example"
        return rest or ""

    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", value, text)


def test_compose_file_follows_the_compose_specification():
    result = subprocess.run(
        [
            str(Path(sys.executable).parent / "check-jsonschema"),
            "--builtin-schema",
            "vendor.compose-spec",
            str(COMPOSE / "docker-compose.yml"),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_stack_is_wired_as_documented():
    stack = yaml.safe_load(
        _interpolate((COMPOSE / "docker-compose.yml").read_text(), _env_example())
    )
    services = stack["services"]
    assert set(services) == {"talentrag", "lightrag", "open-webui", "postgres"}

    connections = json.loads(services["open-webui"]["environment"]["TOOL_SERVER_CONNECTIONS"])
    by_type = {c["type"]: c for c in connections}
    assert by_type["mcp"]["url"] == "http://talentrag:8000/mcp"
    assert (
        by_type["openapi"]["url"] == "http://talentrag:8000/tools"
        and by_type["openapi"]["path"] == "openapi.json"
    )
    assert all(c["key"] == _env_example()["TALENTRAG_ASSISTANT_KEY"] for c in connections)

    talentrag = services["talentrag"]["environment"]
    assert json.loads(talentrag["TALENTRAG_API_KEYS"]) == {
        _env_example()["TALENTRAG_API_KEY"]: "default",
        _env_example()["TALENTRAG_ASSISTANT_KEY"]: {"tenant": "default", "scopes": ["read"]},
    }
    assert "talentrag:*" in json.loads(talentrag["TALENTRAG_MCP_ALLOWED_HOSTS"])
    lightrag = services["lightrag"]["environment"]
    assert lightrag["EMBEDDING_BINDING_HOST"] == "http://talentrag:8000/v1"
    # one database for talentrag's store and LightRAG's storages, which the server reads too
    database = urlsplit(talentrag["TALENTRAG_DATABASE_URL"])
    postgres = services["postgres"]["environment"]
    assert (database.hostname, database.port, database.path) == (
        lightrag["POSTGRES_HOST"],
        int(lightrag["POSTGRES_PORT"]),
        f"/{lightrag['POSTGRES_DATABASE']}",
    )
    assert (database.username, database.password) == (
        postgres["POSTGRES_USER"],
        postgres["POSTGRES_PASSWORD"],
    )
    assert lightrag["POSTGRES_DATABASE"] == postgres["POSTGRES_DB"]
    assert {
        kind: lightrag[f"LIGHTRAG_{kind.upper()}"] for kind in POSTGRES_STORAGES
    } == POSTGRES_STORAGES
    assert lightrag["WORKSPACE"] == "default"  # talentrag's workspace for tenant "default"
    assert services["talentrag"]["command"] == ["--workers", "2"]  # replicas on one database


def test_image_files():
    dockerfile = (COMPOSE / "Dockerfile").read_text()
    assert "COPY services ./services" in dockerfile and "talentrag-entrypoint" in dockerfile
    assert subprocess.run(["sh", "-n", str(COMPOSE / "entrypoint.sh")]).returncode == 0
