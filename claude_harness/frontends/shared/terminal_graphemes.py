"""Where one user-perceived character ends and the next begins (a compact subset of Unicode's
UAX #29 grapheme clusters), so the cursor and deletion never step inside 👩‍👩‍👧, é written
as e + U+0301, a flag 🇫🇷 or 👍🏽.

The subset: CR LF; combining marks, variation selectors, emoji modifiers, tags and ZWJ extend
the character before them; the character after a ZWJ joins it; regional indicators pair up.
Stdlib only (unicodedata), so the prompt widgets can import it on the path to the first frame.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

ZWJ = "\u200d"
_MARK_CATEGORIES = frozenset({"Mn", "Me", "Mc"})


def _is_regional_indicator(char: str) -> bool:
    return "\U0001f1e6" <= char <= "\U0001f1ff"


def _extends(char: str) -> bool:
    """True for a code point that belongs to the character before it."""
    code = ord(char)
    return (char == ZWJ
            or 0xFE00 <= code <= 0xFE0F  # variation selectors (VS16: emoji presentation)
            or 0x1F3FB <= code <= 0x1F3FF  # skin-tone modifiers
            or 0xE0020 <= code <= 0xE007F  # tags (subdivision flags such as England's)
            or 0xE0100 <= code <= 0xE01EF  # variation selectors supplement
            or unicodedata.category(char) in _MARK_CATEGORIES)


def is_format_character(char: str | None) -> bool:
    """A single invisible format character (ZWJ, ZWNJ, tags): part of the text, though not
    "printable", so an input must insert it rather than ignore the key."""
    return bool(char) and len(char) == 1 and unicodedata.category(char) == "Cf"  # type: ignore[arg-type]


@lru_cache(maxsize=256)
def boundaries(text: str) -> tuple[int, ...]:
    """The indexes where clusters start, plus len(text): (0, ..., len(text))."""
    starts = [0] if text else []
    index = 1
    while index < len(text):
        char, before = text[index], text[index - 1]
        joined = (_extends(char) or before == ZWJ or (before == "\r" and char == "\n")
                  or (_is_regional_indicator(char) and _is_regional_indicator(before)
                      and index - starts[-1] == 1))  # a flag is a pair: the third starts anew
        if not joined:
            starts.append(index)
        index += 1
    return (*starts, len(text))


def clusters(text: str) -> list[str]:
    """The text split into user-perceived characters."""
    edges = boundaries(text)
    return [text[a:b] for a, b in zip(edges, edges[1:], strict=False)]


def previous_boundary(text: str, index: int) -> int:
    """The start of the cluster before `index` (0 at the start)."""
    return max((edge for edge in boundaries(text) if edge < index), default=0)


def next_boundary(text: str, index: int) -> int:
    """The end of the cluster at `index` (len(text) at the end)."""
    return min((edge for edge in boundaries(text) if edge > index), default=len(text))
