"""/config, /permissions and /hooks in the plain REPL, in a real terminal (tmux): the numbered
lists, the numbers and letters a person types, and what lands in the settings files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]
READY = "(shift+tab to cycle)"


def answer(session: Any, text: str) -> None:
    session.type(text)
    session.send("Enter")


def test_config_list_toggles_a_setting_by_number(plain_tmux: Any, home: Path) -> None:
    session, _server = plain_tmux([])
    session.wait_for(READY)
    answer(session, "/config")
    screen = session.wait_for("Change which (1-11")
    assert "1. Auto-compact" in screen and "(user settings)" in screen
    assert "(global config)" in screen and "global config: " in screen
    answer(session, "1")
    session.wait_for("Set Auto-compact to false")
    saved = json.loads((home / ".claude" / "settings.json").read_text())
    assert saved["autoCompactEnabled"] is False
    session.wait_for(lambda s: s.count("Change which (1-11") == 2)
    answer(session, "8")  # Editor mode: its choices, numbered
    session.wait_for("Editor mode (1-2, Enter to keep)")
    answer(session, "2")
    session.wait_for("Set Editor mode to vim")
    session.wait_for(lambda s: s.count("Change which (1-11") == 3)
    session.send("Enter")  # done
    session.wait_for(lambda s: "\n>" in s.rpartition("Enter to finish):")[2])  # the prompt
    assert json.loads((home / ".claude" / "settings.json").read_text())["editorMode"] == "vim"


def test_permissions_list_adds_to_the_chosen_file_and_removes_by_number(
        plain_tmux: Any, home: Path, project: Path) -> None:
    session, _server = plain_tmux([])
    session.wait_for(READY)
    answer(session, "/permissions")
    session.wait_for("a add a rule")
    answer(session, "a")
    session.wait_for("Kind: 1 allow")
    answer(session, "1")
    session.wait_for("Rule, e.g.")
    answer(session, "Bash(npm test:*)")
    screen = session.wait_for("Save to (1-4)")
    assert "Project settings (local)" in screen and "This session only" in screen
    answer(session, "2")  # Project settings
    # the row names its file; a long temp path may wrap anywhere inside it, so compare the
    # screen with its line breaks taken out
    where = f"1. Bash(npm test:*)  (Project settings · {project}"
    session.wait_for(lambda s: where in s or where in "".join(s.splitlines()))
    saved = json.loads((project / ".claude" / "settings.json").read_text())
    assert saved["permissions"]["allow"] == ["Bash(npm test:*)"]
    session.wait_for(lambda s: s.count("a add a rule") == 2)
    answer(session, "1")
    session.wait_for("Removed Bash(npm test:*)")
    assert json.loads((project / ".claude" / "settings.json").read_text())[
        "permissions"]["allow"] == []
    session.wait_for(lambda s: s.count("a add a rule") == 3)
    session.send("Enter")
    session.wait_for(lambda s: "\n>" in s.rpartition("Enter done:")[2])  # the prompt again


def test_hooks_list_names_each_hook_and_its_file(plain_tmux: Any, project: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [
        {"type": "command", "command": "ruff format ."}]}]}}))
    session, _server = plain_tmux([])
    session.wait_for(READY)
    answer(session, "/hooks")
    screen = session.wait_for("This list is read-only")
    assert "PostToolUse:" in screen
    assert "1. [Edit|Write] ruff format ." in screen and f"from {settings}" in screen
