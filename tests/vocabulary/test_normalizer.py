import pytest

from talentrag.domain import MatchKind
from talentrag.search.query import acceptable_skills, implied_by
from talentrag.vocabulary import SkillNormalizer, Vocabulary


@pytest.fixture(scope="module")
def normalizer(vocabulary: Vocabulary, minilm, tmp_path_factory) -> SkillNormalizer:
    return SkillNormalizer(vocabulary, minilm, cache_dir=tmp_path_factory.mktemp("cache"))


async def _accepted(normalizer: SkillNormalizer, text: str):
    """What a search for ``text`` accepts, by canonical skill."""
    primary = await normalizer.normalize(text)
    return acceptable_skills(primary, normalizer.vocabulary, implied_by(normalizer.vocabulary))


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
    primary = await normalizer.normalize(text)
    assert (primary.skill, primary.kind) == (skill, kind)


async def test_eks_holders_count_for_kubernetes_and_aws(normalizer: SkillNormalizer):
    assert (await normalizer.normalize("EKS")).skill == "Amazon EKS"
    for requested in ("Kubernetes", "AWS"):
        accepted = await _accepted(normalizer, requested)
        assert accepted["Amazon EKS"].kind is MatchKind.IMPLIED
        assert accepted["Amazon EKS"].confidence < accepted[requested].confidence


async def test_related_concepts_earn_partial_credit(normalizer: SkillNormalizer):
    matches = await _accepted(normalizer, "container orchestration")
    assert matches["Kubernetes"].kind is MatchKind.RELATED
    assert 0 < matches["Kubernetes"].confidence <= 0.5


async def test_unknown_phrase_falls_back_to_embedding_neighbours(normalizer: SkillNormalizer):
    primary = await normalizer.normalize("postgresql database administration")
    assert primary.kind is MatchKind.SEMANTIC
    assert primary.skill == "PostgreSQL"
    assert primary.confidence < 0.9


async def test_nonsense_matches_nothing(normalizer: SkillNormalizer):
    assert await normalizer.normalize("NonexistentSkill123") is None
    assert await normalizer.normalize("   ") is None


async def test_vocabulary_vectors_are_cached(normalizer: SkillNormalizer, tmp_path_factory):
    await normalizer.rank_skills("python")
    assert list(normalizer._cache_dir.glob("vocabulary-*.npy"))


@pytest.mark.parametrize(
    ("text", "skill"),
    [("Kubernets", "Kubernetes"), ("postgresql database administration", "PostgreSQL")],
)
async def test_a_neighbour_that_is_the_same_concept_is_accepted(
    normalizer: SkillNormalizer, text: str, skill: str
):
    assert normalizer.same_concept(text, skill)
    assert (await normalizer.normalize(text)).skill == skill


@pytest.mark.parametrize(
    ("text", "neighbour"),
    [
        ("SolidWorks 3D CAD", "Solidity"),
        ("Fitness Training", "Corporate Training"),
        ("selling", "Sales Operations"),
    ],
)
def test_a_neighbour_that_is_another_concept_is_refused(
    normalizer: SkillNormalizer, text: str, neighbour: str
):
    assert not normalizer.same_concept(text, neighbour)
