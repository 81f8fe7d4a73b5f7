"""The candidate's name, on CVs of the development set as a person reads them.

Each expected name was written by reading the document's first lines; the layouts are
the ones real CVs use: LinkedIn's PDF export (a "Contact" sidebar first), Europass
(title lines, "PERSONAL INFORMATION" labels, "Surname / First name:"), a document title
("RESUME", "CURRICULUM VITAE") above the name, letters after the name, and a headline on
the name's line.
"""

from __future__ import annotations

import pytest

from talentrag.ingestion.cv_parser import find_name
from talentrag.ingestion.readers import read_document
from tests.devset.truth import DEVSET

NAMES = {
    # LinkedIn export: Contact, e-mail, LinkedIn address, Top Skills ... then the name
    "t-kenji-watanabe-go-rust.txt": "Kenji Watanabe",
    "p-aisha-khan-account-manager.txt": "Aisha Khan",
    "t-oliver-bennett-cloud-architect.pdf": "Oliver Bennett",  # no e-mail: LinkedIn's address
    # Europass
    "p-anna-kowalska-teacher-europass.pdf": "ANNA KOWALSKA",
    "p-elena-popescu-civil-engineer-europass.txt": "Elena Popescu",
    "t-ines-ferreira-angular-europass.pdf": "Inês Ferreira",
    "t-jan-novak-java-europass.txt": "Jan Novák",
    "t-marco-bianchi-sap-abap-europass.txt": "Bianchi Marco",  # "Surname / First name:"
    "t-pierre-dubois-devops-europass.docx": "Pierre Dubois",
    # a document title above the name
    "p-rohan-das-secondary-teacher.txt": "ROHAN DAS",
    "p-vikram-patil-site-engineer.txt": "VIKRAM SHANKAR PATIL",
    "t-hannah-schmidt-bioinformatics.txt": "Hannah E. Schmidt",
    # letters after the name
    "p-grace-okafor-icu-nurse.txt": "GRACE N. OKAFOR",
    "p-james-whitfield-mechanical-engineer.docx": "JAMES R. WHITFIELD",
    "p-siobhan-reilly-wound-care-nurse.docx": "Siobhan Reilly",
    "p-oluwaseun-adeyemi-civil-engineer.pdf": "Oluwaseun Adeyemi",
    "p-thomas-becker-senior-accountant.txt": "THOMAS J. BECKER",
    "t-maria-lopez-biostatistics.txt": "María López Herrera",
    # a headline on the name's line
    "p-emma-johansson-marketing.txt": "Emma Johansson",
    "p-lucas-ferreira-sales.txt": "LUCAS FERREIRA",
    "p-carlos-mendoza-welder.txt": "CARLOS MENDOZA",
    # plain first lines stay as they were
    "t-marcus-johnson-sre.txt": "Marcus D. Johnson",
    "t-michael-obrien-eng-manager.txt": "Michael O'Brien",
    "p-helene-dubois-contracts-lawyer.txt": "Hélène Dubois",
}


@pytest.mark.parametrize(("document", "name"), sorted(NAMES.items()))
def test_the_name_a_reader_sees(document: str, name: str) -> None:
    text = read_document(DEVSET / "documents" / document)
    found = find_name(text)
    assert found is not None, document
    value, (start, end) = found
    assert value == name
    assert text[start:end] == name  # the span points at it in the text


def test_no_name_is_invented_from_a_heading_or_a_title() -> None:
    assert find_name("CURRICULUM VITAE\nPROFESSIONAL SUMMARY\nEngineer.") is None
    assert find_name("Contact\nTop Skills\nDistributed Systems\nPython") is None
