"""The scrolling conversation: one child widget per block, bounded for long sessions.

The view is anchored to the bottom so it follows new output, and Textual releases the anchor
as soon as the user scrolls up (and re-anchors when they scroll back down). Blocks far above
the screen are unmounted once there are more than `high_mark` of them: the full history lives
in the session (and `/export`), so the widget tree, layout and compositor cost stay bounded.
"""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static


class PrunedMarker(Static):
    """Says how many earlier blocks were unmounted."""

    DEFAULT_CSS = """
    PrunedMarker { color: $text-muted; text-style: italic; padding: 0 1; }
    """


class Conversation(VerticalScroll):
    DEFAULT_CSS = """
    Conversation {
        height: 1fr;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(self, *, high_mark: int = 200, low_mark: int = 150, live_blocks: int = 12,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.high_mark = high_mark
        self.low_mark = low_mark
        self.live_blocks = live_blocks
        self.pruned = 0

    def on_mount(self) -> None:
        self.anchor()

    def update_node_styles(self, animate: bool = True) -> None:
        """Skip the cascade over hundreds of children; each block styles itself on mount."""

    async def add(self, *widgets: Widget) -> None:
        """Append blocks at the bottom, freeze far-off answers, prune the oldest blocks."""
        await self.mount_all(widgets)
        await self._freeze()
        await self._prune()

    async def add_many(self, widgets: list[Widget]) -> None:
        """Bulk append (resume, benchmarks) in one refresh."""
        with self.app.batch_update():
            await self.mount_all(widgets)
            await self._freeze()
            await self._prune()

    async def _freeze(self) -> None:
        """Swap finished answers beyond the last `live_blocks` for their one-widget form.

        Done in batches (only when 8 more than allowed are live) so most adds do nothing.
        """
        live = [c for c in self.children if getattr(c, "freezable", False)]
        if len(live) <= self.live_blocks + 8:
            return
        with self.app.batch_update():
            for widget in live[: len(live) - self.live_blocks]:
                await self.mount(widget.frozen(), before=widget)  # type: ignore[attr-defined]
                await widget.remove()

    async def _prune(self) -> None:
        blocks = [c for c in self.children if not isinstance(c, PrunedMarker)]
        if len(blocks) <= self.high_mark:
            return
        drop = blocks[: len(blocks) - self.low_mark]
        self.pruned += len(drop)
        markers = list(self.query_children(PrunedMarker))
        with self.app.batch_update():
            await self.remove_children([*drop, *markers])
            text = f"… {self.pruned} earlier blocks hidden (the model still sees them; /export saves all)"
            await self.mount(PrunedMarker(text), before=0)

    async def clear(self) -> None:
        self.pruned = 0
        await self.remove_children()

    @property
    def block_count(self) -> int:
        return len(self.children)
