"""Skill vocabulary (data in data/skills.yaml), its matcher and its normaliser."""

from talentrag.vocabulary.normalizer import SemanticPolicy, SkillNormalizer
from talentrag.vocabulary.vocabulary import (
    Vocabulary,
    VocabularyError,
    default_vocabulary_path,
    load_vocabulary,
)

__all__ = [
    "SemanticPolicy",
    "SkillNormalizer",
    "Vocabulary",
    "VocabularyError",
    "default_vocabulary_path",
    "load_vocabulary",
]
