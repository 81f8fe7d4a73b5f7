"""What every candidate store does, run on each backend (the ``store`` fixture's parameter):
two-phase writes, profiles, stamps, listings, full-text search, summaries."""

from __future__ import annotations

import asyncio

from talentrag.domain import (
    ChunkRef,
    DocumentRecord,
    DocumentType,
    Evidence,
    HeldSkill,
    MatchKind,
    SkillStrength,
)
from talentrag.store import CandidateStore, RowStatus
from talentrag.store.base import StoreChanges
from tests.store.conftest import StoreFactory


def _skill(name: str, mentions: int = 3, **extra: object) -> HeldSkill:
    evidence = Evidence(text=f"{name} daily", source_file="x.txt", start=0, end=len(name))
    return HeldSkill(
        skill=name,
        category="software",
        kind=MatchKind.EXACT,
        confidence=1.0,
        surface=name,
        mentions=mentions,
        evidence=[evidence],
        **extra,
    )


def _record(
    cid: str,
    document_type: DocumentType = DocumentType.CV,
    *,
    skills: list[str] | None = None,
    chunks: list[str] | None = None,
    level: str | None = "mid",
) -> DocumentRecord:
    return DocumentRecord(
        id=cid,
        name=cid,
        source_file=f"{cid}.txt",
        content_hash=f"h-{cid}",
        level=level,
        document_type=document_type,
        skills=[_skill(s) for s in (["Python"] if skills is None else skills)],
        chunks=[ChunkRef(chunk_id=c, start=0, end=1, order=i) for i, c in enumerate(chunks or [])],
    )


async def _write(store: CandidateStore, tenant: str, *docs: tuple[DocumentRecord, str]) -> None:
    await store.stage(tenant, list(docs))
    await store.finish(tenant, [record.id for record, _ in docs])


# -- two-phase writes ---------------------------------------------------------------------
async def test_pending_rows_are_invisible_until_finished(store: CandidateStore):
    await store.stage(
        "t", [(_record("a"), "text a"), (_record("jd", DocumentType.JOB_DESCRIPTION), "jd text")]
    )
    assert await store.get("t", "a") is None and await store.profiles("t", ["a"]) == {}
    assert await store.text_of("t", "a") is None
    assert [w.status for w in await store.unfinished("t")] == [RowStatus.PENDING, RowStatus.PENDING]
    assert await store.tenants_with_unfinished() == ["t"]
    await store.finish("t", ["a", "jd"])
    profile = (await store.profiles("t", ["a", "jd"]))["a"]
    assert profile.level == "mid" and profile.skills["Python"].mentions == 3
    # job descriptions are never candidates
    assert set(await store.profiles("t", ["a", "jd"])) == {"a"}
    assert await store.get("other-tenant", "a") is None
    assert await store.text_of("t", "jd") == "jd text"
    assert await store.unfinished("t") == [] and await store.tenants_with_unfinished() == []


async def test_a_replacement_keeps_the_version_to_restore_and_the_first_stored_time(
    store: CandidateStore,
):
    await _write(store, "t", (_record("a", skills=["Python"], chunks=["c1", "c2"]), "v1"))
    first = await store.get("t", "a")
    await asyncio.sleep(1.1)  # created_at has second resolution
    (staged,) = await store.stage("t", [(_record("a", skills=["Go"], chunks=["c2", "c3"]), "v2")])
    assert staged.previous is not None and staged.previous[1] == "v1"
    assert staged.stale_chunk_ids == ["c1"]  # c2 is reused by the new version
    assert staged.record.created_at == first.created_at
    # while pending the document is not readable; a second staging (after a crash) still
    # keeps v1 as the version to restore, and every chunk v3 does not reuse as stale
    assert await store.get("t", "a") is None
    (again,) = await store.stage("t", [(_record("a", skills=["Rust"], chunks=["c4"]), "v3")])
    assert again.previous is not None and again.previous[1] == "v1"
    assert again.stale_chunk_ids == ["c1", "c2", "c3"]

    await store.finish("t", ["a"])
    assert await store.text_of("t", "a") == "v3"
    assert (await store.profiles("t", ["a"]))["a"].skills.keys() == {"Rust"}
    assert (await store.get("t", "a")).created_at == first.created_at


async def test_abandon_restores_the_replaced_version_and_drops_a_new_one(store: CandidateStore):
    await _write(store, "t", (_record("a", skills=["Python"]), "old text"))
    await store.stage("t", [(_record("a", skills=["Go"]), "new text"), (_record("n"), "n")])
    await store.abandon("t", ["a", "n"])
    assert await store.text_of("t", "a") == "old text"
    assert (await store.profiles("t", ["a"]))["a"].skills.keys() == {"Python"}
    assert await store.versions("t", ["n"]) == {}
    assert await store.unfinished("t") == []
    # the restored text is what full-text search finds
    assert set(await store.texts_containing("t", "old text", 10)) == {"a"}
    assert await store.texts_containing("t", "new text", 10) == {}


