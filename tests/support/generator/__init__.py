"""Synthetic CVs, job descriptions and company pages with exact ground truth.

Each document is written from a plan that *is* its truth: the skills it writes
as held (with the vocabulary's ``implies`` closure), the skills it writes only in
negated or aspirational phrasing, and dated roles whose intervals follow the
conventions of talentrag.ingestion.dates. The truth is never read back from the
text, and nothing here copies the extractor's rules.

Modules: vocabulary (the skills.yaml file), wordlists (data/*.yaml), plan (what
a CV says), timeline (dates, roles, years), sections (section content),
rendering (layouts), jobs (job documents), corpus (files and command line).
"""

from tests.support.generator.corpus import generate_corpus, main
from tests.support.generator.vocabulary import DEFAULT_VOCABULARY

__all__ = ["DEFAULT_VOCABULARY", "generate_corpus", "main"]
