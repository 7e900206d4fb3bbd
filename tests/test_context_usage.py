"""The context window by category, as Claude Code's `/context` draws it (grid, legend, -p
Markdown table, the SDK's get_context_usage answer)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from claude_harness.session.services.context_usage import (
    BUFFER,
    FREE,
    format_share,
    format_tokens,
    measure_context,
    render_markdown,
    render_rich,
)

TOOLS = [{"name": "Bash", "description": "d" * 8000, "input_schema": {"type": "object"}},
         {"name": "Read", "description": "r" * 4000, "input_schema": {"type": "object"}},
         {"name": "NotebookEdit", "description": "n" * 2000, "input_schema": {},
          "defer_loading": True},
         {"name": "mcp__docs__search", "description": "s" * 3000, "input_schema": {}}]


def usage(**kw):
    args = dict(model="claude-sonnet-5-5", window=200_000, system_prompt="p" * 10_000,
                memory_text="m" * 2_000, tools=TOOLS,
                messages=[{"role": "user", "content": "hello " * 1000}],
                auto_compact_threshold=170_000)
    args.update(kw)
    return measure_context(**args)


@pytest.mark.parametrize(("tokens", "text"), [(20, "20"), (1_640, "1.6k"), (33_000, "33k"),
                                              (957_800, "957.8k"), (1_000_000, "1m")])
def test_token_counts_read_like_claude_codes(tokens: int, text: str) -> None:
    assert format_tokens(tokens) == text


@pytest.mark.parametrize(("tokens", "text"), [(20, "<0.1%"), (1_700, "0.2%"), (956_700, "96%"),
                                              (33_000, "3%")])
def test_legend_shares_read_like_claude_codes(tokens: int, text: str) -> None:
    assert format_share(tokens, 1_000_000) == text


def test_categories_add_up_to_the_window() -> None:
    u = usage()
    ids = [c.id for c in u.categories]
    assert ids == ["system_prompt", "system_tools", "mcp_tools", "memory_files", "messages",
                   "free_space", "autocompact_buffer", "system_tools_deferred"]
    assert u.category("memory_files").tokens == 500
    assert u.category("system_prompt").tokens == 2_500 - 500  # memory is counted on its own
    assert u.category("autocompact_buffer").tokens == 30_000
    assert sum(c.tokens for c in u.in_window) == 200_000
    assert u.category("system_tools_deferred").kind == "deferred"  # not in the window


def test_the_apis_own_count_sets_the_messages_share() -> None:
    u = usage(measured_total=120_000)
    assert u.measured and u.used_tokens == 120_000
    assert u.category("free_space").tokens == 200_000 - 120_000 - 30_000


def test_the_grid_has_one_square_per_share_and_the_buffer_last() -> None:
    u = usage(measured_total=100_000)
    grid = u.grid()
    assert (len(grid), len(grid[0])) == (10, 10)
    flat = [s for row in grid for s in row]
    counts = Counter(s.category for s in flat)
    assert counts["autocompact_buffer"] == 15 and all(s.symbol == BUFFER for s in flat[-15:])
    used = sum(-(-c.tokens // 2_000) for c in u.categories if c.kind == "used")
    assert 50 <= used <= 54  # 100k tokens, each category's last square possibly partial
    assert counts["free_space"] == 100 - 15 - used and flat[used].symbol == FREE
    assert {s.category for s in flat[:used]} == {c.id for c in u.categories
                                                 if c.kind == "used" and c.tokens}
    big = usage(window=1_000_000, auto_compact_threshold=967_000)
    assert (len(big.grid()), len(big.grid()[0])) == (10, 20)


def test_rendered_for_the_repl_and_for_print_mode() -> None:
    u = usage(measured_total=100_000, memory_files=())
    console = Console(width=120, record=True, color_system=None)
    console.print(render_rich(u))
    screen = console.export_text()
    assert "claude-sonnet-5-5" in screen and "100k/200k tokens (50%)" in screen
    assert "⛝ Autocompact buffer: 30k (15%)" in screen
    assert screen.splitlines()[0].count("⛁") + screen.splitlines()[0].count("⛀") == 10
    md = render_markdown(u)
    assert md.startswith("## Context Usage\n\n**Model:** claude-sonnet-5-5  \n")
    assert "| Messages | " in md and "| Free space | 70k | 35.0% |" in md
    assert "| mcp__docs__search | docs |" in md


def test_the_sdk_answer_has_the_documented_shape(tmp_path: Path) -> None:
    memory = tmp_path / "CLAUDE.md"
    memory.write_text("m" * 2_000)
    answer = usage(memory_files=[memory]).to_sdk()
    assert {"categories", "totalTokens", "maxTokens", "rawMaxTokens", "percentage", "gridRows",
            "model", "memoryFiles", "mcpTools", "agents", "isAutoCompactEnabled"} <= set(answer)
    assert answer["memoryFiles"] == [{"path": str(memory), "type": "Project", "tokens": 500}]
    assert {c["kind"] for c in answer["categories"]} == {"used", "free", "buffer", "deferred"}
    assert len(answer["gridRows"]) == 10 and answer["mcpTools"][0]["serverName"] == "docs"
