"""The preview diff is built within a deadline: a real unified diff for a big file with a few
scattered edits (milliseconds, where difflib took minutes), its summary line when the change
is too big to diff in time, and the same hunks difflib would show on ordinary edits."""

from __future__ import annotations

import difflib
import random
import time
from pathlib import Path

from claude_harness.frontends.shared.previews import file_change_diff
from claude_harness.text.bounded_diff import unified_lines


def difflib_lines(old: str, new: str, n: int = 2) -> list[str]:
    return list(difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=n))[2:]


def test_a_huge_change_gives_the_summary_within_the_deadline() -> None:
    old = "\n".join(f"line {i} {'x' * 30}" for i in range(200_000))
    new = "\n".join(reversed(old.splitlines()))  # every line moved: D is enormous
    started = time.monotonic()
    diff = unified_lines(old, new, seconds=0.3)
    assert time.monotonic() - started < 2.0
    assert not diff.complete
    assert diff.lines == ["+200000 −200000 lines (diff too large to show)"]


def test_a_big_file_with_scattered_edits_gets_its_real_diff_fast() -> None:
    lines = [f"row {i:06d} {'payload ' * 4}" for i in range(45_000)]
    changed = list(lines)
    for i in range(7, 45_000, 4_500):
        changed[i] = f"ROW {i} edited"
    old, new = "\n".join(lines), "\n".join(changed)
    started = time.monotonic()
    diff = unified_lines(old, new)
    assert time.monotonic() - started < 1.0
    assert diff.complete and diff.lines == difflib_lines(old, new)


def apply(old: list[str], diff: list[str]) -> list[str]:
    """Apply unified diff lines to `old` (checking every context and removed line)."""
    out: list[str] = []
    at = 0
    for line in diff:
        if line.startswith("@@"):
            start, _, length = line.split()[1][1:].partition(",")
            first = int(start) - 1 if length != "0" else int(start)
            out += old[at:first]
            at = first
        elif line[0] == "+":
            out.append(line[1:])
        else:
            assert old[at] == line[1:], (line, old[at])
            at += 1
            if line[0] == " ":
                out.append(line[1:])
    return out + old[at:]


def test_small_edits_give_a_minimal_diff_that_applies() -> None:
    rng = random.Random(7)
    words = ["a", "b", "c", "}", "", "return x"]
    for _ in range(1000):
        old_lines = [rng.choice(words) for _ in range(rng.randint(0, 30))]
        new_lines = list(old_lines)
        for _ in range(rng.randint(1, 3)):
            spot = rng.randint(0, len(new_lines))
            new_lines[spot:spot + rng.randint(0, 2)] = [rng.choice(words)] * rng.randint(0, 2)
        old, new = "\n".join(old_lines), "\n".join(new_lines)
        ours, theirs = unified_lines(old, new).lines, difflib_lines(old, new)
        assert apply(old.splitlines(), ours) == new.splitlines()
        changed = sum(1 for x in ours if x[:1] in "+-" and not x.startswith("@@"))
        assert changed <= sum(1 for x in theirs if x[:1] in "+-" and not x.startswith("@@"))
        assert bool(ours) == bool(theirs)


def test_file_change_diff_shows_the_summary_for_a_2_mb_rewrite(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    lines = [f"row {i:06d} {'payload ' * 4}" for i in range(45_000)]
    path.write_text("\n".join(lines))
    content = "\n".join(f"ROW {i}" if i % 10 == 3 else x for i, x in enumerate(lines))
    started = time.monotonic()
    diff = file_change_diff("Write", {"file_path": str(path), "content": content})
    assert time.monotonic() - started < 2.0
    assert diff == ["+4500 −4500 lines (diff too large to show)"]
