"""Streaming assistant text that settles into the scrollback block by block.

Only the unfinished tail (the paragraph or code block still being written) is re-rendered, in
the small transient live area (live.py); each finished Markdown block is printed once, for
good, above it. So a long answer never redraws itself, and the terminal's scrollback, search
and copy work on the final text. Without a real terminal nothing is redrawn: finished blocks
print as they complete and the rest when the stream ends, with no control sequences.
"""

from __future__ import annotations

import itertools
import threading

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.markdown import Heading, Markdown
from rich.segment import Segment, Segments
from rich.text import Text

from claude_harness.frontends.plain.live import LiveArea
from claude_harness.text.terminal_safety import strip_unsafe

# A block longer than this is printed as plain text, not laid out as Markdown.
PLAIN_BLOCK_CHARS = 64_000
JOIN_PIECES = 64


class LeftHeading(Heading):
    """Headings start at the left margin, like every other line in the scrollback."""

    LEVEL_ALIGN = {f"h{level}": "left" for level in range(1, 7)}  # type: ignore[assignment]


class PlainMarkdown(Markdown):
    elements = {**Markdown.elements, "heading_open": LeftHeading}


class BlockScanner:
    """Finds where the finished Markdown blocks of a growing text end, reading each line once.

    A block is finished at a blank line outside a fenced code block, or right after the line
    that closes its fence (the same character, at least as many as opened it); the last,
    unfinished line never settles. Feed it whole lines as they
    complete; `settled` is the length of the finished prefix of everything fed (0: none yet).
    """

    def __init__(self) -> None:
        self.length = 0  # characters fed so far
        self.settled = 0
        self.in_fence = False
        self.fence = ""
        self.has_text = False  # a non-blank line was read (a blank line then ends a block)

    def feed(self, lines: str) -> int:
        """Read `lines` (whole lines, ending with a newline); returns `settled`."""
        for line in lines.splitlines(keepends=True):
            self.length += len(line)
            stripped = line.strip()
            if self.in_fence:
                if _closes(stripped, self.fence):
                    self.in_fence = False
                    self.settled = self.length
            elif fence := _opening_fence(stripped):
                self.in_fence = True
                self.fence = fence
                self.has_text = True
            elif not stripped:
                if self.has_text:
                    self.settled = self.length
            else:
                self.has_text = True
        return self.settled


def _opening_fence(stripped: str) -> str:
    """The fence a line opens (its whole run of 3+ backticks or tildes), or "" (CommonMark: a
    backtick fence's info string holds no backtick)."""
    if not stripped.startswith(("```", "~~~")):
        return ""
    run = len(stripped) - len(stripped.lstrip(stripped[0]))
    if stripped[0] == "`" and "`" in stripped[run:]:
        return ""
    return stripped[:run]


def _closes(stripped: str, fence: str) -> bool:
    """Does the line close `fence`: the same character, at least as many, nothing after? So a
    ```` block holding ``` lines stays one block until its own ```` line."""
    return stripped.startswith(fence) and stripped.strip(fence[0]) == ""


def split_settled(text: str) -> int:
    """Length of the prefix of `text` made of finished Markdown blocks (see BlockScanner)."""
    return BlockScanner().feed(text[: text.rfind("\n") + 1])


def emit(console: Console, renderable: RenderableType) -> None:
    """Print for good, without the blank lines Rich puts around some blocks (lists, code).

    Off a terminal, also drop the padding Rich adds up to the console width, so piped output
    is clean lines; on a terminal the padding may carry a background colour and stays.
    """
    lines = console.render_lines(renderable, console.options, pad=False, new_lines=False)
    texts = ["".join(seg.text for seg in line).strip() for line in lines]
    filled = [i for i, text in enumerate(texts) if text]
    if not filled:
        return
    out: list[Segment] = []
    for line in lines[filled[0]: filled[-1] + 1]:
        if not console.is_terminal:
            width = cell_len("".join(seg.text for seg in line).rstrip())
            line = Segment.adjust_line_length(line, width)
        out.extend(line)
        out.append(Segment.line())
    console.print(Segments(out), end="", soft_wrap=True)


class MarkdownStream:
    """Feed text deltas; finished blocks go to the scrollback, the tail stays live.

    The text not printed yet is kept as the whole lines read since the last finished block and
    the pieces of the line being written. A delta costs a list append; its new lines are read
    once when a line ends; text is joined only to print a finished block. So an answer that is
    one enormous line, or a huge code block, streams in linear time. The live area reads the
    tail's last characters through `suffix()` (from its own refresh thread, hence the lock).
    """

    def __init__(self, console: Console, area: LiveArea | None = None) -> None:
        self.console = console
        self.area = area or LiveArea(console)
        self.lines: list[str] = []  # whole lines since the last finished block
        self.parts: list[str] = []  # the line being written, in pieces
        self.scanner = BlockScanner()
        self.printed_any = False
        self._loose = 0  # pieces appended since the last were joined
        self._lock = threading.Lock()

    @property
    def pending(self) -> str:
        with self._lock:
            return "".join(self.lines) + "".join(self.parts)

    def suffix(self, limit: int) -> str:
        """The last `limit` characters not printed yet."""
        pieces: list[str] = []
        total = 0
        with self._lock:
            for piece in itertools.chain(reversed(self.parts), reversed(self.lines)):
                pieces.append(piece[-(limit - total):])
                total += len(pieces[-1])
                if total >= limit:
                    break
        return "".join(reversed(pieces))

    def feed(self, delta: str) -> None:
        with self._lock:
            self.parts.append(delta)
            self._loose += 1
            if self._loose >= JOIN_PIECES:  # the tail's last characters stay in few pieces
                self.parts[-JOIN_PIECES:] = ["".join(self.parts[-JOIN_PIECES:])]
                self._loose = 0
            block = self._read_lines() if "\n" in delta else None
        if block:
            self._print_block(block)
        self.area.set_tail(self)

    def _read_lines(self) -> str | None:
        """Move the completed lines from `parts` to `lines`; the finished block, if any."""
        current = "".join(self.parts)
        end = current.rfind("\n") + 1
        self.parts[:] = [current[end:]] if end < len(current) else []
        self._loose = 0
        self.lines.append(current[:end])
        cut = self.scanner.feed(current[:end])
        if not cut:
            return None
        text = "".join(self.lines)
        rest = text[cut:]
        self.lines[:] = [rest] if rest else []
        self.scanner = BlockScanner()
        self.scanner.feed(rest)  # the lines after the block end start the next one
        return text[:cut]

    def finish(self) -> None:
        """The text block ended: print what is left, drop it from the live area."""
        pending = self.pending
        with self._lock:
            self.lines[:] = []
            self.parts[:] = []
            self.scanner = BlockScanner()
        self.area.set_tail("")
        if pending.strip():
            self._print_block(pending)
        self.printed_any = False

    def _print_block(self, text: str) -> None:
        if not text.strip():
            return
        if self.printed_any:
            self.console.print()  # the blank line between blocks that the split consumed
        text = strip_unsafe(text.strip("\n"))
        if len(text) > PLAIN_BLOCK_CHARS:
            # Markdown layout of a block this big takes seconds; the terminal wraps it as is.
            self.console.print(Text(text), soft_wrap=True)
        else:
            emit(self.console, PlainMarkdown(text))
        self.printed_any = True
