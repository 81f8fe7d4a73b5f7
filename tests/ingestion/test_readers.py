from pathlib import Path

import pytest

from talentrag.errors import DocumentError
from talentrag.ingestion.readers import clean_text, extract_text, read_document

CV = "Jane Doe\nSenior engineer. Python, Kubernetes and Terraform since 2015."


def test_plain_text_and_markdown(tmp_path: Path):
    (tmp_path / "a.txt").write_text(CV)
    (tmp_path / "b.md").write_text(f"# {CV}")
    assert "Kubernetes" in read_document(tmp_path / "a.txt")
    assert read_document(tmp_path / "b.md").startswith("# Jane Doe")


def test_windows_1252_text_is_decoded(tmp_path: Path):
    (tmp_path / "a.txt").write_bytes(
        "Zoë Müller — Python développeuse, 2019–present".encode("cp1252")
    )
    assert "Müller" in read_document(tmp_path / "a.txt")


def test_pdf(tmp_path: Path):
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=11)
    for line in CV.splitlines():
        pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    path = tmp_path / "cv.pdf"
    pdf.output(str(path))
    text = read_document(path)
    assert "Kubernetes" in text and "Jane Doe" in text


def test_docx_with_table(tmp_path: Path):
    from docx import Document

    document = Document()
    document.add_heading("Jane Doe", 0)
    document.add_paragraph("Senior engineer with Python and Kubernetes.")
    table = document.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text = "Skills"
    table.rows[0].cells[1].text = "Terraform, AWS"
    path = tmp_path / "cv.docx"
    document.save(str(path))
    text = read_document(path)
    assert "Kubernetes" in text and "Terraform, AWS" in text


def test_a_docx_table_stays_under_its_heading(tmp_path: Path):
    """A skills table read after the last paragraph would land in "Personal details"."""
    from docx import Document

    document = Document()
    document.add_paragraph("SKILLS")
    table = document.add_table(rows=2, cols=3)
    table.rows[0].cells[0].text = "Statutory"
    table.rows[0].cells[1].text = "PF, ESI, TDS"
    table.rows[0].cells[1].merge(table.rows[0].cells[2])
    table.rows[1].cells[0].text = "Payroll software"
    table.rows[1].cells[1].text = "Keka HRMS"
    document.add_paragraph("PERSONAL DETAILS")
    document.add_paragraph("Languages Known: Malayalam, English")
    path = tmp_path / "cv.docx"
    document.save(str(path))
    assert read_document(path).splitlines() == [
        "SKILLS",
        "Statutory | PF, ESI, TDS",  # the merged cell once
        "Payroll software | Keka HRMS | ",
        "PERSONAL DETAILS",
        "Languages Known: Malayalam, English",
    ]


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("empty.txt", b"", "empty"),
        ("blank.md", b"   \n\n  ", "empty"),
        ("binary.txt", b"\x00\x01\x02\x03PK\x00", "unreadable"),
        ("broken.pdf", b"%PDF-1.4 this is not really a pdf", "unreadable"),
        ("broken.docx", b"PK not a zip", "unreadable"),
        ("sheet.xlsx", b"whatever", "unsupported"),
        ("noext", b"whatever", "unsupported"),
    ],
)
def test_bad_files_raise_document_error_with_reason(
    tmp_path: Path, name: str, content: bytes, reason: str
):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(DocumentError) as info:
        read_document(path)
    assert info.value.reason == reason
    assert str(info.value)


def test_missing_file_is_unreadable(tmp_path: Path):
    with pytest.raises(DocumentError) as info:
        read_document(tmp_path / "gone.txt")
    assert info.value.reason == "unreadable"


def test_oversized_upload_is_refused():
    with pytest.raises(DocumentError) as info:
        extract_text(b"a" * (11 * 1024 * 1024), "big.txt")
    assert info.value.reason == "too_large"


def test_clean_text_keeps_only_what_every_store_can_hold():
    raw = "Fay\r\nSkills: Python,\f K8s\x00 and \ud800AWS\x1b.\r"
    assert clean_text(raw) == "Fay\nSkills: Python,\n K8s and AWS.\n"
    assert clean_text("Cafe\u0301") == "Caf\u00e9"  # NFC, so offsets count characters once


def test_a_docx_bomb_is_refused_before_it_inflates():
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", b"<w:t>" + b"a" * (80 * 1024 * 1024) + b"</w:t>")
    data = buffer.getvalue()
    assert len(data) < 1024 * 1024
    with pytest.raises(DocumentError) as info:
        extract_text(data, "bomb.docx")
    assert info.value.reason == "unreadable" and "bomb" in str(info.value)


def test_clean_text_repairs_mojibake_and_leaves_correct_text_alone():
    broken = "Portland, ME â€¢ Mar 2022 â€“ Present\nCafÃ© manager, ï¬\x81nance"
    assert clean_text(broken) == "Portland, ME • Mar 2022 – Present\nCafé manager, finance"
    written = "Zoë Müller • 東京 – naïve café"
    assert clean_text(written) == written
