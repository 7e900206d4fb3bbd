"""Finding old_string in a file, exactly or with tolerance, and fitting new_string to the file.

Why tolerance: the model reproduces text from Read's output, and small invisible differences
(trailing spaces it dropped, a tab it retyped as spaces, straight quotes where the file has curly
ones, CRLF it never saw) make an exact search fail on an edit that is obviously meant. When the
exact text is absent we look for the one span that differs only in those ways, and we then bend
new_string toward the file's own style (its quotes, its indentation characters, its line
endings) so the edit does not leave a patch of foreign formatting behind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SINGLE_QUOTES = "'\u2018\u2019\u201b"
DOUBLE_QUOTES = '"\u201c\u201d\u201e'
CURLY_SINGLE = "\u2018\u2019"
CURLY_DOUBLE = "\u201c\u201d"
_HSPACE = r"[^\S\r\n]"  # horizontal white space: spaces, tabs, no-break spaces
_QUOTE_CLASS = {
    **{q: "[" + re.escape(SINGLE_QUOTES) + "]" for q in SINGLE_QUOTES},
    **{q: "[" + re.escape(DOUBLE_QUOTES) + "]" for q in DOUBLE_QUOTES},
}
_OPENERS = " \t\n\r([{<\u2014\u2013-/="
_LINE_NUMBER_PREFIX = re.compile(r"^\s*\d+\t", re.MULTILINE)


@dataclass(frozen=True)
class Span:
    start: int
    end: int


@dataclass(frozen=True)
class MatchResult:
    spans: list[Span]
    tolerant: bool  # found only after allowing for quote/white-space differences


def tolerant_pattern(old: str) -> re.Pattern[str] | None:
    """A regex that matches `old` up to quote style and horizontal white space. Line breaks must
    still line up one for one, so a match never spans a different number of lines."""
    if not old.strip():
        return None
    parts: list[str] = []
    for token in re.finditer(r"\s+|\S+", old):
        text = token.group()
        if not text.isspace():
            parts.extend(_QUOTE_CLASS.get(ch) or re.escape(ch) for ch in text)
            continue
        breaks = text.count("\n")
        if breaks:
            parts.append(f"{_HSPACE}*" + f"\\r?\\n{_HSPACE}*" * (breaks - 1) + "\\r?\\n")
            at_end = token.end() == len(old)
            if not (at_end and text.endswith("\n")):
                # indentation of the next line; at the very end only if old_string has it,
                # or the match would swallow the indentation of the line after it
                parts.append(f"{_HSPACE}*")
        elif token.start() == 0 or token.end() == len(old):
            parts.append(f"{_HSPACE}*")
        else:
            parts.append(f"{_HSPACE}+")
    return re.compile("".join(parts))


def find_matches(text: str, old: str) -> MatchResult:
    """Every non-overlapping place `old` occurs in `text`: exact first, tolerant if none."""
    spans = _exact(text, old)
    if spans:
        return MatchResult(spans, tolerant=False)
    pattern = tolerant_pattern(old)
    if pattern is None:
        return MatchResult([], tolerant=False)
    return MatchResult([Span(m.start(), m.end()) for m in pattern.finditer(text)], tolerant=True)


def _exact(text: str, old: str) -> list[Span]:
    spans: list[Span] = []
    start = text.find(old)
    while start != -1:
        spans.append(Span(start, start + len(old)))
        start = text.find(old, start + len(old))
    return spans


def looks_like_read_prefixes(old: str) -> bool:
    """True when every line of old_string starts like Read's `<n>\\t` prefix (a common slip)."""
    lines = [line for line in old.split("\n") if line.strip()]
    return bool(lines) and all(_LINE_NUMBER_PREFIX.match(line) for line in lines)


# --- fitting new_string to the file's style ---------------------------------------------------


def _curl(text: str, straight: str, opening: str, closing: str) -> str:
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch != straight:
            out.append(ch)
            continue
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        if straight == "'" and before.isalnum() and after.isalnum():
            out.append(closing)  # apostrophe inside a word: don't, it's
        elif before in _OPENERS:
            out.append(opening)
        else:
            out.append(closing)
    return "".join(out)


def fit_quotes(new: str, old: str, found: str) -> str:
    """Make new_string's quotes follow the file: curly where the file's matched text is curly
    and old_string was straight, straight where the file is straight and old_string curly."""
    if any(q in found for q in CURLY_SINGLE) and not any(q in old for q in CURLY_SINGLE):
        new = _curl(new, "'", "\u2018", "\u2019")
    elif not any(q in found for q in CURLY_SINGLE) and any(q in old for q in CURLY_SINGLE):
        new = new.translate({ord(q): "'" for q in CURLY_SINGLE})
    if any(q in found for q in CURLY_DOUBLE) and not any(q in old for q in CURLY_DOUBLE):
        new = _curl(new, '"', "\u201c", "\u201d")
    elif not any(q in found for q in CURLY_DOUBLE) and any(q in old for q in CURLY_DOUBLE):
        new = new.translate({ord(q): '"' for q in CURLY_DOUBLE})
    return new


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _unit_conversion(pairs: list[tuple[str, str]]) -> tuple[str, int] | None:
    """If old_string indented with spaces where the file uses tabs (or the reverse), the number
    of spaces per tab, read off the lines that matched."""
    for old_ws, file_ws in pairs:
        if old_ws and file_ws and set(old_ws) == {" "} and set(file_ws) == {"\t"}:
            if len(old_ws) % len(file_ws) == 0:
                return "spaces_to_tabs", len(old_ws) // len(file_ws)
        if old_ws and file_ws and set(old_ws) == {"\t"} and set(file_ws) == {" "}:
            if len(file_ws) % len(old_ws) == 0:
                return "tabs_to_spaces", len(file_ws) // len(old_ws)
    return None


def fit_indentation(new: str, old: str, found: str) -> str:
    """Re-indent new_string the way the file indents the lines old_string stood for: each
    indentation old_string used maps to the one the file has there; other indentation is
    converted between tabs and spaces at the ratio those lines show."""
    old_lines = old.split("\n")
    found_lines = found.replace("\r\n", "\n").split("\n")
    if len(old_lines) != len(found_lines):
        return new
    pairs = [(_indent(o), _indent(f)) for o, f in zip(old_lines, found_lines, strict=True)]
    mapping = {o: f for o, f in pairs if o != f and o}
    conversion = _unit_conversion(pairs)
    if not mapping and conversion is None:
        return new
    out: list[str] = []
    for line in new.split("\n"):
        ws = _indent(line)
        body = line[len(ws) :]
        if ws in mapping:
            ws = mapping[ws]
        elif conversion is not None and ws:
            kind, width = conversion
            if kind == "spaces_to_tabs" and set(ws) == {" "} and len(ws) % width == 0:
                ws = "\t" * (len(ws) // width)
            elif kind == "tabs_to_spaces" and set(ws) == {"\t"}:
                ws = " " * (len(ws) * width)
        out.append(ws + body)
    return "\n".join(out)


def fit_to_file(new: str, old: str, found: str) -> str:
    """new_string adapted to the span the tolerant match found (quotes, then indentation)."""
    return fit_indentation(fit_quotes(new, old, found), old, found)
