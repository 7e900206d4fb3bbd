"""Glob patterns for the Glob tool: split off the literal directory part, compile the rest.

Semantics are the standard (bash globstar / Python pathlib) ones, stated in prompt.md so the model
can rely on them:
    *      any characters within one path segment (dotfiles included)
    ?      one character within a segment
    [abc]  a character class ([!abc] negates)
    {a,b}  alternatives, may nest and contain wildcards
    **     as a whole segment: zero or more directories
So `*.py` matches only in the search directory itself and `**/*.py` at any depth. (ripgrep's own
--glob matches a slash-less glob against the file name at any depth; we do not use it for the
pattern itself, also because a positive rg --glob overrides .gitignore.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WILD = frozenset("*?[{")


def split_segments(pattern: str) -> list[str]:
    """Split on `/` outside braces, so `{src,lib/x}/*.py` keeps its brace group whole."""
    segments: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in pattern:
        if ch == "{":
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
        if ch == "/" and depth == 0:
            segments.append("".join(current))
            current = []
        else:
            current.append(ch)
    segments.append("".join(current))
    return segments


@dataclass(frozen=True)
class SplitPattern:
    """`base` is the literal directory prefix (may be "" or absolute); `rest` is matched below it."""

    base: str
    rest: str


def split_literal_prefix(pattern: str) -> SplitPattern:
    """`src/app/**/*.ts` -> base `src/app`, rest `**/*.ts`: rg then walks only that subtree."""
    segments = split_segments(pattern)
    literal: list[str] = []
    for segment in segments[:-1]:
        if _WILD & set(segment):
            break
        literal.append(segment)
    rest = segments[len(literal) :]
    base = "/".join(literal)
    if pattern.startswith("/") and not base:
        base = "/"
    return SplitPattern(base=base, rest="/".join(rest))


def _translate_segment(segment: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(segment):
        ch = segment[i]
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            end = segment.find("]", i + 2 if segment[i + 1 : i + 2] in ("!", "^") else i + 1)
            if end == -1:
                out.append(re.escape(ch))
            else:
                body = segment[i + 1 : end]
                if body[:1] in ("!", "^"):
                    body = "^/" + body[1:]  # a negated class still never matches a separator
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = end
        elif ch == "{":
            end = _matching_brace(segment, i)
            if end == -1:
                out.append(re.escape(ch))
            else:
                options = _split_top_level_commas(segment[i + 1 : end])
                out.append("(?:" + "|".join(_translate(opt) for opt in options) + ")")
                i = end
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def _matching_brace(text: str, start: int) -> int:
    depth = 0
    for j in range(start, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return -1


def _split_top_level_commas(text: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return parts


def _translate(pattern: str) -> str:
    segments = split_segments(pattern)
    out: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            out.append(".*" if last else "(?:[^/]*/)*")
        else:
            out.append(_translate_segment(segment) + ("" if last else "/"))
    return "".join(out)


def compile_glob(pattern: str) -> re.Pattern[str]:
    """A regex that fullmatches the `/`-separated paths (relative to the base) the glob selects."""
    return re.compile(_translate(pattern), re.DOTALL)


def basename_glob(rest: str) -> str | None:
    """The last segment when rg can pre-filter file names with it (as a type), else None."""
    last = split_segments(rest)[-1]
    if "**" in last or "/" in last or not last:
        return None
    return last
