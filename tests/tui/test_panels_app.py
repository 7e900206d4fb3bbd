"""The /config, /permissions and /hooks panels in the real app (Pilot), on a real session:
what the panel shows, what each key does, and what lands in the settings files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.frontends.tui.panels.base import Panel
from claude_harness.hooks import HookConfig, HookRunner
from tests.tui.helpers import screen_text, send, type_text, wait_for


async def ready_app(pilot: Any, app: Any) -> None:
    await wait_for(pilot, lambda: app.has_session and app.ready and app.dock is not None,
                   what="session ready")


def panel(app: Any, name: str) -> Any:
    return next((p for p in app.query(Panel) if p.name == name), None)


def user_settings(home: Path) -> dict[str, Any]:
    return json.loads((home / ".claude" / "settings.json").read_text())


async def test_config_panel_changes_settings_with_the_keyboard(
        api: Any, make_app: Any, home: Path) -> None:
    app = make_app(api([]))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready_app(pilot, app)
        await send(pilot, "/config")
        config = await wait_for(pilot, lambda: panel(app, "config"), what="panel")
        assert not app.prompt.display
        text = screen_text(app)
        assert "Auto-compact" in text and "Respect .gitignore in file picker" in text
        assert f"Saved in {home / '.claude' / 'settings.json'}" in text
        await pilot.press("enter")  # the first row: Auto-compact, true -> false
        await wait_for(pilot, lambda: "Set Auto-compact to false" in screen_text(app),
                       what="saved")
        assert user_settings(home)["autoCompactEnabled"] is False
        assert app.link.session.config.auto_compact is False
        theme_row = next(i for i, r in enumerate(config.rows) if r.key == "theme")
        for _ in range(theme_row):
            await pilot.press("down")
        before = app.theme
        await pilot.press("right")
        await wait_for(pilot, lambda: app.theme != before, what="theme applied")
        assert user_settings(home)["theme"] == app.theme
        await pilot.press("escape")
        await wait_for(pilot, lambda: panel(app, "config") is None, what="closed")
        assert app.prompt.display and app.prompt.has_focus


async def test_config_key_value_sets_one_without_the_panel(
        api: Any, make_app: Any, home: Path) -> None:
    app = make_app(api([]))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready_app(pilot, app)
        await send(pilot, "/config verbose=true")
        await wait_for(pilot, lambda: "Set Verbose output to true" in screen_text(app),
                       what="set")
        assert user_settings(home)["verbose"] is True and panel(app, "config") is None
        await send(pilot, "/config editorMode=emacs")
        await wait_for(pilot, lambda: "Editor mode takes one of: normal, vim"
                       in screen_text(app), what="refused")
        assert "editorMode" not in user_settings(home)


async def test_permissions_panel_adds_a_rule_to_the_chosen_file_and_removes_it(
        api: Any, make_app: Any, home: Path, project: Path) -> None:
    app = make_app(api([]))
    async with app.run_test(size=(140, 40)) as pilot:
        await ready_app(pilot, app)
        await send(pilot, "/permissions")
        editor = await wait_for(pilot, lambda: panel(app, "permissions"), what="panel")
        assert "Add a new rule…" in screen_text(app)
        await pilot.press("tab")  # Allow -> Ask
        assert editor.kind == "ask"
        await pilot.press("enter")  # Add a new rule…
        await wait_for(pilot, lambda: editor.state == "input", what="rule input")
        await type_text(pilot, "Bash(npm test:*)")
        await pilot.press("enter")
        await wait_for(pilot, lambda: editor.state == "destination", what="destinations")
        assert "User settings" in screen_text(app)
        await pilot.press("3")  # User settings
        await wait_for(pilot, lambda: any(r.rule == "Bash(npm test:*)" for r in editor.rules),
                       what="listed")
        assert user_settings(home)["permissions"]["ask"] == ["Bash(npm test:*)"]
        assert f"User settings · {home / '.claude' / 'settings.json'}" in screen_text(app)
        await pilot.press("down", "enter")  # the rule -> "remove it?"
        await wait_for(pilot, lambda: editor.state == "confirm", what="confirm")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not editor.rules, what="removed")
        assert user_settings(home)["permissions"]["ask"] == []
        assert not (project / ".claude" / "settings.local.json").exists()
        await pilot.press("escape")
        await wait_for(pilot, lambda: panel(app, "permissions") is None, what="closed")


async def test_permissions_command_still_adds_and_removes_with_words(
        api: Any, make_app: Any, project: Path) -> None:
    app = make_app(api([]))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready_app(pilot, app)
        await send(pilot, "/permissions deny --session Bash(rm *)")
        await wait_for(pilot, lambda: "Saved deny rule Bash(rm *) for this session"
                       in screen_text(app), what="saved")
        await send(pilot, "/permissions")
        await wait_for(pilot, lambda: panel(app, "permissions"), what="panel")
        await pilot.press("left")  # Allow -> Deny
        await wait_for(pilot, lambda: "This session only" in screen_text(app), what="row")
        assert not (project / ".claude" / "settings.local.json").exists()


async def test_hooks_panel_shows_each_hook_read_only(api: Any, make_app: Any,
                                                     project: Path) -> None:
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "./check.sh --strict"}]}]}
    source = project / ".claude" / "settings.json"
    config = HookConfig.from_sources([("projectSettings", source, hooks)])
    runner = HookRunner(config, project_dir=project, session_id="s", transcript_path="",
                        get_permission_mode=lambda: "default")
    app = make_app(api([]), hooks=runner)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready_app(pilot, app)
        await send(pilot, "/hooks")
        shown = await wait_for(pilot, lambda: panel(app, "hooks"), what="panel")
        text = screen_text(app)
        assert "Hooks (1 configured)" in text and "PreToolUse" in text and "1 hook(s)" in text
        assert "This menu is read-only" in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: "[Bash] ./check.sh --strict" in screen_text(app),
                       what="the event's hooks")
        await pilot.press("enter")
        await wait_for(pilot, lambda: f"Source: {source}" in screen_text(app), what="detail")
        assert "Command: ./check.sh --strict" in screen_text(app)
        await pilot.press("escape", "escape")
        assert shown.event is None and shown.hook is None
        await pilot.press("escape")
        await wait_for(pilot, lambda: panel(app, "hooks") is None, what="closed")


async def test_a_rule_that_does_not_parse_is_said_before_it_is_saved(
        api: Any, make_app: Any, home: Path) -> None:
    app = make_app(api([]))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready_app(pilot, app)
        await send(pilot, "/permissions")
        editor = await wait_for(pilot, lambda: panel(app, "permissions"), what="panel")
        await pilot.press("enter")
        await wait_for(pilot, lambda: editor.state == "input", what="rule input")
        await type_text(pilot, "Bash(npm")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Not a rule: rule 'Bash(npm' has no closing parenthesis"
                       in screen_text(app), what="refused")
        assert editor.state == "input"
        assert not (home / ".claude" / "settings.json").exists()
        await pilot.press("escape")
        assert editor.state == "list"
