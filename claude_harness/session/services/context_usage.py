"""What fills the context window, by category, as `/context` shows it.

Categories and their ids follow Claude Code's (and its SDK's `get_context_usage`): system
prompt, system tools, MCP tools, memory files, messages, free space and the autocompact buffer
(the part of the window kept free so compaction has room), plus deferred tools, which are only
named in the window until ToolSearch loads them.

Token counts are the loop's estimates (api/token_estimate.py: about four characters a token, an
image or document page at a flat rate; there is no tokenizer offline), with one exception: when the last API answer reported the real prompt size, messages get whatever that
size leaves after the other categories, so the total matches what the API counted.

The grid is the window drawn as squares (10 x 10, or 20 x 10 for a window of a million tokens or
more): each category fills squares in order, a category's last square may be partial, then come
free squares and, last, the buffer. `render_markdown` is the `-p` form, `render_rich` the
terminal form; the app's ContextGrid widget draws the same grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from rich.text import Text

from claude_harness.api.token_estimate import estimate_tokens

Kind = Literal["used", "free", "buffer", "deferred"]

FULL, PARTIAL, FREE, BUFFER = "⛁", "⛀", "⛶", "⛝"
PARTIAL_BELOW = 0.7  # a square less full than this is drawn as partial

NAMES = {
    "system_prompt": "System prompt",
    "system_tools": "System tools",
    "mcp_tools": "MCP tools",
    "memory_files": "Memory files",
    "messages": "Messages",
    "free_space": "Free space",
    "autocompact_buffer": "Autocompact buffer",
    "system_tools_deferred": "System tools (deferred)",
    "mcp_tools_deferred": "MCP tools (deferred)",
}
COLORS = {  # terminal colours (Rich names); the widget maps ids to theme variables
    "system_prompt": "grey50",
    "system_tools": "grey66",
    "mcp_tools": "cyan",
    "memory_files": "dark_orange",
    "messages": "medium_purple",
    "free_space": "grey42",
    "autocompact_buffer": "grey42",
    "system_tools_deferred": "grey42",
    "mcp_tools_deferred": "grey42",
}


@dataclass(frozen=True)
class Category:
    id: str
    tokens: int
    kind: Kind = "used"

    @property
    def name(self) -> str:
        return NAMES.get(self.id, self.id)

    @property
    def color(self) -> str:
        return COLORS.get(self.id, "white")


@dataclass(frozen=True)
class Square:
    category: str  # a Category id
    fullness: float  # 0..1: how much of the square that category fills

    @property
    def symbol(self) -> str:
        if self.category == "autocompact_buffer":
            return BUFFER
        if self.category == "free_space":
            return FREE
        return FULL if self.fullness >= PARTIAL_BELOW else PARTIAL


@dataclass(frozen=True)
class ContextUsage:
    model: str
    window: int
    categories: tuple[Category, ...]
    memory_files: tuple[tuple[str, int], ...] = ()  # (path, tokens)
    mcp_tools: tuple[tuple[str, int], ...] = ()  # (tool name, tokens)
    auto_compact_threshold: int | None = None
    measured: bool = False  # the total comes from the API's own count

    @property
    def used_tokens(self) -> int:
        return sum(c.tokens for c in self.categories if c.kind == "used")

    @property
    def percentage(self) -> float:
        return 100.0 * self.used_tokens / self.window if self.window else 0.0

    def category(self, category_id: str) -> Category | None:
        return next((c for c in self.categories if c.id == category_id), None)

    @property
    def in_window(self) -> list[Category]:
        return [c for c in self.categories if c.kind != "deferred"]

    # ── the grid ───────────────────────────────────────────────────────────────────────────

    def grid_size(self) -> tuple[int, int]:
        """(columns, rows)."""
        return (20 if self.window >= 1_000_000 else 10), 10

    def grid(self) -> list[list[Square]]:
        columns, rows = self.grid_size()
        total = columns * rows
        per_square = self.window / total if self.window else 1
        squares: list[Square] = []
        for category in self.in_window:
            if category.kind != "used" or not category.tokens:
                continue
            exact = category.tokens / per_square
            whole = int(exact)
            squares += [Square(category.id, 1.0)] * whole
            if exact - whole > 0:
                squares.append(Square(category.id, exact - whole))
        buffer = self.category("autocompact_buffer")
        buffer_squares = round(buffer.tokens / per_square) if buffer else 0
        squares = squares[: max(0, total - buffer_squares)]
        squares += [Square("free_space", 0.0)] * (total - buffer_squares - len(squares))
        squares += [Square("autocompact_buffer", 1.0)] * (total - len(squares))
        return [squares[r * columns : (r + 1) * columns] for r in range(rows)]

    # ── the SDK's get_context_usage answer ─────────────────────────────────────────────────

    def to_sdk(self) -> dict[str, Any]:
        columns, rows = self.grid_size()
        per_square = self.window / (columns * rows) if self.window else 1
        return {
            "categories": [{"id": c.id, "name": c.name, "tokens": c.tokens, "color": c.color,
                            "kind": c.kind, **({"isDeferred": True} if c.kind == "deferred"
                                               else {})} for c in self.categories],
            "totalTokens": self.used_tokens,
            "maxTokens": self.window,
            "rawMaxTokens": self.window,
            "percentage": round(self.percentage, 1),
            "gridRows": [[{"color": COLORS.get(s.category, "white"),
                           "isFilled": s.category not in ("free_space",),
                           "categoryName": NAMES.get(s.category, s.category),
                           "tokens": round(per_square * s.fullness),
                           "percentage": round(100 * per_square * s.fullness / self.window, 2)
                           if self.window else 0,
                           "squareFullness": round(s.fullness, 3)} for s in row]
                         for row in self.grid()],
            "model": self.model,
            "memoryFiles": [{"path": p, "type": "Project", "tokens": t}
                            for p, t in self.memory_files],
            "mcpTools": [{"name": n, "serverName": n.split("__")[1] if n.count("__") >= 2 else "",
                          "tokens": t} for n, t in self.mcp_tools],
            "agents": [],
            "autoCompactThreshold": self.auto_compact_threshold,
            "isAutoCompactEnabled": self.auto_compact_threshold is not None,
        }


def measure_context(
    *,
    model: str,
    window: int,
    system_prompt: str,
    memory_text: str = "",
    memory_files: Sequence[Path] = (),
    tools: Sequence[dict[str, Any]] = (),
    messages: Sequence[dict[str, Any]] = (),
    measured_total: int | None = None,
    auto_compact_threshold: int | None = None,
) -> ContextUsage:
    """The breakdown for the session's current request: `tools` are the API tool definitions
    as sent (a deferred one carries `defer_loading`), `measured_total` the prompt size the last
    API answer reported (input plus cache reads and writes), if any."""
    memory_tokens = estimate_tokens(memory_text)
    system_tokens = max(0, estimate_tokens(system_prompt) - memory_tokens)
    builtin = [t for t in tools if not str(t.get("name", "")).startswith("mcp__")]
    mcp = [t for t in tools if str(t.get("name", "")).startswith("mcp__")]
    loaded = [t for t in builtin if not t.get("defer_loading")]
    mcp_loaded = [t for t in mcp if not t.get("defer_loading")]
    mcp_sizes = tuple((str(t["name"]), estimate_tokens(t)) for t in mcp)
    fixed = [
        Category("system_prompt", system_tokens),
        Category("system_tools", sum(estimate_tokens(t) for t in loaded)),
        Category("mcp_tools", sum(estimate_tokens(t) for t in mcp_loaded)),
        Category("memory_files", memory_tokens),
    ]
    estimated_messages = sum(estimate_tokens(m.get("content", "")) for m in messages)
    fixed_total = sum(c.tokens for c in fixed)
    measured = measured_total is not None and measured_total > fixed_total
    message_tokens = (measured_total - fixed_total if measured and measured_total is not None
                      else estimated_messages)
    used = fixed_total + message_tokens
    buffer = max(0, window - auto_compact_threshold) if auto_compact_threshold else 0
    categories = [c for c in fixed if c.tokens or c.id in ("system_prompt", "system_tools")]
    categories += [
        Category("messages", message_tokens),
        Category("free_space", max(0, window - used - buffer), "free"),
    ]
    if buffer:
        categories.append(Category("autocompact_buffer", buffer, "buffer"))
    deferred = [t for t in builtin if t.get("defer_loading")]
    if deferred:
        categories.append(Category("system_tools_deferred",
                                   sum(estimate_tokens(t) for t in deferred), "deferred"))
    mcp_deferred = [t for t in mcp if t.get("defer_loading")]
    if mcp_deferred:
        categories.append(Category("mcp_tools_deferred",
                                   sum(estimate_tokens(t) for t in mcp_deferred), "deferred"))
    per_file = _memory_shares(memory_files, memory_tokens)
    return ContextUsage(model, window, tuple(categories), per_file, mcp_sizes,
                        auto_compact_threshold, measured)


def _memory_shares(files: Sequence[Path], total: int) -> tuple[tuple[str, int], ...]:
    sizes = []
    for path in files:
        try:
            sizes.append((str(path), path.stat().st_size))
        except OSError:
            continue
    whole = sum(size for _, size in sizes) or 1
    return tuple((path, round(total * size / whole)) for path, size in sizes)


# ── text forms ─────────────────────────────────────────────────────────────────────────────


def format_tokens(tokens: int) -> str:
    """1.6k, 957.8k, 33k, 1m, 20: Claude Code's short token counts."""
    if tokens < 1000:
        return str(tokens)
    if tokens < 1_000_000:
        return f"{tokens / 1000:.1f}".rstrip("0").rstrip(".") + "k"
    return f"{tokens / 1_000_000:.1f}".rstrip("0").rstrip(".") + "m"


