"""Document bytes to plain text: txt, md, pdf (pypdf), docx (python-docx).

Every failure is a ``talentrag.errors.DocumentError`` whose ``reason`` is one of a
few stable words (unsupported, unreadable, empty, too_large) so callers can
summarise and the HTTP API can map them to status codes. The size limit is
``Settings.max_upload_bytes``, passed in by the caller.
"""

from __future__ import annotations

import io
import logging
import re
import unicodedata
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import ftfy

from talentrag.errors import DocumentError
from talentrag.ingestion.columns import untangle_columns
from talentrag.policy.limits import DEFAULT_MAX_DOCUMENT_BYTES, MAX_ANALYSED_CHARS, MIN_TEXT_CHARS

if TYPE_CHECKING:
    from docx.table import Table
    from docx.text.paragraph import Paragraph

log = logging.getLogger(__name__)

MAX_DOCX_XML_BYTES = 64 * 1024 * 1024
"""Inflated size of a DOCX's parts other than images; real CVs use well under 5 MB."""
TEXT_SUFFIXES = {".txt", ".md", ".markdown", ".text"}
SUPPORTED_SUFFIXES = TEXT_SUFFIXES | {".pdf", ".docx"}


def read_document(path: Path, max_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES) -> str:
    """A file's text; ``DocumentError`` when it cannot be indexed."""
    if path.suffix.lower() not in SUPPORTED_SUFFIXES:
        raise DocumentError(
            "unsupported", f"unsupported file type {path.suffix or '(none)'!r}; use {_supported()}"
        )
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise DocumentError("too_large", f"file is {size} bytes; the limit is {max_bytes}")
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError("unreadable", f"cannot read file: {exc.strerror or exc}") from exc
    return extract_text(data, path.name, max_bytes)


def extract_text(data: bytes, filename: str, max_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES) -> str:
    """Plain text of a document's bytes, by its file name's suffix."""
    suffix = Path(filename).suffix.lower()
    if len(data) > max_bytes:
        raise DocumentError("too_large", f"document is {len(data)} bytes; the limit is {max_bytes}")
    if suffix in TEXT_SUFFIXES:
        text = _decode_text(data)
    elif suffix == ".pdf":
        text = _pdf_text(data)
    elif suffix == ".docx":
        text = _docx_text(data)
    else:
        raise DocumentError(
            "unsupported", f"unsupported file type {suffix or '(none)'!r}; use {_supported()}"
        )
    text = clean_text(text)
    require_text(text)
    return text


# Characters XML (LightRAG's GraphML), JSON stores or PostgreSQL cannot hold: C0 controls
# but tab and newline, lone surrogates, U+FFFE/U+FFFF. Page and line-tabulation breaks
# (common in text extracted from PDF and Word files) become newlines; the rest go.
_BREAKS = str.maketrans({"\f": "\n", "\v": "\n", "\u2028": "\n", "\u2029": "\n"})
_UNSTORABLE = re.compile("[\x00-\x08\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def clean_text(text: str) -> str:
    """The text every store keeps: one newline convention, NFC, nothing XML cannot encode,
    two-column blocks in reading order (``columns.untangle_columns``).

    Applied where text enters (files read, texts sent), before any analysis, so the
    evidence offsets computed later are offsets into exactly the stored text.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_BREAKS)
    # Mojibake from a wrong decoding upstream ("â€¢" for "•", "Ã©" for "é"), ligatures and
    # curly quotes: repaired, so the analysis and the evidence read what was written.
    # The check is one regular expression; fixing costs seconds per MB, so it runs only
    # when needed and only over the part that is analysed.
    head = text[:MAX_ANALYSED_CHARS]
    if not head.isascii() and ftfy.badness.is_bad(head):
        text = ftfy.fix_text(head, normalization="NFC") + text[MAX_ANALYSED_CHARS:]
    text = untangle_columns(_UNSTORABLE.sub("", text))
    return unicodedata.normalize("NFC", text).strip("\ufeff")


def clean_line(value: str) -> str:
    """A one-line field (a name, a file name) cleaned like text, its whitespace collapsed."""
    return " ".join(clean_text(value).split())


def require_text(text: str) -> None:
    """The minimum-content rule for every path (files, PUT, MCP): ``DocumentError('empty')``."""
    if len(text.strip()) < MIN_TEXT_CHARS:
        raise DocumentError(
            "empty",
            f"document has no text to index: it needs at least {MIN_TEXT_CHARS} characters "
            "that are not blank (an image-only scan has none)",
        )


def _supported() -> str:
    return ", ".join(sorted(SUPPORTED_SUFFIXES))


def _decode_text(data: bytes) -> str:
    if b"\x00" in data[:8192]:
        raise DocumentError("unreadable", "file looks binary (NUL bytes), not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    controls = sum(
        1 for ch in text[:8192] if unicodedata.category(ch) == "Cc" and ch not in "\n\r\t"
    )
    if controls > max(8, len(text[:8192]) // 50) or text.count("\ufffd") > len(text) // 20:
        raise DocumentError("unreadable", "file is neither UTF-8 nor Windows-1252 text")
    return text


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise DocumentError("unreadable", "PDF is encrypted")
        pages = [page.extract_text() or "" for page in reader.pages]
    except DocumentError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise DocumentError("unreadable", f"not a readable PDF: {exc}") from exc
    return "\n\n".join(page.strip() for page in pages)


def _check_inflated_size(data: bytes) -> None:
    """Refuse an archive whose XML would inflate past ``MAX_DOCX_XML_BYTES`` (a zip bomb).

    The declared sizes are a hard bound: ``zipfile`` stops at the declared size and a
    member that inflates further fails its CRC check.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            xml = sum(
                i.file_size for i in archive.infolist() if not i.filename.startswith("word/media/")
            )
    except (zipfile.BadZipFile, ValueError) as exc:
        raise DocumentError("unreadable", f"not a readable DOCX: {exc}") from exc
    if xml > MAX_DOCX_XML_BYTES:
        raise DocumentError(
            "unreadable",
            f"DOCX text parts inflate to {xml} bytes (limit {MAX_DOCX_XML_BYTES}): "
            "a compressed bomb or not a CV",
        )


def _docx_text(data: bytes) -> str:
    from docx import Document
    from docx.opc.exceptions import PackageNotFoundError
    from lxml.etree import LxmlError

    _check_inflated_size(data)
    try:
        document = Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, LxmlError) as exc:
        raise DocumentError("unreadable", f"not a readable DOCX: {exc}") from exc
    return "\n".join(_docx_lines(document.iter_inner_content()))


def _docx_lines(blocks: Iterable[Paragraph | Table]) -> Iterator[str]:
    """Paragraphs and table rows in the order they stand: a skills table belongs under
    its heading, not after the last paragraph. A merged cell is written once."""
    from docx.table import Table

    for block in blocks:
        if isinstance(block, Table):
            for row in block.rows:
                cells = [cell.text.strip() for cell in row.cells]
                yield " | ".join(c for i, c in enumerate(cells) if i == 0 or c != cells[i - 1])
        else:
            yield block.text
