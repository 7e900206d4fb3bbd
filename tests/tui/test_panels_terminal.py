"""/config, /permissions and /hooks in the installed app, in a real terminal (tmux): what the
panel shows, the keys a person presses, what lands in the settings files, and (for a rule added
in the editor) that the next tool call is decided by it."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.tui.test_terminal import BINARY, app_env, terminal  # noqa: F401 - the fixture

pytestmark = pytest.mark.skipif(not BINARY.exists(),
                                reason="claude-harness is not installed in this venv")


def send(term: Any, line: str) -> None:
    term.keys(line, literal=True)
    term.keys("Enter")


def started(term: Any) -> None:
    """Wait for the agent: /usage answers once it is up (before that it says it is starting)."""
    term.wait("default mode")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        send(term, "/usage")
        try:
            term.wait("Output tokens:", timeout=1.0)
            return
        except AssertionError:
            continue
    raise AssertionError("the agent did not start:\n" + term.screen())


def gone(term: Any, text: str) -> str:
    deadline = time.monotonic() + 10
    while text in (screen := term.screen()):
        assert time.monotonic() < deadline, screen
        time.sleep(0.1)
    return screen


def config_dir() -> Path:
    return Path(os.environ["CLAUDE_CONFIG_DIR"])


def test_config_panel_saves_each_change_where_claude_code_does(api: Any, terminal: Any,  # noqa: F811
                                                               project: Path) -> None:
    api([])
    term = terminal(app_env())
    started(term)
    send(term, "/config")
    screen = term.wait("Respect .gitignore in file picker")
    assert "Settings" in screen and "Auto-compact" in screen
    term.keys("Enter")  # the first row: Auto-compact true -> false
    term.wait("Set Auto-compact to false")
    assert json.loads((config_dir() / "settings.json").read_text())["autoCompactEnabled"] is False
    for _ in range(10):  # down to the last row
        term.keys("Down")
    term.keys("Space")
    term.wait("Set Respect .gitignore in file picker to false")
    assert json.loads((config_dir() / ".claude.json").read_text())["respectGitignore"] is False
    term.keys("Escape")
    screen = gone(term, "Respect .gitignore in file picker")
    assert "default mode" in screen


def test_permissions_editor_adds_a_rule_that_decides_the_next_call(api: Any, terminal: Any,  # noqa: F811
                                                                   project: Path) -> None:
    api([{"content": [{"type": "tool_use", "name": "Bash",
                       "input": {"command": "touch blocked.txt"}}]}, "It was refused."])
    term = terminal(app_env())
    started(term)
    send(term, "/permissions")
    term.wait("Add a new rule")
    term.keys("Left")  # Allow -> Deny
    term.wait("[Deny]")
    term.keys("Enter")
    term.wait("Type a deny rule")
    term.keys("Bash(touch *)", literal=True)
    term.keys("Enter")
    term.wait("Where should Bash(touch *) be saved?")
    term.keys("3")  # User settings
    screen = term.wait("User settings · ")
    assert "Bash(touch *)" in screen
    saved = json.loads((config_dir() / "settings.json").read_text())
    assert saved["permissions"]["deny"] == ["Bash(touch *)"]
    term.keys("Escape")
    gone(term, "Add a new rule")
    send(term, "make the file")
    screen = term.wait("It was refused.")
    assert "Do you want to proceed?" not in screen
    assert not (project / "blocked.txt").exists()
    send(term, "/permissions")
    term.wait("Add a new rule")
    term.keys("Left")
    term.wait("[Deny]")
    term.keys("Down", "Enter")
    term.wait("Yes, remove Bash(touch *)")
    term.keys("Enter")
    gone(term, "User settings · ")
    saved = json.loads((config_dir() / "settings.json").read_text())
    assert saved["permissions"]["deny"] == []


def test_hooks_panel_lists_a_hook_with_its_command_and_file(api: Any, terminal: Any,  # noqa: F811
                                                            project: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "./guard.sh --strict"}]}]}}))
    api([])
    term = terminal(app_env())
    started(term)
    send(term, "/hooks")
    screen = term.wait("Hooks (1 configured)")
    assert "PreToolUse" in screen and "1 hook(s)" in screen
    assert "This menu is read-only" in screen
    term.keys("Enter")
    term.wait("[Bash] ./guard.sh --strict")
    term.keys("Enter")
    screen = term.wait("Command: ./guard.sh --strict")
    assert "Source:" in screen and "settings.json" in screen
    for _ in range(3):
        term.keys("Escape")
        time.sleep(0.2)
    gone(term, "Hooks (1 configured)")


def test_permissions_editor_lists_managed_rules_read_only(api: Any, terminal: Any,  # noqa: F811
                                                          home: Path) -> None:
    managed = home / "no-managed.json"  # the managed settings file the tests point at
    managed.write_text(json.dumps({"permissions": {"deny": ["WebFetch"]}}))
    api([])
    term = terminal(app_env())
    started(term)
    send(term, "/permissions")
    term.wait("Add a new rule")
    term.keys("Left")  # Deny
    screen = term.wait("WebFetch")
    flat = screen.replace("│", "").replace("\n", "").replace(" ", "")  # the row may wrap
    assert f"Managedsettings·{managed}·read-only".replace(" ", "") in flat
    term.keys("Down", "Enter")
    term.wait("cannot be changed here")
    assert json.loads(managed.read_text()) == {"permissions": {"deny": ["WebFetch"]}}
