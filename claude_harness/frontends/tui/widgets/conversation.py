"""The scrolling conversation: recent blocks as widgets, everything older as pre-rendered lines.

A long session must stay as cheap as a short one. Only the last `high_mark` blocks are widgets
(answers beyond the last `live_blocks` already swapped for their one-widget FrozenText form);
when more arrive, the oldest finished ones are turned into Rich renderables (block_renderable)
and moved into the Archive: ONE line-API widget holding their rendered lines. Appending a block
then costs the same whether the conversation holds 20 messages or 2,000, because the layout has
the same few dozen widgets to arrange, and nothing is ever dropped: scrolling up reads the
archive.

A resumed session (`load_history`) mounts only the last turns; older turns stay as messages until
the reader scrolls near the top, then a few turns at a time are rendered (in a hidden staging
area, so they take their CSS), archived above, and the view is kept where it was.

The view is anchored to the bottom so it follows new output; Textual releases the anchor as soon
as the user scrolls up. Blocks are only archived while the view follows the bottom, so what the
reader is looking at never moves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from rich.console import RenderableType
from rich.segment import Segment
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget

from claude_harness.frontends.tui.widgets.block_renderable import block_renderable

Message = dict[str, Any]
RenderHistory = Callable[[list[Message]], list[Widget]]
HISTORY_BATCH_TURNS = 8  # turns rendered at a time when scrolling up into a resumed session
KEEP_PLACE_TRIES = 50  # refreshes to wait for those turns' lines to be laid out
FREEZE_BATCH = 3  # finished Markdown answers allowed beyond live_blocks before freezing them


class ArchivedLines(Sequence[Strip]):
    """Every archived line at one width, kept as its segments; the Strip is made when the line
    is drawn. (A Strip carries seven small caches of its own, about 1 KB a line: kept for every
    line of a 2,000-message session, they were some 40 MiB of the app's memory.)"""

    def __init__(self, width: int, rows: list[tuple[Segment, ...]] | None = None) -> None:
        self.width = width
        self.rows = rows if rows is not None else []

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, index: int) -> Strip: ...

    @overload
    def __getitem__(self, index: slice) -> list[Strip]: ...

    def __getitem__(self, index: int | slice) -> Strip | list[Strip]:
        if isinstance(index, slice):
            return [Strip(row, self.width) for row in self.rows[index]]
        return Strip(self.rows[index], self.width)

    def __iter__(self) -> Iterator[Strip]:
        return (Strip(row, self.width) for row in self.rows)


class Archive(Widget):
    """Older blocks as lines: one widget however long the conversation, drawn line by line.

    Lines are kept for the two widths last asked for: layout measures at the width with and
    without a scrollbar, and re-rendering everything on each of those would cost per block.
    """

    DEFAULT_CSS = """
    Archive { height: auto; width: 1fr; }
    """

    WIDTHS_KEPT = 2

    def __init__(self) -> None:
        super().__init__(id="archive")
        self.pending: list[list[Message]] = []  # older turns of a resumed session, not drawn yet
        self._renderables: list[RenderableType] = []  # oldest first
        self._lines: dict[int, ArchivedLines] = {}  # width -> every block's lines, in order

    @property
    def entry_count(self) -> int:
        return len(self._renderables)

    @property
    def line_count(self) -> int:
        return len(self._lines_at(self.size.width)) if self.size.width else 0

    def _render(self, renderables: Sequence[RenderableType], width: int
                ) -> list[tuple[Segment, ...]]:
        console = self.app.console
        options = console.options.update(width=width, height=None)
        rows: list[tuple[Segment, ...]] = []
        for renderable in renderables:
            lines = console.render_lines(renderable, options, style=self.rich_style, pad=True)
            rows += [tuple(line) for line in lines]
        return rows

    def _lines_at(self, width: int) -> ArchivedLines:
        lines = self._lines.get(width)
        if lines is None:
            lines = ArchivedLines(width, self._render(self._renderables, width))
            self._lines[width] = lines
            while len(self._lines) > self.WIDTHS_KEPT:
                del self._lines[next(iter(self._lines))]
        return lines

    def append(self, renderables: Sequence[RenderableType]) -> int:
        """Add blocks below the others; returns the lines added at the current width."""
        self._renderables += renderables
        return self._extend(renderables, at_start=False)

    def prepend(self, renderables: Sequence[RenderableType]) -> int:
        """Add blocks above the others; returns the lines added at the current width."""
        self._renderables[:0] = renderables
        return self._extend(renderables, at_start=True)

    def _extend(self, renderables: Sequence[RenderableType], *, at_start: bool) -> int:
        """Render only the new blocks, at the current width; other widths are dropped and
        drawn again if layout asks for them."""
        width = self.size.width
        lines = self._lines.get(width)
        self._lines = {width: lines} if lines is not None else {}
        added = 0
        if lines is not None:
            rows = self._render(renderables, width)
            added = len(rows)
            if at_start:
                lines.rows[:0] = rows
            else:
                lines.rows += rows
        self.refresh(layout=True)
        return added

    def clear(self) -> None:
        self.pending = []
        self._renderables = []
        self._lines = {}
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines_at(width))

    def render_line(self, y: int) -> Strip:
        lines = self._lines_at(self.size.width)
        if 0 <= y < len(lines):
            return lines[y]
        return Strip.blank(self.size.width)


