"""Streaming assistant text that settles into the scrollback block by block.

Only the unfinished tail (the paragraph or code block still being written) is re-rendered, in
the small transient live area (live.py); each finished Markdown block is printed once, for
good, above it. So a long answer never redraws itself, and the terminal's scrollback, search
and copy work on the final text. Without a real terminal nothing is redrawn: finished blocks
print as they complete and the rest when the stream ends, with no control sequences.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.markdown import Heading, Markdown
from rich.segment import Segment, Segments

from claude_harness.plain.live import LiveArea


class LeftHeading(Heading):
    """Headings start at the left margin, like every other line in the scrollback."""

    LEVEL_ALIGN = {f"h{level}": "left" for level in range(1, 7)}  # type: ignore[assignment]


class PlainMarkdown(Markdown):
    elements = {**Markdown.elements, "heading_open": LeftHeading}


def split_settled(text: str) -> int:
    """Length of the prefix of `text` made of finished Markdown blocks.

    A block is finished at a blank line outside a fenced code block, or right after the line
    that closes a fence. Returns 0 when nothing is finished yet.
    """
    settled = 0
    in_fence = False
    fence = ""
    pos = 0
    for line in text.splitlines(keepends=True):
        end = pos + len(line)
        if not line.endswith("\n"):
            break  # the last, unfinished line never settles
        stripped = line.strip()
        if in_fence:
            if stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                in_fence = False
                settled = end
        elif stripped.startswith(("```", "~~~")):
            in_fence = True
            fence = stripped[:3]
        elif stripped == "" and text[:pos].strip():
            settled = end
        pos = end
    return settled


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
    """Feed text deltas; finished blocks go to the scrollback, the tail stays live."""

    def __init__(self, console: Console, area: LiveArea | None = None) -> None:
        self.console = console
        self.area = area or LiveArea(console)
        self.pending = ""
        self.printed_any = False

    def feed(self, delta: str) -> None:
        self.pending += delta
        cut = split_settled(self.pending)
        if cut:
            done, self.pending = self.pending[:cut], self.pending[cut:]
            self._print_block(done)
        self.area.set_tail(self.pending)

    def finish(self) -> None:
        """The text block ended: print what is left, drop it from the live area."""
        self.area.set_tail("")
        if self.pending.strip():
            self._print_block(self.pending)
        self.pending = ""
        self.printed_any = False

    def _print_block(self, text: str) -> None:
        if not text.strip():
            return
        if self.printed_any:
            self.console.print()  # the blank line between blocks that the split consumed
        emit(self.console, PlainMarkdown(text.strip("\n")))
        self.printed_any = True
