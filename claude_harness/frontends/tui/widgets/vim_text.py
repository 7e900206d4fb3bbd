"""Where vim's motions land in a prompt's text: pure functions over (text, offset), by
user-perceived character, so `l` steps over 👩‍👩‍👧 as one cell and `x` deletes all of it.

Kept apart from the key state machine (vim_keys.py) so each motion is a small function of the
text alone, and free of Textual so the REPL or a test can use it as it is.
"""

from __future__ import annotations

import unicodedata

from claude_harness.frontends.shared.terminal_graphemes import boundaries

BLANK, PUNCT, WORD, EMOJI = 0, 1, 2, 3


def line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def line_end(text: str, index: int) -> int:
    """The offset of the newline ending the line at `index` (len(text) on the last line)."""
    end = text.find("\n", index)
    return len(text) if end < 0 else end


def line_edges(text: str, index: int) -> list[int]:
    """The grapheme boundaries of the line at `index`, as offsets into `text`."""
    start = line_start(text, index)
    return [start + edge for edge in boundaries(text[start:line_end(text, index)])] or [start]


def last_cell(text: str, index: int) -> int:
    """Where NORMAL mode's cursor may sit at most on this line: on its last character."""
    edges = line_edges(text, index)
    return edges[-2] if len(edges) > 1 else edges[0]


def clamp_normal(text: str, index: int) -> int:
    index = max(0, min(index, len(text)))
    return min(index, last_cell(text, index))


def cell_right(text: str, index: int, count: int = 1, *, past_end: bool = False) -> int:
    """`l`: `count` characters right, not past the line's last one (its end with
    `past_end`, as an operator's motion)."""
    edges = line_edges(text, index)
    later = [edge for edge in edges if edge > index]
    if not later:
        return index
    target = later[min(count, len(later)) - 1]
    return target if past_end or target < edges[-1] else max(index, last_cell(text, index))


def cell_left(text: str, index: int, count: int = 1) -> int:
    earlier = [edge for edge in line_edges(text, index) if edge < index]
    return earlier[-min(count, len(earlier))] if earlier else index


def column_cells(text: str, index: int) -> int:
    """How many characters lie before `index` on its line."""
    return sum(1 for edge in line_edges(text, index) if edge < index)


