"""A whole corpus on disk: CVs, job documents and ground_truth.jsonl; the command line.

Each document has its own RNG seeded from (seed, kind, index), so a corpus is
reproducible, its first N CVs do not depend on how many were asked for, and any
number of worker processes write exactly the same files as one.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from tests.support.generator.jobs import make_job
from tests.support.generator.plan import CvPlan
from tests.support.generator.rendering import LAYOUTS, RENDERERS
from tests.support.generator.sections import SectionWriter
from tests.support.generator.timeline import MAX_ATTEMPTS, clear_of_thresholds
from tests.support.generator.vocabulary import DEFAULT_VOCABULARY
from tests.support.generator.wordlists import Tables, tables_for

DEFAULT_AS_OF = date(2026, 11, 1)


def make_cv(tables: Tables, seed: int, index: int, as_of: date) -> tuple[str, str, dict[str, Any]]:
    """(extension, text, truth) of CV ``index``; re-planned if its years sit on a threshold."""
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(f"{seed}:cv:{index}:{attempt}")
        plan = CvPlan(tables, rng, as_of)
        plan.make()
        if not clear_of_thresholds(plan.career.years):
            continue
        layout = rng.choice(tuple(LAYOUTS))
        doc = SectionWriter(plan).write()
        text = RENDERERS[layout](doc, rng)
        return LAYOUTS[layout], text, {**plan.truth(), "languages": doc.spoken(), "layout": layout}
    raise RuntimeError(f"CV {index}: no career clear of the level thresholds")


def generate_corpus(
    out_dir: Path,
    n_cvs: int,
    *,
    seed: int = 42,
    n_job_descriptions: int = 5,
    as_of: date = DEFAULT_AS_OF,
    vocabulary_path: Path | None = None,
    workers: int = 1,
) -> Path:
    """Write CVs, job documents and ground_truth.jsonl under ``out_dir``; return the truth path."""
    vocabulary = Path(vocabulary_path or DEFAULT_VOCABULARY)
    tables = tables_for(vocabulary)  # fails early; forked workers inherit it
    out_dir = Path(out_dir)
    (out_dir / "cvs").mkdir(parents=True, exist_ok=True)
    (out_dir / "jobs").mkdir(parents=True, exist_ok=True)
    truth_path = out_dir / "ground_truth.jsonl"
    with truth_path.open("w", encoding="utf-8", newline="\n") as truth:
        for lines in _cv_chunks(out_dir, vocabulary, n_cvs, seed, as_of, workers):
            truth.writelines(lines)
        for index in range(1, n_job_descriptions + 1):
            stem, text, record = make_job(tables, seed, index)
            name = f"jobs/{stem}.md"
            _write(out_dir / name, text)
            truth.write(_truth_line(name, record))
    return truth_path


@dataclass(frozen=True)
class Chunk:
    """A run of CV indices [start, stop) written by one task."""

    out_dir: Path
    vocabulary: Path
    seed: int
    as_of: date
    width: int
    start: int
    stop: int


def _cv_chunks(
    out_dir: Path, vocabulary: Path, n_cvs: int, seed: int, as_of: date, workers: int
) -> Iterator[list[str]]:
    """Truth lines of every CV, chunk by chunk in index order, written serially or in parallel."""
    size = min(1000, max(50, n_cvs // (max(1, workers) * 4)))
    width = max(5, len(str(n_cvs)))
    chunks = [
        Chunk(out_dir, vocabulary, seed, as_of, width, start, min(start + size, n_cvs + 1))
        for start in range(1, n_cvs + 1, size)
    ]
    if workers <= 1 or len(chunks) < 2:
        yield from map(_write_chunk, chunks)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        yield from pool.map(_write_chunk, chunks)


def _write_chunk(chunk: Chunk) -> list[str]:
    tables = tables_for(chunk.vocabulary)
    lines = []
    for index in range(chunk.start, chunk.stop):
        ext, text, record = make_cv(tables, chunk.seed, index, chunk.as_of)
        name = f"cvs/cv-{index:0{chunk.width}d}{ext}"
        _write(chunk.out_dir / name, text)
        lines.append(_truth_line(name, record))
    return lines


def _write(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def _truth_line(name: str, record: dict[str, Any]) -> str:
    return json.dumps({"file": name, **record}, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: ``python -m tests.support.generator OUT_DIR --n 200 --seed 42 --jobs 5``."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.support.generator",
        description="Write a synthetic CV corpus with ground truth.",
    )
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--n", type=int, default=200, help="number of CVs")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--jobs", type=int, default=5, help="job descriptions / company pages")
    parser.add_argument("--as-of", type=date.fromisoformat, default=DEFAULT_AS_OF)
    parser.add_argument("--vocabulary", type=Path, default=None)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    truth = generate_corpus(
        args.out_dir,
        args.n,
        seed=args.seed,
        n_job_descriptions=args.jobs,
        as_of=args.as_of,
        vocabulary_path=args.vocabulary,
        workers=args.workers,
    )
    print(
        f"wrote {args.n} CVs and {args.jobs} job documents to {args.out_dir} "
        f"(truth: {truth}) in {time.perf_counter() - started:.1f}s"
    )


if __name__ == "__main__":
    main()
