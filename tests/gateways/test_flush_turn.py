"""Storage flushes take turns: the GraphML save and the vector compression never overlap."""

from __future__ import annotations

import asyncio

from talentrag.gateways.flush_turn import in_turn


async def test_flushes_started_together_run_one_after_the_other():
    spans: list[tuple[str, str]] = []

    def flush(name: str):
        async def run() -> str:
            spans.append((name, "start"))
            await asyncio.sleep(0.01)  # a flush awaits (the GraphML thread) part-way
            spans.append((name, "end"))
            return name

        return run

    done = await asyncio.gather(in_turn(flush("graph")), in_turn(flush("vectors")))
    assert done == ["graph", "vectors"]
    assert spans == [
        ("graph", "start"),
        ("graph", "end"),
        ("vectors", "start"),
        ("vectors", "end"),
    ]


async def test_a_failed_flush_hands_the_turn_on():
    async def failing() -> None:
        raise OSError("disk full")

    async def fine() -> str:
        return "saved"

    results = await asyncio.gather(in_turn(failing), in_turn(fine), return_exceptions=True)
    assert isinstance(results[0], OSError) and results[1] == "saved"