def line_down(text: str, index: int, count: int, cells: int) -> int:
    """`j`/`k` (negative count): the same character column on another line."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    row = max(i for i, start in enumerate(starts) if start <= index)
    target = max(0, min(len(starts) - 1, row + count))
    edges = line_edges(text, starts[target])
    return edges[min(cells, max(len(edges) - 2, 0))]


def first_non_blank(text: str, index: int) -> int:
    start, end = line_start(text, index), line_end(text, index)
    stripped = len(text[start:end]) - len(text[start:end].lstrip(" \t"))
    return min(start + stripped, clamp_normal(text, start + stripped))


def cluster_class(cluster: str, big: bool) -> int:
    first = cluster[0]
    if first.isspace():
        return BLANK
    if big:
        return WORD
    if first.isalnum() or first == "_":
        return WORD
    if unicodedata.category(first) == "So" or ord(first) >= 0x1F000:
        return EMOJI
    return PUNCT


def cells(text: str, big: bool = False) -> list[tuple[int, int]]:
    """Each character of `text` as (offset, class), plus (len(text), BLANK) at the end."""
    edges = boundaries(text)
    out = [(a, cluster_class(text[a:b], big)) for a, b in zip(edges, edges[1:], strict=False)]
    return [*out, (len(text), BLANK)]


def _position(table: list[tuple[int, int]], index: int) -> int:
    return max(i for i, (offset, _cls) in enumerate(table) if offset <= index)


def word_forward(text: str, index: int, count: int = 1, big: bool = False) -> int:
    """`w`: the start of the next word (len(text) when there is none)."""
    table = cells(text, big)
    i = _position(table, index)
    for _ in range(count):
        kind = table[i][1]
        while i < len(table) - 1 and kind != BLANK and table[i][1] == kind:
            i += 1
        while i < len(table) - 1 and table[i][1] == BLANK:
            if text[table[i][0]] == "\n" and i + 1 < len(table) - 1 \
                    and text[table[i + 1][0]] == "\n":
                i += 1  # an empty line is a word of its own
                break
            i += 1
    return table[i][0]


def word_end(text: str, index: int, count: int = 1, big: bool = False) -> int:
    """`e`: the last character of the word ending after `index`."""
    table = cells(text, big)
    i = _position(table, index)
    last = len(table) - 2
    for _ in range(count):
        i = min(i + 1, last) if last >= 0 else 0
        while i < last and table[i][1] == BLANK:
            i += 1
        while i < last and table[i + 1][1] == table[i][1] != BLANK:
            i += 1
    return table[max(i, 0)][0]


def word_back(text: str, index: int, count: int = 1, big: bool = False) -> int:
    """`b`: the start of the word before `index`."""
    table = cells(text, big)
    i = _position(table, index)
    for _ in range(count):
        i = max(i - 1, 0)
        while i > 0 and table[i][1] == BLANK:
            i -= 1
        while i > 0 and table[i - 1][1] == table[i][1] != BLANK:
            i -= 1
    return table[i][0]


def find_in_line(text: str, index: int, key: str, char: str, count: int = 1) -> int | None:
    """`f`/`F`/`t`/`T` + char: where the cursor lands on this line, None if nowhere."""
    edges = line_edges(text, index)
    starts = edges[:-1]
    forward = key in "ft"
    candidates = [e for e in starts if (e > index if forward else e < index)
                  and text.startswith(char, e)]
    if not forward:
        candidates.reverse()
    if len(candidates) < count:
        return None
    hit = candidates[count - 1]
    if key == "t":
        return max(e for e in edges if e < hit)
    if key == "T":
        return min(e for e in edges if e > hit)
    return hit


def line_range(text: str, index: int, count: int = 1) -> tuple[int, int]:
    """The offsets of `count` whole lines from the one at `index`, with their newline (or the
    newline before them, on the last line) so deleting them leaves no empty line."""
    start = line_start(text, index)
    end = start
    for _ in range(count):
        end = line_end(text, end)
        if end >= len(text):
            break
        end += 1
    if end >= len(text) and start > 0 and not text.endswith("\n", 0, end):
        return start - 1, len(text)  # the last lines: take the newline before them instead
    return start, min(end, len(text))


PAIRS = {"(": ("(", ")"), ")": ("(", ")"), "b": ("(", ")"), "[": ("[", "]"), "]": ("[", "]"),
         "{": ("{", "}"), "}": ("{", "}"), "B": ("{", "}"), "<": ("<", ">"), ">": ("<", ">")}


def text_object(text: str, index: int, around: bool, kind: str) -> tuple[int, int] | None:
    """`iw`, `aw`, `i"`, `a(`...: the range the object covers at `index`, or None."""
    if kind in "wW":
        table = cells(text, kind == "W")
        i = _position(table, index)
        cls = table[i][1]
        a = i
        while a > 0 and table[a - 1][1] == cls and text[table[a - 1][0]] != "\n":
            a -= 1
        b = i
        while b < len(table) - 1 and table[b][1] == cls and text[table[b][0]] != "\n":
            b += 1
        if around:
            while b < len(table) - 1 and table[b][1] == BLANK and text[table[b][0]] != "\n":
                b += 1
        return table[a][0], table[b][0]
    if kind in "\"'`":
        start, end = line_start(text, index), line_end(text, index)
        quotes = [i for i in range(start, end) if text[i] == kind]
        for left, right in zip(quotes[::2], quotes[1::2], strict=False):
            if left <= index <= right:
                return (left, right + 1) if around else (left + 1, right)
        return None
    if kind in PAIRS:
        return _pair_object(text, index, around, *PAIRS[kind])
    return None


def _pair_object(text: str, index: int, around: bool, opening: str,
                 closing: str) -> tuple[int, int] | None:
    depth, left = 0, None
    for i in range(min(index, len(text) - 1), -1, -1):
        if text[i] == closing and i != index:
            depth += 1
        elif text[i] == opening:
            if depth == 0:
                left = i
                break
            depth -= 1
    if left is None:
        return None
    depth = 0
    for j in range(left + 1, len(text)):
        if text[j] == opening:
            depth += 1
        elif text[j] == closing:
            if depth == 0:
                return (left, j + 1) if around else (left + 1, j)
            depth -= 1
    return None
