"""The /context grid widget in a small host app: squares and legend in theme colours."""

from __future__ import annotations

from textual.app import App, ComposeResult

from claude_harness.frontends.tui.widgets.context_grid import ContextGrid
from claude_harness.session.services.context_usage import measure_context


def sample(total: int):
    return measure_context(model="claude-sonnet-5-5", window=200_000, system_prompt="p" * 8000,
                           tools=[{"name": "Bash", "description": "d" * 8000}],
                           measured_total=total, auto_compact_threshold=170_000)


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield ContextGrid(sample(60_000))


async def test_the_grid_shows_the_window_and_follows_updates() -> None:
    app = Host()
    async with app.run_test(size=(100, 20)) as pilot:
        grid = app.query_one(ContextGrid)
        text = str(grid.render())
        lines = text.splitlines()
        assert "60k/200k tokens (30%)" in text and "Messages:" in text
        squares = sum(line[:19].count(s) for line in lines for s in "⛁⛀⛶⛝")
        assert squares == 100  # ten rows of ten, the legend beside them
        assert lines[-1].count("⛝") == 10 and "Autocompact buffer: 30k (15%)" in text
        grid.update_usage(sample(150_000))
        await pilot.pause()
        assert "150k/200k tokens (75%)" in str(grid.render())
