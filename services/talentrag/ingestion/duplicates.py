"""Near-duplicate CVs: one person's CV ingested twice, however it was re-formatted.

A CV's signature is a MinHash (datasketch) of the 5-word shingles of its normalised
text: case, punctuation, Markdown marks, bullets, line breaks and accents are gone, so
the same CV as plain text, as Markdown or re-flowed by a PDF reader gives (nearly) the
same shingles, while two people written from one template share only the template's
phrases. A digest of the normalised words is the fast path for identical content.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from anyascii import anyascii

from talentrag.policy.duplicates import DUPLICATE_SIMILARITY
from talentrag.policy.limits import MAX_ANALYSED_CHARS
from talentrag.store.base import CandidateStore

if TYPE_CHECKING:
    from datasketch import LeanMinHash

# datasketch is imported where it is used: importing it imports SciPy (1.5 s here), which
# searches and listings never need.

SHINGLE_WORDS = 5
"""Words per shingle. Five keeps two people's shared template phrases ("responsible for
the design and") from adding up to a match, while one edited word changes only the
five shingles around it."""

NUM_PERM = 128
"""MinHash permutations: a similarity estimate's standard error is about 0.045 at 0.5."""

_SEED = 1
_SCHEME = "affine32"
_FORMAT = 1
"""Leads every stored signature; bump it when normalisation, shingles or MinHash settings
change, so signatures made the old way are read as missing rather than compared."""
_DIGEST_BYTES = 16
_WORD = re.compile(r"[a-z0-9]+")


def normalised_words(text: str) -> list[str]:
    """The words of a text with formatting gone: Unicode folded to ASCII, lower case,
    punctuation and Markdown marks dropped ('**Müller**' and 'MULLER' are one word)."""
    folded = anyascii(unicodedata.normalize("NFKC", text[:MAX_ANALYSED_CHARS])).casefold()
    return _WORD.findall(folded)


def shingles(words: list[str]) -> set[bytes]:
    """Runs of ``SHINGLE_WORDS`` consecutive words (a shorter text is one shingle)."""
    size = min(SHINGLE_WORDS, len(words))
    return {" ".join(words[i : i + size]).encode() for i in range(len(words) - size + 1)}


@dataclass(frozen=True)
class Signature:
    """A CV's near-duplicate signature: its MinHash and a digest of its normalised words."""

    digest: bytes
    minhash: LeanMinHash

    def similarity(self, other: Signature) -> float:
        """Estimated Jaccard similarity of the two shingle sets; 1.0 for identical words."""
        if self.digest == other.digest:
            return 1.0
        return float(self.minhash.jaccard(other.minhash))

    def to_bytes(self) -> bytes:
        """The stored form: format byte, digest, serialised MinHash."""
        buffer = bytearray(self.minhash.bytesize())
        self.minhash.serialize(buffer)
        return bytes([_FORMAT]) + self.digest + bytes(buffer)

    @classmethod
    def from_bytes(cls, data: bytes) -> Signature | None:
        """A stored signature; None when it was made another way (or is damaged)."""
        from datasketch import LeanMinHash

        if len(data) <= 1 + _DIGEST_BYTES or data[0] != _FORMAT:
            return None
        try:
            minhash = LeanMinHash.deserialize(data[1 + _DIGEST_BYTES :])
        except (ValueError, TypeError, OverflowError):
            return None
        if len(minhash) != NUM_PERM or minhash.seed != _SEED or minhash.scheme != _SCHEME:
            return None
        return cls(data[1 : 1 + _DIGEST_BYTES], minhash)


def signature(text: str) -> Signature | None:
    """The signature of a text; None when it has no words to compare."""
    from datasketch import LeanMinHash, MinHash

    words = normalised_words(text)
    if not words:
        return None
    digest = hashlib.sha256(" ".join(words).encode()).digest()[:_DIGEST_BYTES]
    minhash = MinHash(num_perm=NUM_PERM, seed=_SEED, scheme=_SCHEME)
    minhash.update_batch(sorted(shingles(words)))
    return Signature(digest, LeanMinHash(minhash))


LSH_THRESHOLD = DUPLICATE_SIMILARITY - 0.1
"""The LSH index proposes pairs from a lower similarity than a match needs, and every
proposal is checked against ``DUPLICATE_SIMILARITY``. Its banding (32 bands of 4 rows)
proposes a pair at 0.7, the least similar duplicates measured, with probability 0.9998;
at 0.6, 0.988; exactly at the threshold, 0.87."""


@dataclass(frozen=True)
class Change:
    """A CV written or removed, as grouping sees it."""

    id: str
    signature: Signature | None
    """The new version's signature; None when the CV is removed or has none."""
    created: datetime
    """When the document was first stored: a group is named after its earliest member."""


@dataclass(frozen=True)
class Member:
    """An active CV with a signature, as stored: what an index is built from."""

    id: str
    signature: Signature
    created: datetime
    group: str | None


