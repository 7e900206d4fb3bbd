"""Streaming assistant text that settles into the scrollback block by block.

Only the unfinished tail (the paragraph or code block still being written) is re-rendered, in a
small transient Rich Live area; each finished Markdown block is printed once, for good, above
it. So a long answer never redraws itself, and the terminal's scrollback, search and copy work
on the final text. Without a real terminal there is no Live at all: finished blocks print as
they complete and the rest when the stream ends, with no control sequences.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.live import Live
from rich.markdown import Heading, Markdown
from rich.segment import Segment, Segments
from rich.text import Text

TAIL_LINES = 8


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

    def __init__(self, console: Console, *, live: bool | None = None) -> None:
        self.console = console
        self.use_live = (console.is_terminal and not console.is_dumb_terminal) if live is None \
            else live
        self.pending = ""
        self.printed_any = False
        self._live: Live | None = None

    @property
    def active(self) -> bool:
        return bool(self.pending) or self._live is not None

    def feed(self, delta: str) -> None:
        self.pending += delta
        cut = split_settled(self.pending)
        if cut:
            done, self.pending = self.pending[:cut], self.pending[cut:]
            self._print_block(done)
        self._update_tail()

    def finish(self) -> None:
        """The text block ended: print what is left and drop the live area."""
        self._stop_live()
        if self.pending.strip():
            self._print_block(self.pending)
        self.pending = ""
        self.printed_any = False

    def pause(self) -> None:
        """Hide the live tail (before a prompt takes the terminal); text is kept."""
        self._stop_live()

    # ── internals ───────────────────────────────────────────────────────────────────────────

    def _print_block(self, text: str) -> None:
        if not text.strip():
            return
        if self.printed_any:
            self.console.print()  # the blank line between blocks that the split consumed
        emit(self.console, PlainMarkdown(text.strip("\n")))
        self.printed_any = True

    def _tail_renderable(self) -> Text:
        lines = self.pending.splitlines()[-TAIL_LINES:]
        return Text("\n".join(lines))

    def _update_tail(self) -> None:
        if not self.use_live:
            return
        if not self.pending.strip():
            self._stop_live()
            return
        if self._live is None:
            self._live = Live(self._tail_renderable(), console=self.console, transient=True,
                              auto_refresh=False, vertical_overflow="crop")
            self._live.start()
        self._live.update(self._tail_renderable(), refresh=True)

    def _stop_live(self) -> None:
        if self._live is not None:
            live, self._live = self._live, None
            live.update(Text(""), refresh=True)
            live.stop()
