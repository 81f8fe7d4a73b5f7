"""talentrag: candidate search over a LightRAG knowledge graph of CVs."""

__version__ = "0.1.0"
