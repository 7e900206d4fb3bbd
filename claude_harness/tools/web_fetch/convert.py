"""What a fetched body becomes for the model: Markdown for HTML, text for text and PDFs, an
image block for images. The type comes from the Content-Type header, checked against the
body's first bytes (servers mislabel files)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

from claude_harness.protocol.tool import ToolError
from claude_harness.tools.read.images import image_block, media_type_of
from claude_harness.tools.web_fetch.fetch import Fetched

TEXT_TYPES = ("text/", "application/json", "application/xml", "application/javascript",
              "application/x-yaml", "application/yaml", "+json", "+xml")
_CHARSET = re.compile(r"charset=([\w.-]+)", re.IGNORECASE)


@dataclass(frozen=True)
class Page:
    """A fetched page, ready for the model: text (Markdown or plain) or image blocks."""

    url: str
    status: int
    reason: str
    size: int
    text: str = ""
    images: tuple[dict[str, Any], ...] = ()
    kind: str = "text"  # html, text, pdf, image
    truncated: bool = False


def _decode(fetched: Fetched) -> str:
    match = _CHARSET.search(fetched.content_type)
    encoding = match.group(1) if match else "utf-8"
    try:
        return fetched.body.decode(encoding, errors="replace")
    except LookupError:  # an unknown charset name
        return fetched.body.decode("utf-8", errors="replace")


def _html_to_markdown(html: str) -> str:
    from html_to_markdown import convert  # imported on the first HTML page

    return (convert(html).content or "").strip()


def _pdf_text(data: bytes, url: str) -> str:
    from pypdf import PdfReader  # imported on the first PDF
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [(page.extract_text() or "").strip() for page in reader.pages]
    except (PdfReadError, ValueError, OSError) as exc:
        raise ToolError(f"{url} could not be read as a PDF: {exc}", code="bad_pdf") from exc
    parts = [f"--- Page {n} of {len(pages)} ---\n{text or '(no extractable text)'}"
             for n, text in enumerate(pages, 1)]
    return "\n\n".join(parts) or "(the PDF has no pages)"


def to_page(fetched: Fetched) -> Page:
    """Convert a fetched body; a binary type we cannot read is a clear error."""
    ctype = fetched.content_type.split(";", 1)[0].strip().lower()
    head = fetched.body[:16]
    common = {"url": fetched.url, "status": fetched.status, "reason": fetched.reason,
              "size": len(fetched.body), "truncated": fetched.truncated}
    if media_type_of(head) is not None or ctype.startswith("image/"):
        if fetched.truncated:
            raise ToolError(f"The image at {fetched.url} is larger than the size limit.",
                            code="too_large")
        return Page(**common, images=tuple(image_block(fetched.body, fetched.url)), kind="image")
    if head.startswith(b"%PDF") or ctype == "application/pdf":
        return Page(**common, text=_pdf_text(fetched.body, fetched.url), kind="pdf")
    text = _decode(fetched)
    sniffed = text[:512].lstrip().lower()
    if ctype in ("text/html", "application/xhtml+xml") or sniffed.startswith(("<!doctype html",
                                                                            "<html")):
        return Page(**common, text=_html_to_markdown(text), kind="html")
    if not ctype or any(t in ctype for t in TEXT_TYPES):
        return Page(**common, text=text, kind="text")
    raise ToolError(f"{fetched.url} is {ctype}, which WebFetch cannot read (it reads HTML, "
                    "text, JSON, PDF and images).", code="unsupported_type")