class DuplicateIndex:
    """One tenant's signed CVs in a MinHashLSH, and the groups they form.

    A group is a set of CVs linked by matches (similarity at or above
    ``DUPLICATE_SIMILARITY``; chains count, so A~B and B~C group A, B and C), named
    after its earliest member. ``regroup`` applies a batch of writes and says which
    CVs changed group, so the caller stores exactly that in the write's transaction.
    """

    def __init__(self, members: Iterable[Member], generation: int = 0):
        from datasketch import MinHashLSH

        self.generation = generation
        """The store generation the index reflects; another process's write moves it."""
        self._lsh = MinHashLSH(threshold=LSH_THRESHOLD, num_perm=NUM_PERM)
        self._signatures: dict[str, Signature] = {}
        self._by_digest: dict[bytes, set[str]] = {}
        self._order: dict[str, tuple[datetime, str]] = {}
        self._group: dict[str, str] = {}
        self._members: dict[str, set[str]] = {}
        for member in members:
            self._add(member.id, member.signature, member.created)
            if member.group is not None:
                self._set_group(member.id, member.group)

    def __len__(self) -> int:
        return len(self._signatures)

    def group_of(self, document_id: str) -> str | None:
        """The group a CV is in (the id of its earliest member); None when in none."""
        return self._group.get(document_id)

    def matches(self, document_id: str) -> set[str]:
        """Indexed CVs similar enough to this indexed one to be the same CV."""
        mine = self._signatures[document_id]
        candidates = self._by_digest[mine.digest] | set(self._lsh.query(mine.minhash))
        return {
            other
            for other in candidates - {document_id}
            if mine.similarity(self._signatures[other]) >= DUPLICATE_SIMILARITY
        }

    def regroup(self, changes: Sequence[Change]) -> dict[str, str | None]:
        """Apply written and removed CVs; the new group of every CV whose group changes.

        Every changed id is in the answer (None when it ends in no group), with the
        members of the groups it left or joined whose group id moved.
        """
        plan: dict[str, str | None] = {}
        seeds: set[str] = set()
        for change in changes:
            seeds |= self._members.get(self._group.get(change.id, ""), set())
            self._remove(change.id)
            plan[change.id] = None
        for change in changes:
            if change.signature is not None:
                self._add(change.id, change.signature, change.created)
                seeds.add(change.id)
        for component in self._components(seeds):
            group = min(component, key=self._order.__getitem__) if len(component) > 1 else None
            for member in component:
                if member in plan or self._group.get(member) != group:
                    plan[member] = group
                self._set_group(member, group)
        return plan

    def _components(self, seeds: set[str]) -> list[set[str]]:
        """The connected components (by ``matches``) holding the seeds still indexed."""
        seen: set[str] = set()
        components = []
        for seed in sorted(seeds):
            if seed in seen or seed not in self._signatures:
                continue
            component, frontier = {seed}, [seed]
            while frontier:
                found = self.matches(frontier.pop()) - component
                component |= found
                frontier += found
            seen |= component
            components.append(component)
        return components

    def _add(self, document_id: str, signature: Signature, created: datetime) -> None:
        self._remove(document_id)  # an id twice in one batch: its last version counts
        self._signatures[document_id] = signature
        self._by_digest.setdefault(signature.digest, set()).add(document_id)
        self._order[document_id] = (created, document_id)
        self._lsh.insert(document_id, signature.minhash, check_duplication=False)

    def _remove(self, document_id: str) -> None:
        self._set_group(document_id, None)
        signature = self._signatures.pop(document_id, None)
        if signature is None:
            return
        same = self._by_digest[signature.digest]
        same.discard(document_id)
        if not same:
            del self._by_digest[signature.digest]
        del self._order[document_id]
        self._lsh.remove(document_id)

    def _set_group(self, document_id: str, group: str | None) -> None:
        old = self._group.pop(document_id, None)
        if old is not None:
            self._members[old].discard(document_id)
            if not self._members[old]:
                del self._members[old]
        if group is not None:
            self._group[document_id] = group
            self._members.setdefault(group, set()).add(document_id)


class DuplicateGroups:
    """Each tenant's ``DuplicateIndex`` in this process, for grouping CVs as they are written.

    Built from the stored signatures on a tenant's first write in a process (one read
    of every signature; 1.2 s at 10,000 CVs on an idle core) and then kept current by
    this process's writes, so a write compares its CVs with the index (about 0.25 ms
    per CV) instead of reading every signature again. The price: memory, about 10 KB
    per CV (the LSH's 32 band tables; 100 MB at 10,000 CVs), each CLI write paying the
    build once, and a rebuild after another process wrote the tenant, which
    ``refresh`` notices from the store's generation, as the embedded graph does.
    """

    def __init__(self, store: CandidateStore):
        self.store = store
        self._indexes: dict[str, DuplicateIndex] = {}

    async def index(self, tenant: str) -> DuplicateIndex:
        """The tenant's index, built from the store on first use."""
        index = self._indexes.get(tenant)
        if index is None:
            generation = await self.store.generation(tenant)  # read first: a later write rebuilds
            members = [
                Member(row.id, parsed, row.created_at, row.group)
                for row in await self.store.duplicate_signatures(tenant)
                if (parsed := Signature.from_bytes(row.signature)) is not None
            ]
            index = self._indexes[tenant] = DuplicateIndex(members, generation)
        return index

    async def regroup(self, tenant: str, changes: Sequence[Change]) -> dict[str, str | None]:
        """``DuplicateIndex.regroup`` on the tenant's index; ``forget`` it if the write fails."""
        if not changes:
            return {}
        return (await self.index(tenant)).regroup(changes)

    async def refresh(self, tenant: str) -> None:
        """Drop the index if another process wrote the tenant since it was built."""
        index = self._indexes.get(tenant)
        if index is not None and index.generation != await self.store.generation(tenant):
            del self._indexes[tenant]

    def committed(self, tenant: str, generation: int) -> None:
        """This process's own commits: the index already holds them."""
        index = self._indexes.get(tenant)
        if index is not None:
            index.generation = generation

    def forget(self, tenant: str) -> None:
        """Drop the index (a write it already holds failed to commit); rebuilt on next use."""
        self._indexes.pop(tenant, None)


def change_of(document_id: str, signature_bytes: bytes | None, created: datetime | None) -> Change:
    """A ``Change`` from what the store keeps (a stored signature, a record's created_at)."""
    parsed = Signature.from_bytes(signature_bytes) if signature_bytes else None
    return Change(document_id, parsed, created or datetime.now(UTC))