def split_turns(messages: Sequence[Message]) -> list[list[Message]]:
    """Messages grouped by user turn: a turn starts at a user message with text or images (not
    one that only carries tool results), so a tool call and its result stay together."""
    turns: list[list[Message]] = []
    for message in messages:
        content = message.get("content")
        starts = message.get("role") == "user" and (
            isinstance(content, str)
            or any(b.get("type") != "tool_result" for b in content or [] if isinstance(b, dict)))
        if starts or not turns:
            turns.append([])
        turns[-1].append(message)
    return turns


def _drawn_tree(widgets: Sequence[Widget]) -> list[Widget]:
    """The widgets and everything inside them (taken before they are removed)."""
    return [each for widget in widgets for each in (widget, *widget.walk_children(Widget))]


def _forget_drawn_lines(widgets: Sequence[Widget]) -> None:
    """Empty the line caches of widgets that are gone. Textual keys an lru_cache of 1,024
    entries (StylesCache.get_inner_outer) on each widget's line cache, so a removed widget's
    drawn lines stayed alive until 1,024 newer widgets pushed them out: some 20 MiB of Strips
    over a 2,000-message session."""
    for widget in widgets:
        cache = getattr(widget, "_styles_cache", None)
        if cache is not None:
            cache.clear()


def _settled(widget: Widget) -> bool:
    """A block that will not change any more: not a running tool call, not a streaming answer
    (the blocks say so through the attributes the freezing already relies on)."""
    return not getattr(widget, "running", False) and getattr(widget, "freezable", True) is not False