async def test_a_deletion_hides_the_document_and_can_be_cancelled(store: CandidateStore):
    await _write(store, "t", (_record("a"), "alpha"), (_record("b", skills=["Go"]), "beta"))
    assert await store.stage_deletion("t", ["a", "missing"]) == ["a"]
    assert await store.get("t", "a") is None
    assert [(w.record.id, w.status) for w in await store.unfinished("t")] == [
        ("a", RowStatus.DELETING)
    ]
    await store.abandon("t", ["a"])
    assert (await store.get("t", "a")).name == "a"

    await store.stage_deletion("t", ["a"])
    await store.finish("t", ["a"])
    assert await store.versions("t", ["a"]) == {}
    assert (await store.profiles("t", ["a", "b"])).keys() == {"b"}
    assert (await store.summary("t")).top_skills == [("Go", 1)]  # a's skills went with it


async def test_generations_count_each_tenants_committed_writes(store: CandidateStore):
    assert await store.generation("t") == 0
    await store.stage("t", [(_record("a"), "a")])
    assert await store.generation("t") == 0  # staging is not a commit
    await store.finish("t", ["a"])
    await store.stage("t", [(_record("b"), "b")])
    await store.abandon("t", ["b"])
    assert await store.generation("t") == 2 and await store.generation("u") == 0


async def test_changes_since_name_the_ids_each_commit_touched(store: CandidateStore):
    assert await store.changes_since("t", 0) == StoreChanges(0, frozenset())
    await _write(store, "t", (_record("a"), "a"), (_record("b"), "b"))  # 1: a, b
    await store.stage("t", [(_record("d"), "d")])
    await store.finish("t", ["d"], groups={"d": "a", "a": "a", "x": None})  # 2: d, a
    await store.stage("t", [(_record("e"), "e")])
    await store.abandon("t", ["e"])  # 3: e
    await store.restamp("t", ["a"], "v2")  # a stamp alone changes nothing a search reads
    await store.restamp("t", ["b"], "v2", groups={"b": "a"})  # 4: b
    await store.restamp("t", ["b"], "v3", groups={"a": "a", "b": "a"})  # no group moved
    assert await store.changes_since("t", 0) == StoreChanges(4, frozenset("abde"))
    assert await store.changes_since("t", 2) == StoreChanges(4, frozenset("be"))
    assert await store.changes_since("t", 4) == StoreChanges(4, frozenset())
    assert await store.changes_since("t", 5) is None  # ahead of the store: not this one
    assert await store.changes_since("u", 0) == StoreChanges(0, frozenset())


async def test_the_change_log_keeps_its_last_generations(store: CandidateStore):
    store.change_log_generations = 3
    await _write(store, "t", (_record("a"), "a"))
    for _ in range(3):
        await store.stage("t", [(_record("b"), "b")])
        await store.abandon("t", ["b"])
    assert await store.changes_since("t", 0) is None  # a's write left the log
    assert await store.changes_since("t", 1) == StoreChanges(4, frozenset("b"))


async def test_versions_report_hash_status_and_origin_of_any_row(store: CandidateStore):
    await _write(store, "t", (_record("a"), "a"))
    await store.stage("t", [(_record("b"), "b")], {"b": "/cvs/b.txt"}, analysis="v1")
    found = await store.versions("t", ["a", "b", "c"])
    assert {i: (v.content_hash, v.status, v.origin, v.analysis) for i, v in found.items()} == {
        "a": ("h-a", RowStatus.ACTIVE, None, None),
        "b": ("h-b", RowStatus.PENDING, "/cvs/b.txt", "v1"),
    }


# -- profiles -----------------------------------------------------------------------------
async def test_profiles_restricted_to_skills_keep_every_active_candidate(store: CandidateStore):
    go = _record("b", skills=[])
    await store.stage("t", [(_record("a"), "a"), (go, "b"), (_record("pending"), "p")])
    await store.finish("t", ["a", "b"])
    ids = ["a", "b", "pending", "missing"]
    assert (await store.profiles("t", ids, {"Rust"})).keys() == {"a", "b"}
    scoped = await store.profiles("t", ids, {"Python", "Rust"})
    assert scoped["a"].skills.keys() == {"Python"} and scoped["b"].skills == {}
    assert scoped["a"] == (await store.profiles("t", ["a"]))["a"]
    assert (await store.profiles("t", ["b"], {"Python"}))["b"].skills == {}


