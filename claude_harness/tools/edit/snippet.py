"""The few numbered lines around an edit, so the model sees the result without a new Read."""

from __future__ import annotations

from claude_harness.tools.file_common import numbered

CONTEXT_LINES = 3
MAX_REGION_LINES = 16
MAX_LINE_CHARS = 2000


def snippet_around(text: str, start: int, length: int) -> str:
    """Lines of `text` covering [start, start+length) plus a little context, as `<n>\\t<line>`
    like Read shows them. A long replacement shows its head and says how much is left out."""
    lines = text.replace("\r\n", "\n").split("\n")
    if text.endswith("\n"):
        lines.pop()  # the empty string after the final newline is not a line
    if not lines:
        return "(the file is now empty)"
    normalised_prefix = text[:start].replace("\r\n", "\n")
    first = normalised_prefix.count("\n")  # 0-based line where the edit starts
    region = text[start : start + length].replace("\r\n", "\n")
    last = first + max(region.count("\n") - (1 if region.endswith("\n") else 0), 0)
    lo = max(first - CONTEXT_LINES, 0)
    hi = min(last + CONTEXT_LINES, len(lines) - 1)
    shown = [line[:MAX_LINE_CHARS] for line in lines[lo : hi + 1]]
    if len(shown) <= MAX_REGION_LINES + 2 * CONTEXT_LINES:
        return numbered(shown, lo + 1)
    head = numbered(shown[: CONTEXT_LINES + MAX_REGION_LINES], lo + 1)
    omitted = len(shown) - CONTEXT_LINES - MAX_REGION_LINES
    return f"{head}\n[... {omitted} more line(s) of the edited region not shown]"