def format_share(tokens: int, window: int) -> str:
    """The legend's percentage: whole numbers from 1 %, one decimal below, `<0.1%` at the end."""
    share = 100.0 * tokens / window if window else 0.0
    if share >= 1:
        return f"{share:.0f}%"
    if share >= 0.1 or share == 0:
        return f"{share:.1f}%"
    return "<0.1%"


def legend(usage: ContextUsage) -> list[Text]:
    """The lines beside the grid: model, total, then one line per category in the window."""
    lines = [Text(usage.model, style="bold"),
             Text(f"{format_tokens(usage.used_tokens)}/{format_tokens(usage.window)} tokens "
                  f"({usage.percentage:.0f}%)", style="dim"),
             Text(""),
             Text("Estimated tokens by category", style="dim")]
    for category in usage.in_window:
        symbol = {"free": FREE, "buffer": BUFFER}.get(category.kind, FULL)
        line = Text(symbol, style=category.color)
        line.append(f" {category.name}: ")
        line.append(f"{format_tokens(category.tokens)} "
                    f"({format_share(category.tokens, usage.window)})", style="dim")
        lines.append(line)
    return lines


def render_rich(usage: ContextUsage) -> Text:
    """The grid with its legend, for a terminal (the plain REPL)."""
    grid = usage.grid()
    beside = legend(usage)
    out = Text()
    for row_number in range(max(len(grid), len(beside))):
        row = grid[row_number] if row_number < len(grid) else []
        for column, square in enumerate(row):
            out.append(square.symbol, style=COLORS.get(square.category, "white"))
            if column < len(row) - 1:
                out.append(" ")
        if row_number < len(beside):
            out.append("   " if row else " " * (len(grid[0]) * 2 + 2))
            out.append_text(beside[row_number])
        out.append("\n")
    extra = _details(usage)
    if extra:
        out.append("\n" + extra)
    return out