async def test_profiles_carry_strength_years_and_last_use(store: CandidateStore):
    held = _skill("Kubernetes", 2, strength=SkillStrength.ROLE, years=4.5, last_used=2025)
    record = _record("a", skills=[]).model_copy(update={"skills": [held], "years": 7.0})
    await _write(store, "t", (record, "text"))
    profile = (await store.profiles("t", ["a"], {"Kubernetes"}))["a"]
    holding = profile.skills["Kubernetes"]
    assert (holding.kind, holding.confidence, holding.mentions) == (MatchKind.EXACT, 1.0, 2)
    assert (holding.strength, holding.years, holding.last_used) == (SkillStrength.ROLE, 4.5, 2025)
    assert (profile.level, profile.years) == ("mid", 7.0)


# -- analysis stamps ----------------------------------------------------------------------
async def test_analysis_stamps_and_given_names_follow_the_version_they_belong_to(
    store: CandidateStore,
):
    await store.stage("t", [(_record("a"), "v1")], analysis="old", given_names={"a": "Ada (ATS)"})
    await store.finish("t", ["a"])
    assert (await store.versions("t", ["a"]))["a"].analysis == "old"

    # a replacement that fails is abandoned: the old stamp and given name come back with it
    await store.stage("t", [(_record("a"), "v2")], analysis="new")
    assert (await store.versions("t", ["a"]))["a"].analysis == "new"
    await store.abandon("t", ["a"])
    assert (await store.versions("t", ["a"]))["a"].analysis == "old"
    (stale,) = await store.stale_documents("t", "new", limit=10)
    assert (stale.record.id, stale.text, stale.given_name) == ("a", "v1", "Ada (ATS)")

    await store.stage("t", [(_record("a"), "v2")], analysis="new", given_names={"a": "Ada"})
    await store.finish("t", ["a"])
    assert await store.stale_documents("t", "new", limit=10) == []
    assert await store.stale_counts("new") == {}


async def test_stale_documents_page_by_id_and_count_per_tenant(store: CandidateStore):
    ids = ["e", "b", "d", "a", "c"]
    await store.stage("t", [(_record(i), i) for i in ids], analysis="old")
    await store.stage("t", [(_record("f"), "f")], analysis="new")
    await store.stage("u", [(_record("a"), "a")])  # no stamp at all: stale too
    await store.finish("t", [*ids, "f"])
    await store.finish("u", ["a"])
    await store.stage("t", [(_record("g"), "g")], analysis="old")  # pending: not counted yet

    assert await store.stale_counts("new") == {"t": 5, "u": 1}
    first = await store.stale_documents("t", "new", limit=2)
    rest = await store.stale_documents("t", "new", limit=10, after_id=first[-1].record.id)
    assert [s.record.id for s in first + rest] == ["a", "b", "c", "d", "e"]


async def test_every_document_pages_whole_rows_and_counts_per_tenant(store: CandidateStore):
    """What a copy to another store reads: each active row with origin, stamp, signature."""
    await store.stage(
        "t",
        [(_record("b"), "text b"), (_record("a"), "text a")],
        {"a": "/cvs/a.txt"},
        analysis="v5",
        given_names={"b": "Bea (ATS)"},
        signatures={"a": b"sig-a"},
    )
    await store.finish("t", ["a", "b"])
    await _write(store, "u", (_record("c"), "c"))
    await store.stage("t", [(_record("p"), "p")])  # pending: not a document yet

    assert await store.document_counts() == {"t": 2, "u": 1}
    (first,) = await store.every_document("t", limit=1)
    (second,) = await store.every_document("t", limit=10, after_id="a")
    assert (first.record.id, first.text, first.origin, first.analysis, first.signature) == (
        "a",
        "text a",
        "/cvs/a.txt",
        "v5",
        b"sig-a",
    )
    assert (second.record.id, second.given_name, second.signature) == ("b", "Bea (ATS)", None)


async def test_a_new_row_keeps_the_created_at_its_record_brings(store: CandidateStore):
    """A copy from another store keeps when each CV was first stored (duplicate groups
    name the earliest first); a replaced row keeps its own."""
    await _write(store, "src", (_record("a"), "a"))
    (copied,) = await store.every_document("src", limit=1)
    await asyncio.sleep(1.1)  # the stores keep whole seconds
    await _write(store, "dst", (copied.record, "a"))
    assert (await store.get("dst", "a")).created_at == copied.record.created_at

    await _write(store, "dst", (_record("a"), "a2"))  # an update: the row's own stays
    assert (await store.get("dst", "a")).created_at == copied.record.created_at


async def test_restamp_marks_only_active_rows(store: CandidateStore):
    await _write(store, "t", (_record("a"), "a"))
    await store.stage("t", [(_record("p"), "p")], analysis="old")
    await store.restamp("t", ["a", "p"], "new")
    assert await store.stale_documents("t", "new", limit=10) == []
    assert (await store.versions("t", ["p"]))["p"].analysis == "old"


