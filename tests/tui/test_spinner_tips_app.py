"""A tip under the app's spinner while a turn runs (`⎿ Tip: ...`, as Claude Code shows one),
and `spinnerTipsEnabled: false` in the settings hides it, as Claude Code's setting does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.tui.helpers import send, wait_for

SLOW = {"content": [{"type": "text", "text": "ok"}], "delay": 0.4}


def activity_text(app: Any) -> str:
    """The spinner's line and the tip's under it, as on screen while a turn runs."""
    if not app.activity.active:
        return ""
    tip = app.activity.tip_line
    return str(app.activity.render()) + (f"\n{tip.render()}" if tip.display else "")


async def test_a_tip_shows_under_the_spinner(api: Any, make_app: Any) -> None:
    app = make_app(api([SLOW]))
    async with app.run_test() as pilot:
        await send(pilot, "hi")
        shown = await wait_for(pilot, lambda: activity_text(app), what="the spinner")
        assert "esc to interrupt" in shown
        assert "⎿ Tip: " in shown


async def test_spinner_tips_enabled_false_hides_the_tips(
        api: Any, make_app: Any, project: Path) -> None:
    local = project / ".claude" / "settings.local.json"
    local.parent.mkdir(parents=True, exist_ok=True)
    local.write_text(json.dumps({"spinnerTipsEnabled": False}))
    app = make_app(api([SLOW]))
    async with app.run_test() as pilot:
        await send(pilot, "hi")
        shown = await wait_for(pilot, lambda: activity_text(app), what="the spinner")
        assert "esc to interrupt" in shown
        assert "Tip:" not in shown