def _details(usage: ContextUsage) -> str:
    lines = []
    if usage.memory_files:
        lines.append("Memory files")
        lines += [f"└ {path}: {format_tokens(tokens)} tokens" for path, tokens in
                  usage.memory_files]
    if usage.mcp_tools:
        lines.append("MCP tools")
        lines += [f"└ {name}: {format_tokens(tokens)} tokens" for name, tokens in usage.mcp_tools]
    return "\n".join(lines)


def render_markdown(usage: ContextUsage) -> str:
    """The `-p` form (Claude Code prints `/context` as Markdown there)."""
    lines = ["## Context Usage", "",
             f"**Model:** {usage.model}  ",
             f"**Tokens:** {format_tokens(usage.used_tokens)} / {format_tokens(usage.window)} "
             f"({usage.percentage:.0f}%)", "",
             "### Estimated usage by category", "",
             "| Category | Tokens | Percentage |",
             "|----------|--------|------------|"]
    for category in usage.categories:
        share = 100.0 * category.tokens / usage.window if usage.window else 0.0
        lines.append(f"| {category.name} | {format_tokens(category.tokens)} | {share:.1f}% |")
    if usage.memory_files:
        lines += ["", "### Memory Files", "", "| Type | Path | Tokens |",
                  "|------|------|--------|"]
        lines += [f"| Project | {p} | {format_tokens(t)} |" for p, t in usage.memory_files]
    if usage.mcp_tools:
        lines += ["", "### MCP Tools", "", "| Tool | Server | Tokens |",
                  "|------|--------|--------|"]
        for name, tokens in usage.mcp_tools:
            server = name.split("__")[1] if name.count("__") >= 2 else ""
            lines.append(f"| {name} | {server} | {format_tokens(tokens)} |")
    return "\n".join(lines) + "\n"
