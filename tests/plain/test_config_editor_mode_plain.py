"""/config's editor mode in the real `claude-harness --plain` in tmux: `/config
editorMode=vim` turns prompt-toolkit's vi mode on for the next prompt at once, as /vim does
(the session says EditorModeChanged), not only after a restart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import conversation

pytestmark = [pytest.mark.timeout(90), pytest.mark.slow]

READY = "shift+tab to cycle"


def test_config_editor_mode_switches_vi_mode_at_once(plain_tmux: Any, home: Path) -> None:
    session, server = plain_tmux(["Typed in vim."])
    session.wait_for(READY)
    assert "-- INSERT --" not in session.screen()
    session.type("/config editorMode=vim")
    session.send("Enter")
    session.wait_for("Set Editor mode to vim")
    session.wait_for("-- INSERT --")
    session.type("abcX")
    session.send("Escape")
    session.type("x")  # NORMAL: deletes the X
    session.send("Enter")
    session.wait_for("Typed in vim.")
    texts = [b.get("text", "") for b in conversation(server.requests[-1])[-1]["content"]]
    assert "abc" in texts
    saved = json.loads((home / ".claude" / "settings.json").read_text())
    assert saved["editorMode"] == "vim"
