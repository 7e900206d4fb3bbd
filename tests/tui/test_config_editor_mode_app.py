"""/config's "Editor mode" in the real app (Pilot): the change takes effect in the input at
once, as /vim's does (the session says EditorModeChanged), not only after a restart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.frontends.tui.panels.base import Panel
from claude_harness.frontends.tui.widgets.status_bar import StatusBar
from tests.tui.helpers import screen_text, send, type_text, wait_for


def footer(app: Any) -> str:
    return str(app.query_one(StatusBar).query_one("#status-mode").render())


def config_panel(app: Any) -> Any:
    return next((p for p in app.query(Panel) if p.name == "config"), None)


async def test_config_editor_mode_switches_the_input_at_once(
        api: Any, make_app: Any, home: Path) -> None:
    app = make_app(api([]))
    settings = home / ".claude" / "settings.json"
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.has_session and app.ready and app.dock is not None,
                       what="session ready")
        assert app.prompt.vim is None
        await send(pilot, "/config")
        config = await wait_for(pilot, lambda: config_panel(app), what="panel")
        row = next(i for i, r in enumerate(config.rows) if r.key == "editorMode")
        for _ in range(row):
            await pilot.press("down")
        await pilot.press("right")  # normal -> vim
        await wait_for(pilot, lambda: "Set Editor mode to vim" in screen_text(app), what="set")
        assert json.loads(settings.read_text())["editorMode"] == "vim"
        await wait_for(pilot, lambda: app.prompt.vim is not None, what="vim on")
        await pilot.press("escape")
        await wait_for(pilot, lambda: config_panel(app) is None, what="closed")
        assert "-- INSERT --" in footer(app)
        await type_text(pilot, "abc")
        await pilot.press("escape", "x")  # NORMAL's x deletes under the cursor
        assert app.prompt.text == "ab"
        await pilot.press("c", "c")
        await send(pilot, "/config editorMode=normal")
        await wait_for(pilot, lambda: app.prompt.vim is None, what="vim off")
        assert json.loads(settings.read_text())["editorMode"] == "normal"
        assert "INSERT" not in footer(app)
        await type_text(pilot, "xyz")
        assert app.prompt.text == "xyz"  # typed, not NORMAL-mode commands
