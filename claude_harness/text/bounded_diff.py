"""A unified line diff that never takes long: Myers' algorithm with a deadline.

difflib's SequenceMatcher is quadratic on large inputs (150 s for a 1.8 MB file with scattered
changes), and the previews that show a change must come at once. Myers' greedy algorithm costs
about (N + M) + D² for D changed lines, so a big file with a few scattered edits diffs in
milliseconds; when the deadline or the edit-distance cap is hit, the caller gets a one-line
summary instead ("+1234 −567 lines (diff too large to show)"), counted from the lines each
side has more of than the other.
"""

from __future__ import annotations

import difflib
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

DEADLINE_SECONDS = 0.4
MAX_EDIT_LINES = 2_000  # changed lines (D) past which a diff is no use to read (and its
# trace, about D² numbers, would weigh tens of MB)
MAX_OUTPUT_LINES = 2_000

Opcode = tuple[str, int, int, int, int]  # ("equal" | "replace", i1, i2, j1, j2)


@dataclass(frozen=True)
class BoundedDiff:
    """The diff lines (no ---/+++ header), or a summary line when it could not be built."""

    lines: list[str]
    complete: bool  # False: `lines` is the one summary line


def summary_line(old: Sequence[str], new: Sequence[str]) -> str:
    """The lines each side has more of; for lines only moved around (the same lines, in
    another order), the span between the common first and last lines."""
    before, after = Counter(old), Counter(new)
    common = sum(min(count, before[line]) for line, count in after.items() if line in before)
    added, removed = len(new) - common, len(old) - common
    if not added and not removed:
        head = next((i for i, (x, y) in enumerate(zip(old, new, strict=True)) if x != y), len(old))
        tail = next((i for i, (x, y) in enumerate(zip(reversed(old), reversed(new), strict=True))
                     if x != y), len(old))
        added = removed = max(len(old) - head - tail, 0)
    return f"+{added} −{removed} lines (diff too large to show)"


def _trace(a: Sequence[str], b: Sequence[str], deadline: float,
           max_edits: int) -> list[list[int]] | None:
    """Myers' forward pass: the furthest x reached on each diagonal after each round (the
    round's own slice, so memory is D²); None past the deadline or `max_edits`."""
    n, m = len(a), len(b)
    offset = n + m + 1
    v = [0] * (2 * offset + 1)
    trace: list[list[int]] = []
    for d in range(min(n + m, max_edits) + 1):
        if time.monotonic() > deadline:
            return None
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[offset + k - 1] < v[offset + k + 1]):
                x = v[offset + k + 1]
            else:
                x = v[offset + k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            v[offset + k] = x
            if x >= n and y >= m:
                trace.append(v[offset - d: offset + d + 1])
                return trace
        trace.append(v[offset - d: offset + d + 1])
    return None


def _opcodes(a: Sequence[str], b: Sequence[str], trace: list[list[int]]) -> list[Opcode]:
    """Walk the trace back from the end: equal runs and the changes between them."""
    x, y = len(a), len(b)
    runs: list[tuple[int, int, int, int]] = []  # equal runs, from the end
    for d in range(len(trace) - 1, 0, -1):
        prev = trace[d - 1]
        k = x - y
        down = k == -d or (k != d and prev[k - 1 + d - 1] < prev[k + 1 + d - 1])
        prev_k = k + 1 if down else k - 1
        prev_x = prev[prev_k + d - 1]
        prev_y = prev_x - prev_k
        mid_x, mid_y = (prev_x, prev_y + 1) if down else (prev_x + 1, prev_y)
        if x > mid_x:
            runs.append((mid_x, x, mid_y, y))
        x, y = prev_x, prev_y
    if x > 0:
        runs.append((0, x, 0, y))
    ops: list[Opcode] = []
    i = j = 0
    for i1, i2, j1, j2 in reversed(runs):
        if i < i1 or j < j1:
            ops.append(("replace", i, i1, j, j1))
        ops.append(("equal", i1, i2, j1, j2))
        i, j = i2, j2
    if i < len(a) or j < len(b):
        ops.append(("replace", i, len(a), j, len(b)))
    return ops


class _Grouper(difflib.SequenceMatcher):  # type: ignore[type-arg]
    """difflib's own hunk grouping, over opcodes found by Myers' algorithm."""

    def __init__(self, ops: list[Opcode]) -> None:
        super().__init__(None, [], [])
        self._ops = ops

    def get_opcodes(self) -> list[Opcode]:  # type: ignore[override]
        return list(self._ops)


def _hunks(ops: list[Opcode], context: int) -> list[list[Opcode]]:
    """Changes with `context` equal lines around them, close ones in one hunk."""
    if not any(op[0] != "equal" for op in ops):
        return []
    return [list(g) for g in _Grouper(ops).get_grouped_opcodes(context)]


def _range(start: int, length: int) -> str:
    begin = start + 1 if length else start
    return str(begin) if length == 1 else f"{begin},{length}"


def _format(a: Sequence[str], b: Sequence[str], hunks: list[list[Opcode]]) -> list[str]:
    lines: list[str] = []
    for hunk in hunks:
        i1, i2, j1, j2 = hunk[0][1], hunk[-1][2], hunk[0][3], hunk[-1][4]
        lines.append(f"@@ -{_range(i1, i2 - i1)} +{_range(j1, j2 - j1)} @@")
        for tag, a1, a2, b1, b2 in hunk:
            if tag == "equal":
                lines += [" " + line for line in a[a1:a2]]
            else:
                lines += ["-" + line for line in a[a1:a2]]
                lines += ["+" + line for line in b[b1:b2]]
    return lines


def unified_lines(old_text: str, new_text: str, *, context: int = 2,
                  seconds: float = DEADLINE_SECONDS, max_edits: int = MAX_EDIT_LINES,
                  max_lines: int = MAX_OUTPUT_LINES) -> BoundedDiff:
    """old → new as unified diff lines within `seconds`, or the summary line."""
    a, b = old_text.splitlines(), new_text.splitlines()
    trace = _trace(a, b, time.monotonic() + seconds, max_edits)
    if trace is None:
        return BoundedDiff([summary_line(a, b)], complete=False)
    lines = _format(a, b, _hunks(_opcodes(a, b, trace), context))
    if len(lines) > max_lines:
        lines = [*lines[:max_lines], f"… +{len(lines) - max_lines} more diff lines"]
    return BoundedDiff(lines, complete=True)
