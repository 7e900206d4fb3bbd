"""Streaming, bounded reading of a text file into `<n>\\t<text>` lines.

Why streaming: Read's result is exempt from the pipeline's result budget (persisting a Read
result to disk would only make the model Read that file, in a loop), so Read must bound itself.
It reads line by line with a cap on every line's length, stops at the line limit or the
character budget, and so touches only as much of a 200 MB file as it shows.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from claude_harness.tools.file_common import TextEncoding

MAX_LINES = 2000  # default window when no limit is given
MAX_LINE_CHARS = 2000  # longer lines are cut
MAX_OUTPUT_CHARS = 100_000  # about 25,000 tokens at ~4 chars per token
_SKIP_CHUNK = 1 << 16
_COUNT_REST_MAX_BYTES = 16 << 20  # count the remaining lines only when that is cheap


@dataclass
class TextView:
    """What one read showed and where it stopped."""

    rendered: str  # numbered lines, no notes
    content: str  # the shown text, newlines normalised (what FileState stores)
    first_line: int
    shown: int  # how many lines are in `rendered`
    total_lines: int | None  # None when the rest was too large to count cheaply
    reached_eof: bool
    cut_lines: int  # lines longer than MAX_LINE_CHARS that were cut
    budget_hit: bool  # stopped because of MAX_OUTPUT_CHARS, not the line limit
    limit_hit: bool  # stopped because the line limit was reached with more to come

    @property
    def last_line(self) -> int:
        return self.first_line + self.shown - 1

    @property
    def complete(self) -> bool:
        """The whole file, uncut: the read can vouch for the file's full content."""
        return self.first_line == 1 and self.reached_eof and not self.cut_lines


def _text_stream(fd: int, encoding: TextEncoding) -> io.TextIOWrapper[io.BufferedReader[io.FileIO]]:
    """A decoder over the fd that splits lines on \\n only and leaves \\r in place (we strip the
    \\r of CRLF ourselves), so line numbers agree with what Edit and grep count."""
    codec = encoding.codec
    if encoding.bom:
        codec = "utf-8-sig" if codec == "utf-8" else "utf-16"
    raw = io.FileIO(fd, mode="rb", closefd=True)
    buffered = io.BufferedReader(raw, buffer_size=1 << 16)
    return io.TextIOWrapper(buffered, encoding=codec, errors="replace", newline="\n")


def _finish_line(stream: io.TextIOWrapper, piece: str) -> tuple[str, bool]:
    """Given the start of a line read with a size cap, consume the rest of it (bounded chunks)
    and say whether it had to be cut. Returns (text without newline, was_cut)."""
    if piece.endswith("\n"):
        text = piece[:-1]
        if text.endswith("\r"):
            text = text[:-1]
        return text, len(text) > MAX_LINE_CHARS
    if len(piece) <= MAX_LINE_CHARS:
        return piece, False  # last line of the file, no newline
    rest = stream.readline(_SKIP_CHUNK)
    if rest == "\n" and piece.endswith("\r"):
        return piece[:-1], False  # exactly at the cap, CRLF-terminated
    _skip_rest_of_line(stream, rest)
    return piece, True


def _skip_rest_of_line(stream: io.TextIOWrapper, piece: str) -> None:
    while piece and not piece.endswith("\n"):
        piece = stream.readline(_SKIP_CHUNK)


def _count_rest(stream: io.TextIOWrapper) -> int:
    """Lines left after the current position (an unterminated last line counts)."""
    count = 0
    while True:
        chunk = stream.readline(_SKIP_CHUNK)
        if not chunk:
            return count
        _skip_rest_of_line(stream, chunk)
        count += 1


def read_text(
    fd: int,
    encoding: TextEncoding,
    offset: int,
    limit: int | None,
    file_size: int,
    budget: int = MAX_OUTPUT_CHARS,
) -> TextView:
    """Read lines [offset, offset+limit) of the file open on `fd` (which this closes)."""
    line_cap = limit if limit is not None else MAX_LINES
    with _text_stream(fd, encoding) as stream:
        line_no = 0
        # skip to the offset without keeping anything
        in_line = False  # inside a long line whose start was already consumed
        while line_no < offset - 1:
            chunk = stream.readline(_SKIP_CHUNK)
            if not chunk:
                line_no += 1 if in_line else 0
                return TextView("", "", offset, 0, line_no, True, 0, False, False)
            in_line = not chunk.endswith("\n")
            line_no += 0 if in_line else 1

        out: list[str] = []
        kept: list[str] = []
        size = 0
        cut = 0
        budget_hit = limit_hit = False
        reached_eof = False
        while True:
            piece = stream.readline(MAX_LINE_CHARS + 1)
            if not piece:
                reached_eof = True
                break
            if len(out) >= line_cap:
                limit_hit = True
                _skip_rest_of_line(stream, piece)
                break
            text, was_cut = _finish_line(stream, piece)
            ended = piece.endswith("\n")
            if was_cut:
                cut += 1
                text = text[:MAX_LINE_CHARS] + " [... line cut]"
            rendered = f"{line_no + 1}\t{text}"
            if out and size + len(rendered) + 1 > budget:
                budget_hit = True
                break
            out.append(rendered)
            kept.append(text + ("\n" if ended else ""))
            size += len(rendered) + 1
            line_no += 1

        total: int | None = line_no if reached_eof else None
        if not reached_eof:
            # the line we peeked at counts; count the rest only if that is cheap
            try:
                position = stream.buffer.tell()
            except OSError:
                position = file_size
            if file_size - position <= _COUNT_REST_MAX_BYTES:
                total = line_no + 1 + _count_rest(stream)
    return TextView(
        rendered="\n".join(out),
        content="".join(kept),
        first_line=offset,
        shown=len(out),
        total_lines=total,
        reached_eof=reached_eof,
        cut_lines=cut,
        budget_hit=budget_hit,
        limit_hit=limit_hit,
    )


def continuation_note(view: TextView, path: str, file_size: int, explicit_limit: bool) -> str:
    """The note after a view that did not show everything: what was shown, where to go on."""
    parts: list[str] = []
    if view.budget_hit or view.limit_hit:
        total = (
            f" of {view.total_lines}"
            if view.total_lines is not None
            else f" (the file is {_human_size(file_size)} and continues)"
        )
        shown = f"lines {view.first_line}-{view.last_line}{total}"
        nxt = view.last_line + 1
        if view.budget_hit:
            parts.append(
                f"[Partial view: this read stopped at about {MAX_OUTPUT_CHARS // 4} tokens. "
                f"Showing {shown}. To read on, call Read with offset={nxt}"
                f"{'' if explicit_limit else ' and a limit'}, or use Grep to find the part "
                "you need.]"
            )
        else:
            parts.append(f"[Showing {shown}. To read on, call Read with offset={nxt}.]")
    if view.cut_lines:
        parts.append(
            f"[{view.cut_lines} line(s) were longer than {MAX_LINE_CHARS} characters and were "
            "cut; use Grep or Bash to see them in full.]"
        )
    return "\n".join(parts)


def _human_size(n: int) -> str:
    size = float(n)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} bytes"
