"""Benchmark corpora: generated with a seed, ingested by `talentrag ingest` in a child
process (so build time and peak RSS are measured), cached and reused while the
ingestion code is unchanged. One way to build a corpus for every benchmark script.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from talentrag.config import Settings
from tests.benchmarks.queries import load_truth
from tests.support.generator import generate_corpus

ROOT = Path(__file__).parents[2]
AS_OF = date(2026, 11, 1)

# Code whose change alters what ingestion writes; a cached build made by other code is rebuilt.
BUILD_INPUTS = ("ingestion", "gateways", "embeddings", "vocabulary", "store")
GENERATOR = ROOT / "tests" / "support" / "generator"  # and the code that writes the corpus


@dataclass(frozen=True)
class Built:
    settings: Settings
    truth: list[dict]
    info: dict  # cvs, embedder, seed, batch, ingest_seconds, peak_rss_mb, code, built_on, reused


def build_fingerprint() -> str:
    import lightrag

    digest = hashlib.sha256(lightrag.__version__.encode())
    package = ROOT / "services" / "talentrag"
    for folder in [*(package / part for part in BUILD_INPUTS), GENERATOR]:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix in (".py", ".yaml", ".json"):
                digest.update(path.relative_to(ROOT).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def built_corpus(cache: Path, n_cvs: int, seed: int, embedder: str) -> Built:
    """A generated corpus ingested by `talentrag ingest` in a child process (for its peak RSS).

    Builds are kept under ``cache`` and reused while the ingestion code is unchanged:
    100K CVs take most of an hour, and a latency run should not pay that every time.
    """
    folder = cache / f"{n_cvs}-{embedder}-seed{seed}"
    settings = Settings(data_dir=folder / "kb", embedder=embedder)
    record = folder / "build.json"
    fingerprint = build_fingerprint()
    if record.is_file() and json.loads(record.read_text())["code"] == fingerprint:
        info = json.loads(record.read_text()) | {"reused": True}
        print(f"reusing {folder} (built {info['built_on']})", flush=True)
        return Built(settings, load_truth(folder / "corpus" / "ground_truth.jsonl"), info)
    shutil.rmtree(folder, ignore_errors=True)
    generate_corpus(folder / "corpus", n_cvs, seed=seed, n_job_descriptions=8, as_of=AS_OF)
    batch = max(1000, n_cvs // 20)  # the file stores rewrite themselves whole per batch
    env = os.environ | {"TALENTRAG_EMBEDDER": embedder, "TALENTRAG_INGEST_BATCH_SIZE": str(batch)}
    seconds, peak = 0.0, 0
    for path, kind in (("cvs", "cv"), ("jobs", "job_description")):
        took, rss = run_child([sys.executable, "-m", "talentrag.cli", "ingest", str(folder / "corpus" / path),
                            "--data-dir", str(settings.data_dir), "--quiet", "--as-of", AS_OF.isoformat(),
                            "--document-type", kind], env)  # fmt: skip
        seconds, peak = seconds + took, max(peak, rss)
    info = {"cvs": n_cvs, "embedder": embedder, "seed": seed, "batch": batch,
            "ingest_seconds": round(seconds, 1), "peak_rss_mb": peak, "code": fingerprint,
            "built_on": date.today().isoformat()}  # fmt: skip
    record.write_text(json.dumps(info, indent=2) + "\n")
    print(f"built {folder}: {info}", flush=True)
    return Built(
        settings, load_truth(folder / "corpus" / "ground_truth.jsonl"), info | {"reused": False}
    )


def run_child(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (MB) of a child process.

    Peak RSS is read from /proc (VmHWM, reset at exec) while the child runs: getrusage
    would count the memory it shared with this big parent before exec.
    """
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    try:
        while process.poll() is None:
            peak = max(peak, peak_rss_mb(process.pid))
            time.sleep(0.05)
    finally:  # interrupted: do not leave a writer behind in the corpus being built
        if process.poll() is None:
            process.kill()
    if process.returncode != 0:
        raise RuntimeError(f"{command[:4]} failed: {process.stderr.read().decode()[-500:]}")
    return time.perf_counter() - started, peak


def peak_rss_mb(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:  # the process just ended
        return 0
    return next(
        (int(line.split()[1]) // 1024 for line in status.splitlines() if line.startswith("VmHWM:")),
        0,
    )