class Conversation(VerticalScroll):
    DEFAULT_CSS = """
    Conversation {
        height: 1fr;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    Conversation > #staging { display: none; height: auto; }
    """

    def __init__(self, *, high_mark: int = 24, low_mark: int = 16, live_blocks: int = 2,
                 id: str | None = None) -> None:
        """`high_mark`: mounted blocks before the oldest are archived (down to `low_mark`);
        `live_blocks`: finished answers kept as full Markdown widgets."""
        super().__init__(id=id)
        self.high_mark = high_mark
        self.low_mark = low_mark
        self.live_blocks = live_blocks
        self.archive = Archive()
        self._staging = Vertical(id="staging")
        self._render_history: RenderHistory | None = None
        self._loading_older = False

    def compose(self) -> Any:
        yield self._staging
        yield self.archive

    def on_mount(self) -> None:
        self.anchor()

    def update_node_styles(self, animate: bool = True) -> None:
        """Skip the cascade over the children; each block styles itself on mount."""

    # ── the blocks ─────────────────────────────────────────────────────────────────────────

    def blocks(self) -> list[Widget]:
        """The mounted blocks, oldest first (the archive and the staging area left out)."""
        return [c for c in self.children if c is not self.archive and c is not self._staging]

    @property
    def block_count(self) -> int:
        """Blocks drawn so far: archived plus mounted (a resumed session's unread turns aside)."""
        return self.archive.entry_count + len(self.blocks())

    @property
    def following(self) -> bool:
        """The view sticks to the bottom (Textual releases the anchor when the user scrolls up)."""
        return self.is_anchored and (self.is_vertical_scroll_end or not self._anchor_released)

    async def add(self, *widgets: Widget) -> None:
        """Append blocks at the bottom; freeze far-off answers; archive the oldest blocks."""
        await self.mount_all(widgets)
        await self._freeze()
        await self._archive_overflow()

    async def add_many(self, widgets: list[Widget]) -> None:
        """Bulk append (resume, benchmarks) in one refresh."""
        with self.app.batch_update():
            await self.mount_all(widgets)
            await self._freeze()
            await self._archive_overflow()

    async def _freeze(self) -> None:
        """Swap finished answers beyond the last `live_blocks` for their one-widget form.

        Done in batches (only when FREEZE_BATCH more than allowed are live) so most adds do
        nothing.
        """
        live = [c for c in self.blocks() if getattr(c, "freezable", False)]
        if len(live) <= self.live_blocks + FREEZE_BATCH:
            return
        with self.app.batch_update():
            for widget in live[: len(live) - self.live_blocks]:
                await self.mount(widget.frozen(), before=widget)  # type: ignore[attr-defined]
                tree = _drawn_tree([widget])
                await widget.remove()
                _forget_drawn_lines(tree)

    async def _archive_overflow(self) -> None:
        """Past `high_mark` mounted blocks, move the oldest finished ones into the archive."""
        blocks = self.blocks()
        if len(blocks) <= self.high_mark or not self.following:
            return
        moving: list[Widget] = []
        for widget in blocks[: len(blocks) - self.low_mark]:
            if not _settled(widget):
                break  # still changing: it and everything after it stay widgets
            moving.append(widget)
        if not moving:
            return
        renderables = [r for w in moving if (r := block_renderable(w)) is not None]
        tree = _drawn_tree(moving)
        with self.app.batch_update():
            self.archive.append(renderables)
            await self.remove_children(moving)
        _forget_drawn_lines(tree)

    # ── resumed sessions ───────────────────────────────────────────────────────────────────

    async def load_history(self, messages: Sequence[Message], render: RenderHistory) -> None:
        """Show a resumed conversation: its last turns as widgets at once, the rest drawn as the
        reader scrolls up to them. `render` turns messages into block widgets."""
        self._render_history = render
        turns = split_turns(messages)
        shown: list[Widget] = []
        while turns and len(shown) < self.low_mark:
            shown[:0] = render(turns.pop())
        self.archive.pending = turns
        await self.add_many(shown)
        self.call_after_refresh(self._load_older)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if new_value <= self.size.height and self.archive.pending and not self._loading_older:
            self.call_later(self._load_older)

    @property
    def loading_older(self) -> bool:
        """Older turns of a resumed session are being drawn, until the view is back in place."""
        return self._loading_older

    async def _load_older(self) -> None:
        """Draw the next few older turns of a resumed session into the top of the archive.

        When the reader has scrolled up, the view is moved down by the lines added, after the
        refresh that lays them out; the load ends only then, so a second load cannot prepend
        before the first one's place is kept."""
        if self._loading_older or not self.archive.pending or self._render_history is None:
            return
        self._loading_older = True
        placing = False
        try:
            batch = self.archive.pending[-HISTORY_BATCH_TURNS:]
            del self.archive.pending[-HISTORY_BATCH_TURNS:]
            widgets = [w for turn in batch for w in self._render_history(turn)]
            await self._staging.mount_all(widgets)
            renderables = [r for w in widgets if (r := block_renderable(w)) is not None]
            tree = _drawn_tree(widgets)
            await self._staging.remove_children()
            _forget_drawn_lines(tree)
            keep_place = not self.following
            height = self.virtual_size.height
            added = self.archive.prepend(renderables)
            if keep_place and added:  # what the reader sees must not move down
                self.call_after_refresh(self._keep_place, added, height + added)
                placing = True
        finally:
            self._loading_older = placing

    def _keep_place(self, added: int, height: int, tries: int = 0) -> None:
        """Move down by the lines prepended, from wherever the reader is now (they may have
        scrolled on since the load began), once the view is `height` lines tall: scrolled
        before that, the move would stop at the old bottom, which anchors the view there."""
        if self.virtual_size.height < height and tries < KEEP_PLACE_TRIES:
            self.call_after_refresh(self._keep_place, added, height, tries + 1)
            return
        self._loading_older = False  # the scroll below may start the next load
        self.scroll_to(None, self.scroll_y + added, animate=False, immediate=True)

    async def clear(self) -> None:
        self.archive.clear()
        await self.remove_children(self.blocks())
