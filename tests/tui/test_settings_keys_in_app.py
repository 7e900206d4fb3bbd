"""The `theme` key of the settings files is the theme the app starts in (the most
specific file wins), as in Claude Code; `/theme` still changes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.tui.helpers import send, wait_for


async def test_the_settings_theme_is_the_one_the_app_starts_in(
        api: Any, make_app: Any, project: Path, home: Path) -> None:
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"theme": "light"}))
    local = project / ".claude" / "settings.local.json"
    local.parent.mkdir(parents=True, exist_ok=True)
    local.write_text(json.dumps({"theme": "high-contrast"}))
    app = make_app(api([]))
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.theme == "high-contrast", what="theme from settings")
        await send(pilot, "/theme light")
        await wait_for(pilot, lambda: app.theme == "light", what="theme")
    local.unlink()
    app = make_app(api([]))
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.theme == "light", what="the user's theme")
