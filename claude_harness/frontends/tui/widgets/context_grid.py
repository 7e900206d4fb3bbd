"""`/context` in the app: the context window as a grid of squares with a legend, in theme colours.

One Static: the grid comes from ContextUsage.grid() (the same squares the REPL prints), and each
category gets a theme colour, so the grid follows the app's theme. Nothing in it updates by
itself: the app mounts a new one each time `/context` runs, as a snapshot of that moment.
"""

from __future__ import annotations

from textual.content import Content
from textual.markup import escape
from textual.widgets import Static

from claude_harness.session.services.context_usage import (
    BUFFER,
    FREE,
    FULL,
    ContextUsage,
    format_share,
    format_tokens,
)

THEME_COLORS = {
    "system_prompt": "$text-muted",
    "system_tools": "$secondary",
    "mcp_tools": "$accent",
    "memory_files": "$warning",
    "messages": "$primary",
    "free_space": "$text-disabled",
    "autocompact_buffer": "$text-disabled",
}


def _color(category_id: str) -> str:
    return THEME_COLORS.get(category_id, "$text")


def grid_markup(usage: ContextUsage) -> str:
    """Content markup for the grid and its legend, side by side."""
    rows = usage.grid()
    legend = [f"[b]{escape(usage.model)}[/]",
              f"[dim]{format_tokens(usage.used_tokens)}/{format_tokens(usage.window)} tokens "
              f"({usage.percentage:.0f}%)[/]", "", "[dim]Estimated tokens by category[/]"]
    for category in usage.in_window:
        symbol = {"free": FREE, "buffer": BUFFER}.get(category.kind, FULL)
        legend.append(f"[{_color(category.id)}]{symbol}[/] {escape(category.name)}: "
                      f"[dim]{format_tokens(category.tokens)} "
                      f"({format_share(category.tokens, usage.window)})[/]")
    width = len(rows[0]) * 2 - 1 if rows else 0
    lines = []
    for index in range(max(len(rows), len(legend))):
        if index < len(rows):
            squares = " ".join(f"[{_color(s.category)}]{s.symbol}[/]" for s in rows[index])
        else:
            squares = " " * width
        beside = legend[index] if index < len(legend) else ""
        lines.append(f"{squares}   {beside}".rstrip())
    return "\n".join(lines)


class ContextGrid(Static):
    DEFAULT_CSS = """
    ContextGrid { padding: 0 1 0 2; margin: 1 0 0 0; height: auto; }
    """

    def __init__(self, usage: ContextUsage) -> None:
        super().__init__(Content.from_markup(grid_markup(usage)))
        self.usage = usage

    def update_usage(self, usage: ContextUsage) -> None:
        self.usage = usage
        self.update(Content.from_markup(grid_markup(usage)))
