import pytest

from talentrag.domain import MatchKind
from talentrag.vocabulary import SkillNormalizer, Vocabulary


@pytest.fixture(scope="module")
def normalizer(vocabulary: Vocabulary, minilm, tmp_path_factory) -> SkillNormalizer:
    return SkillNormalizer(vocabulary, minilm, cache_dir=tmp_path_factory.mktemp("cache"))


def _by_skill(matches):
    return {m.skill: m for m in matches}


@pytest.mark.parametrize(
    ("text", "skill", "kind"),
    [
        ("Kubernetes", "Kubernetes", MatchKind.EXACT),
        ("kubernetes", "Kubernetes", MatchKind.EXACT),
        ("K8s", "Kubernetes", MatchKind.ALIAS),
        ("go", "Go", MatchKind.EXACT),
        ("postgres", "PostgreSQL", MatchKind.ALIAS),
        ("sklearn", "scikit-learn", MatchKind.ALIAS),
    ],
)
async def test_primary_match(normalizer: SkillNormalizer, text: str, skill: str, kind: MatchKind):
    primary = (await normalizer.normalize(text))[0]
    assert (primary.skill, primary.kind) == (skill, kind)


async def test_eks_implies_kubernetes_and_aws(normalizer: SkillNormalizer):
    matches = _by_skill(await normalizer.normalize("EKS"))
    assert matches["Amazon EKS"].kind is MatchKind.ALIAS
    assert matches["Kubernetes"].kind is MatchKind.IMPLIED
    assert matches["AWS"].kind is MatchKind.IMPLIED
    assert matches["Kubernetes"].confidence < matches["Amazon EKS"].confidence


async def test_related_concepts_earn_partial_credit(normalizer: SkillNormalizer):
    matches = _by_skill(await normalizer.normalize("container orchestration"))
    assert matches["Kubernetes"].kind is MatchKind.RELATED
    assert 0 < matches["Kubernetes"].confidence <= 0.5


async def test_unknown_phrase_falls_back_to_embedding_neighbours(normalizer: SkillNormalizer):
    primary = (await normalizer.normalize("postgresql database administration"))[0]
    assert primary.kind is MatchKind.SEMANTIC
    assert primary.skill == "PostgreSQL"
    assert primary.confidence < 0.9


async def test_nonsense_matches_nothing(normalizer: SkillNormalizer):
    assert await normalizer.normalize("NonexistentSkill123") == []
    assert await normalizer.normalize("   ") == []


async def test_vocabulary_vectors_are_cached(normalizer: SkillNormalizer, tmp_path_factory):
    await normalizer.rank_skills("python")
    assert list(normalizer._cache_dir.glob("vocabulary-*.npy"))
