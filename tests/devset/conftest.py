"""The development set is built once per session; its table is printed at the end of the run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.devset.score import Report, measure, render

REPORT = pytest.StashKey[Report]()


@pytest.fixture(scope="session")
async def devset_report(
    tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> Report:
    """Ingest every devset document into a real knowledge base and score it (about 10 s)."""
    report = await measure(Path(tmp_path_factory.mktemp("devset")) / "kb")
    pytestconfig.stash[REPORT] = report
    return report


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Print the figures after the test results, whatever the verbosity (make test runs -q)."""
    report = config.stash.get(REPORT, None)
    if report is not None:
        terminalreporter.section("development set (tests/devset, python -m tests.devset.score)")
        terminalreporter.write_line(render(report))
