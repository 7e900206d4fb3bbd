"""Turn ripgrep's raw output into the model-facing text for each output mode, with pagination.

Costs scale with the number of *files* (sorting, counting) and with the size of the one page we
show, never with every output line: content-mode output is split into per-file blocks with C-level
bytes operations and only the lines inside the requested window are decoded and re-prefixed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_HEAD_LIMIT = 250


@dataclass(frozen=True)
class Page:
    """The window [start, stop) of `total` entries that head_limit/offset select."""

    start: int
    stop: int
    total: int
    limit: int | None  # None: no limit applied (head_limit=0)
    more: bool = False  # the search stopped early: entries exist beyond `total`

    @property
    def past_end(self) -> bool:
        return self.total > 0 and self.start >= self.total and not self.more

    @property
    def cut(self) -> bool:
        return self.stop < self.total or self.more


def applied_limit(head_limit: int | None) -> int | None:
    """head_limit as applied: the default when absent, None (no limit) for 0."""
    limit = DEFAULT_HEAD_LIMIT if head_limit is None else head_limit
    return None if limit == 0 else limit


def paginate(total: int, head_limit: int | None, offset: int, *, more: bool = False) -> Page:
    applied = applied_limit(head_limit)
    stop = total if applied is None else min(total, offset + applied)
    return Page(start=offset, stop=max(stop, offset), total=total, limit=applied, more=more)


def page_note(page: Page, unit: str) -> str:
    """Tell the model what it is looking at when the window is not simply "everything"."""
    if page.more:
        return (
            f"[Showing {unit} {page.start + 1}-{page.stop} (head_limit={page.limit}, "
            f"offset={page.start}); there are more. Use offset={page.stop} to see more.]"
        )
    if page.cut:
        return (
            f"[Showing {unit} {page.start + 1}-{page.stop} of {page.total} "
            f"(head_limit={page.limit}, offset={page.start}). "
            f"Use offset={page.stop} to see more.]"
        )
    if page.start > 0:
        return f"[Showing {unit} {page.start + 1}-{page.stop} of {page.total} (offset={page.start}).]"
    return ""


def past_end_text(page: Page, unit: str) -> str:
    return (
        f"No entries at offset {page.start}: the search found only {page.total} {unit}. "
        f"Use an offset below {page.total}."
    )


def _with_note(body: str, note: str) -> str:
    return f"{body}\n\n{note}" if note else body


def _display(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


# --- files_with_matches -------------------------------------------------------------------


def split_null(stdout: bytes) -> list[bytes]:
    return [p for p in stdout.split(b"\0") if p]


def format_files(paths: list[bytes], page: Page) -> str:
    if not paths:
        return "No files found"
    if page.past_end:
        return past_end_text(page, "files")
    shown = paths[page.start : page.stop]
    noun = "file" if page.total == 1 else "files"
    body = f"Found {page.total} {noun}\n" + "\n".join(_display(p) for p in shown)
    return _with_note(body, page_note(page, "files"))


# --- count ----------------------------------------------------------------------------------


def parse_counts(stdout: bytes) -> list[tuple[bytes, int]]:
    counts: list[tuple[bytes, int]] = []
    for line in stdout.splitlines():
        path, sep, number = line.rpartition(b"\0")
        if sep:
            counts.append((path, int(number)))
    counts.sort()
    return counts


def format_counts(counts: list[tuple[bytes, int]], page: Page) -> str:
    if not counts:
        return "No matches found"
    if page.past_end:
        return past_end_text(page, "files")
    total = sum(n for _, n in counts)
    lines = [f"{_display(p)}:{n}" for p, n in counts[page.start : page.stop]]
    files = "file" if len(counts) == 1 else "files"
    occurrences = "occurrence" if total == 1 else "occurrences"
    body = "\n".join(lines) + f"\n\nFound {total} total {occurrences} across {len(counts)} {files}."
    return _with_note(body, page_note(page, "files"))


# --- content --------------------------------------------------------------------------------
#
# A block is one file's output under `rg --heading --null -n`: `path\0` then its numbered lines
# (`12:match`, `11-context`, `--`), blocks separated by one blank line. Line numbers are always
# requested, so no content line is empty and a blank line can only be a separator.

_NUMBERED = re.compile(rb"(\d+)([:-])")


def _rg_path_order(block: bytes) -> bytes:
    """The order of `rg --sort path` (component-wise): the separator sorts before any byte."""
    return block[: block.find(b"\0")].replace(b"/", b"\x01")


def split_blocks(stdout: bytes, *, presorted: bool = False) -> list[bytes]:
    """Per-file blocks in path order, so pages stay stable across calls (rg's parallel order
    is not). A partial last line (rg was stopped early) is dropped."""
    if not stdout.endswith(b"\n"):
        stdout = stdout[: stdout.rfind(b"\n") + 1]
    blocks = [b for b in stdout.split(b"\n\n") if b]
    if blocks:
        blocks[-1] = blocks[-1].removesuffix(b"\n")
    if not presorted:
        blocks.sort(key=_rg_path_order)
    return blocks


def _line_count(block: bytes) -> int:
    return block.count(b"\n") + 1


def _render_line(path: str, raw: bytes, numbers: bool) -> str:
    if raw == b"--":
        return "--"
    m = _NUMBERED.match(raw)
    if m is None:  # not expected from rg; show it rather than lose it
        return f"{path}:{_display(raw)}"
    sep = m.group(2).decode()
    text = _display(raw[m.end() :])
    if numbers:
        return f"{path}{sep}{m.group(1).decode()}{sep}{text}"
    return f"{path}{sep}{text}"


def content_lines(
    blocks: list[bytes], start: int, stop: int, *, numbers: bool, separate_files: bool
) -> list[str]:
    """The output lines in [start, stop), counting a `--` between files when context is on.
    Only blocks inside the window are split into lines."""
    out: list[str] = []
    pos = 0
    for index, block in enumerate(blocks):
        if pos >= stop:
            break
        lead = 1 if separate_files and index > 0 else 0
        lines = _line_count(block) + lead
        if pos + lines <= start:
            pos += lines
            continue
        raw_path, _, body = block.partition(b"\0")
        raw_lines = ([b"--"] if lead else []) + body.split(b"\n")
        path = _display(raw_path)
        lo, hi = max(0, start - pos), min(len(raw_lines), stop - pos)
        out.extend(_render_line(path, raw, numbers) for raw in raw_lines[lo:hi])
        pos += lines
    return out


def total_content_lines(blocks: list[bytes], separate_files: bool) -> int:
    separators = max(0, len(blocks) - 1) if separate_files else 0
    return sum(map(_line_count, blocks)) + separators


def format_content(blocks: list[bytes], page: Page, *, numbers: bool, separate_files: bool) -> str:
    if not blocks:
        return "No matches found"
    if page.past_end:
        return past_end_text(page, "lines")
    lines = content_lines(
        blocks, page.start, page.stop, numbers=numbers, separate_files=separate_files
    )
    return _with_note("\n".join(lines), page_note(page, "lines"))
