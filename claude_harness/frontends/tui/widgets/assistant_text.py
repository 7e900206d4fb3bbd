"""Assistant text rendered as Markdown while it streams.

Deltas go through Textual's `MarkdownStream`, which joins fragments that arrive faster than
they can be rendered and re-parses only the last top-level block: a fast stream never falls
behind and earlier blocks never flicker. Code fences are highlighted by the Markdown widget.
"""

from __future__ import annotations

from rich.markdown import Markdown as RichMarkdown
from textual.widget import Widget
from textual.widgets import Markdown, Static
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

    @property
    def freezable(self) -> bool:
        """A finished answer can be swapped for a one-widget FrozenText (see Conversation)."""
        return self._stream is None

    def frozen(self) -> Widget:
        return FrozenText(self.text)

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


class FrozenText(Static):
    """A finished answer far from the bottom: the same Markdown drawn by Rich in ONE widget.

    A Textual Markdown document is a widget per paragraph, list item and fence; a long session
    of them makes every layout pass slower. Far-off answers never change again, so the
    conversation swaps them for this (layout cost drops about tenfold).
    """

    DEFAULT_CSS = """
    FrozenText { margin: 1 0 0 0; padding: 0 1 0 2; }
    """

    def __init__(self, markdown: str) -> None:
        super().__init__(RichMarkdown(markdown, code_theme="monokai", inline_code_lexer="text"))
        self.text = markdown
