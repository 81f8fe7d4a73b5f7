"""Duplicate groups in every store (both backends): set with a write, read by searches."""

from __future__ import annotations

import asyncio

from talentrag.domain import DocumentRecord, DocumentType
from talentrag.store import CandidateStore, RowStatus


def _record(cid: str, document_type: DocumentType = DocumentType.CV) -> DocumentRecord:
    return DocumentRecord(
        id=cid,
        name=cid.title(),
        source_file=f"{cid}.txt",
        content_hash=f"h-{cid}",
        document_type=document_type,
    )


async def _write(
    store: CandidateStore,
    ids: list[str],
    groups: dict[str, str | None] | None = None,
    tenant: str = "t",
) -> None:
    await store.stage(
        tenant, [(_record(i), f"text {i}") for i in ids], signatures={i: i.encode() for i in ids}
    )
    await store.finish(tenant, ids, groups)


async def test_groups_are_listed_earliest_first_and_each_id_sees_the_others(
    store: CandidateStore,
):
    await _write(store, ["b", "solo"])
    await asyncio.sleep(1.1)  # created_at has second resolution
    await _write(store, ["a", "c"], {"a": "b", "b": "b", "c": "b"})
    await _write(store, ["x", "y"], {"x": "x", "y": "x"}, tenant="other")

    assert await store.duplicate_groups("t") == [["b", "a", "c"]]  # b was stored first
    assert await store.duplicates_of("t", ["a", "solo", "missing", "b"]) == {
        "a": ["b", "c"],
        "b": ["a", "c"],
    }
    assert await store.duplicate_groups("other") == [["x", "y"]]
    assert (await store.summary("t")).duplicates == 2


async def test_a_member_being_rewritten_or_deleted_is_not_shown(store: CandidateStore):
    await _write(store, ["a", "b"], {"a": "a", "b": "a"})
    await store.stage("t", [(_record("b"), "new text")])  # pending: invisible to readers
    assert await store.duplicate_groups("t") == []  # a group of one is no group
    assert await store.duplicates_of("t", ["a"]) == {}
    await store.abandon("t", ["b"])
    assert await store.duplicate_groups("t") == [["a", "b"]]

    await store.stage_deletion("t", ["a"])
    assert await store.duplicates_of("t", ["b"]) == {}
    await store.finish("t", ["a"], {"a": None, "b": None})
    assert await store.duplicate_groups("t") == []


async def test_a_failed_write_restores_the_signature_and_changes_no_group(
    store: CandidateStore,
):
    await _write(store, ["a", "b"], {"a": "a", "b": "a"})
    (staged,) = await store.stage("t", [(_record("b"), "other")], signatures={"b": b"new"})
    assert staged.signature == b"new"
    (unfinished,) = await store.unfinished("t")
    assert unfinished.signature == b"new" and unfinished.status is RowStatus.PENDING
    await store.abandon("t", ["b"])

    signatures = {s.id: (s.signature, s.group) for s in await store.duplicate_signatures("t")}
    assert signatures == {"a": (b"a", "a"), "b": (b"b", "a")}


async def test_a_staged_record_keeps_the_time_it_was_first_stored(store: CandidateStore):
    await _write(store, ["a"])
    first = await store.get("t", "a")
    await asyncio.sleep(1.1)
    (staged,) = await store.stage("t", [(_record("a"), "v2")])
    assert staged.record.created_at == first.created_at
    (new,) = await store.stage("t", [(_record("n"), "new")])
    assert new.record.created_at is not None and new.record.created_at > first.created_at


async def test_restamp_signs_records_and_sets_groups_in_one_go(store: CandidateStore):
    await store.stage("t", [(_record("a"), "a"), (_record("b"), "b")])  # stored unsigned
    await store.finish("t", ["a", "b"])
    assert await store.duplicate_signatures("t") == []
    await store.restamp("t", ["a", "b"], "v2", signatures={"a": b"sa"}, groups={"a": "a"})
    await store.restamp("t", ["a"], "v3")  # no signature given: the stored one stays
    (signed,) = await store.duplicate_signatures("t")
    assert (signed.id, signed.signature, signed.group) == ("a", b"sa", "a")


async def test_job_descriptions_are_never_in_a_group(store: CandidateStore):
    await store.stage(
        "t", [(_record("cv"), "x"), (_record("jd", DocumentType.JOB_DESCRIPTION), "x")]
    )
    await store.finish("t", ["cv", "jd"], {"cv": "cv", "jd": "cv"})
    assert await store.duplicate_groups("t") == []
    assert await store.duplicates_of("t", ["cv"]) == {}