# -- listings and lookups -----------------------------------------------------------------
async def test_listings_page_by_id_in_byte_order_and_filter_by_type(store: CandidateStore):
    ids = ["b-2", "B-1", "a_1", "a-1", "c"]
    await _write(store, "t", *[(_record(i), i) for i in ids])
    await _write(store, "t", (_record("jd", DocumentType.JOB_DESCRIPTION), "jd"))
    await store.stage("t", [(_record("pending"), "p")])

    first = await store.list_documents("t", limit=2)
    rest = await store.list_documents("t", limit=10, after_id=first[-1].id)
    assert [r.id for r in first + rest] == ["B-1", "a-1", "a_1", "b-2", "c"]
    every = await store.list_documents("t", document_type=None, limit=10)
    assert [r.id for r in every] == ["B-1", "a-1", "a_1", "b-2", "c", "jd"]
    (jd,) = await store.list_documents("t", DocumentType.JOB_DESCRIPTION)
    assert jd.document_type is DocumentType.JOB_DESCRIPTION and jd.tenant == "t"
    assert await store.list_documents("u") == []


async def test_get_many_reads_records_with_their_stored_times(store: CandidateStore):
    await _write(store, "t", (_record("a"), "a"), (_record("b"), "b"))
    found = await store.get_many("t", ["a", "b", "zzz"])
    assert found.keys() == {"a", "b"}
    assert found["a"].created_at is not None and found["a"].created_at.tzinfo is not None
    assert found["a"].skills[0].evidence[0].text == "Python daily"


# -- full-text search ---------------------------------------------------------------------
async def test_texts_containing_finds_the_words_in_order_ignoring_case_and_accents(
    store: CandidateStore,
):
    await _write(
        store,
        "t",
        (_record("a"), "Built services in React/Node.js and Ruby on Rails at Café Münster."),
        (_record("b"), "Rails on Ruby; node, then JS. Lives in Munster."),
        (_record("jd", DocumentType.JOB_DESCRIPTION), "Wanted: Node.js and Ruby on Rails"),
    )
    await store.stage("t", [(_record("p"), "Node.js in a pending write")])
    await _write(store, "u", (_record("x"), "Node.js elsewhere"))

    assert set(await store.texts_containing("t", "node.js", 10)) == {"a"}  # JD, pending, u: no
    assert set(await store.texts_containing("t", "Ruby on Rails", 10)) == {"a"}  # b: other order
    assert set(await store.texts_containing("t", "MÜNSTER", 10)) == {"a", "b"}
    assert set(await store.texts_containing("t", "cafe munster", 10)) == {"a"}
    found = await store.texts_containing("t", "rails", 10)
    assert found["b"] == "Rails on Ruby; node, then JS. Lives in Munster."
    assert await store.texts_containing("t", "Rail", 10) == {}  # whole words only
    assert await store.texts_containing("t", "+#!", 10) == {}


async def test_texts_containing_returns_at_most_the_limit(store: CandidateStore):
    await _write(
        store, "t", *[(_record(f"c{i}"), f"Terraform modules, number {i}") for i in range(5)]
    )
    assert len(await store.texts_containing("t", "terraform", 3)) == 3
    assert len(await store.texts_containing("t", "Terraform modules", 10)) == 5


# -- summary ------------------------------------------------------------------------------
async def test_summary_counts_levels_top_skills_and_unfinished_writes(store: CandidateStore):
    await _write(
        store,
        "t",
        (_record("a", skills=["Python", "Go"]), "a"),
        (_record("b", skills=["Python"], level="senior"), "b"),
        (_record("c", skills=["Go", "Rust"], level=None), "c"),
        (_record("jd", DocumentType.JOB_DESCRIPTION, skills=["Rust"]), "jd"),
    )
    await store.stage("t", [(_record("p", skills=["Python"]), "p")])
    await store.stage_deletion("t", ["c"])

    summary = await store.summary("t")
    assert (summary.candidates, summary.other_documents) == (2, 1)
    assert summary.by_level == {"mid": 1, "senior": 1}
    assert summary.top_skills == [("Python", 2), ("Go", 1)]
    assert summary.unfinished == ["c", "p"] and summary.duplicates == 0


async def test_a_second_store_on_the_same_data_sees_committed_writes(new_store: StoreFactory):
    writer, reader = new_store(), new_store()
    await writer.open()
    await reader.open()
    try:
        await writer.stage("t", [(_record("a"), "Kotlin and Spring")])
        assert await reader.get("t", "a") is None
        await writer.finish("t", ["a"])
        assert (await reader.get("t", "a")).name == "a"
        assert await reader.generation("t") == 1
        assert set(await reader.texts_containing("t", "kotlin", 10)) == {"a"}
    finally:
        await writer.close()
        await reader.close()
