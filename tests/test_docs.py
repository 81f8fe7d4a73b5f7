"""Docs that match the code: every setting is documented with its variable and default."""

from pathlib import Path

from talentrag.config import Settings

DOCS = Path(__file__).parents[1] / "docs"


def test_every_setting_is_in_the_configuration_reference():
    reference = (DOCS / "configuration.md").read_text()
    for name in Settings.model_fields:
        assert f"| {name} | `TALENTRAG_{name.upper()}` |" in reference, name


def test_readme_starts_with_the_two_setup_commands():
    readme = (DOCS.parent / "README.md").read_text()
    first_block = readme.split("```")[1]
    commands = [line.split("#")[0].strip() for line in first_block.splitlines()[1:] if line.strip()]
    assert commands == ["make run", "make test"]
