"""Assistant text rendered as Markdown while it streams.

Deltas go through Textual's `MarkdownStream`, which joins fragments that arrive faster than
they can be rendered and re-parses only the last top-level block: a fast stream never falls
behind and earlier blocks never flicker. Code fences are highlighted by the Markdown widget.
"""

from __future__ import annotations

from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownStream


class AssistantTextView(Markdown):
    DEFAULT_CSS = """
    AssistantTextView {
        margin: 1 0 0 0;
        padding: 0 1 0 2;
        background: transparent;
    }
    AssistantTextView MarkdownFence { max-height: 40; }
    """

    def __init__(self, markdown: str = "") -> None:
        super().__init__(markdown)
        self._stream: MarkdownStream | None = None
        self.text = markdown

    async def append_delta(self, delta: str) -> None:
        """Add a streamed fragment (the stream task renders it when it gets a chance)."""
        self.text += delta
        if self._stream is None:
            self._stream = Markdown.get_stream(self)
        await self._stream.write(delta)

    async def finish(self) -> None:
        """Flush what is pending and stop the stream's task (no background work after a turn)."""
        if self._stream is not None:
            stream, self._stream = self._stream, None
            await stream.stop()
