"""PDFs as extracted text, page by page, chosen with a `pages` range.

Why ranges: a long PDF's text easily exceeds what one result may hold, so a large PDF without
`pages` is refused with its page count, and the model asks for the pages it needs.
"""

from __future__ import annotations

import re

from claude_harness.protocol.tool import ToolError

MAX_PAGES_PER_CALL = 20
MAX_PAGES_WITHOUT_RANGE = 10
_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_pages(spec: str, page_count: int) -> list[int]:
    """'3', '1-5', '1-3,7' -> zero-based page indexes, validated against the document."""
    indexes: list[int] = []
    for part in spec.split(","):
        match = _RANGE.match(part)
        if not match:
            raise ToolError(
                f'pages={spec!r} is not a page range. Use forms like "3", "1-5" or "1-3,7".',
                code="bad_pages",
            )
        first = int(match.group(1))
        last = int(match.group(2) or first)
        if first < 1 or last < first:
            raise ToolError(
                f"pages={spec!r}: pages are numbered from 1 and a range goes low to high.",
                code="bad_pages",
            )
        if first > page_count:
            raise ToolError(
                f"pages={spec!r}: the PDF has only {page_count} page(s).", code="bad_pages"
            )
        indexes.extend(range(first - 1, min(last, page_count)))
    unique = sorted(set(indexes))
    if len(unique) > MAX_PAGES_PER_CALL:
        raise ToolError(
            f"pages={spec!r} selects {len(unique)} pages; read at most {MAX_PAGES_PER_CALL} "
            "pages per call.",
            code="bad_pages",
        )
    return unique


def read_pdf(path: str, pages: str | None, budget: int) -> str:
    """The text of the chosen pages, each under a page header, cut at `budget` characters."""
    from pypdf import PdfReader  # imported on first PDF read: it costs ~50 ms at start-up
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(path)
        if reader.is_encrypted:
            try:
                reader.decrypt("")
            except Exception as exc:  # pypdf raises several types here
                raise ToolError(f"{path} is an encrypted PDF.", code="bad_pdf") from exc
        count = len(reader.pages)
    except PdfReadError as exc:
        raise ToolError(f"{path} could not be read as a PDF: {exc}", code="bad_pdf") from exc
    except PermissionError as exc:
        raise ToolError(f"Permission denied: cannot read {path}.", code="permission") from exc
    if pages is None:
        if count > MAX_PAGES_WITHOUT_RANGE:
            raise ToolError(
                f"{path} has {count} pages, too many to read at once. Call Read again with "
                f'pages set to a range of at most {MAX_PAGES_PER_CALL} pages, e.g. pages="1-10".',
                code="pdf_needs_pages",
            )
        chosen = list(range(count))
    else:
        chosen = parse_pages(pages, count)
    if not chosen:
        return f"{path} is a PDF with no pages."

    parts: list[str] = []
    size = 0
    for index in chosen:
        try:
            text = (reader.pages[index].extract_text() or "").strip()
        except Exception as exc:  # a broken page should not lose the others
            text = f"(text could not be extracted from this page: {exc})"
        if not text:
            text = "(no extractable text on this page; it may be a scanned image)"
        part = f"--- Page {index + 1} of {count} ---\n{text}"
        if parts and size + len(part) > budget:
            parts.append(
                f"[Partial view: stopped before page {index + 1} to stay within the size "
                f'limit. Continue with pages="{index + 1}-{chosen[-1] + 1}".]'
            )
            break
        if len(part) > budget:
            part = part[:budget] + "\n[... page text cut at the size limit]"
        parts.append(part)
        size += len(part)
    return "\n\n".join(parts)
