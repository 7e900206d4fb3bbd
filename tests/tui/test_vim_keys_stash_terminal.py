"""Vim mode, stash and keybindings in the installed app, in a real terminal (tmux) against the scripted server: vim
mode from editorMode (and /vim), a key from the keybindings file with a bad entry reported at
start and by /doctor, and Ctrl+S stash; each checked on screen and in the request sent."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.tui.test_surface_terminal import sent_texts, wait_requests
from tests.tui.test_terminal import BINARY, app_env, terminal  # noqa: F401 - the fixture

pytestmark = [pytest.mark.skipif(not BINARY.exists(),
                                 reason="claude-harness is not installed in this venv"),
              pytest.mark.timeout(90)]


def config_dir() -> Path:
    return Path(os.environ["CLAUDE_CONFIG_DIR"])


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def wait_gone(term: Any, text: str) -> str:
    import time

    for _ in range(400):
        screen = term.screen()
        if text not in screen:
            return screen
        time.sleep(0.05)
    raise AssertionError(f"{text!r} stayed; screen:\n{term.screen()}")


def test_vim_mode_from_settings_in_the_app(api: Any, terminal: Any) -> None:  # noqa: F811
    write_json(config_dir() / "settings.json", {"editorMode": "vim"})
    server = api(["Vim answer."])
    term = terminal(app_env())
    term.wait("-- INSERT --")
    term.keys("fix the old tests", literal=True)
    term.wait("fix the old tests")
    term.keys("Escape")
    wait_gone(term, "-- INSERT --")  # NORMAL shows no indicator, as in Claude Code
    term.keys("bdw", literal=True)  # back a word, delete it
    screen = wait_gone(term, "tests")
    assert "fix the old" in screen
    term.keys("A", literal=True)
    term.wait("-- INSERT --")
    term.keys("now", literal=True)
    term.wait("fix the old now")
    term.keys("Enter")
    term.wait("Vim answer.")
    wait_requests(server, 1, term)
    assert "fix the old now" in sent_texts(server)
    term.keys("/vim", literal=True)
    term.keys("Enter")
    term.wait("Editor mode set to normal")
    wait_gone(term, "-- INSERT --")


def test_ctrl_s_stash_in_the_app(api: Any, terminal: Any) -> None:  # noqa: F811
    server = api(["First answer."])
    term = terminal(app_env())
    term.wait("default mode")
    term.keys("my long draft", literal=True)
    term.wait("my long draft")
    term.keys("C-s")
    term.wait("stashed · ctrl+s to restore")
    wait_gone(term, "my long draft")
    term.keys("quick one", literal=True)
    term.keys("Enter")
    term.wait("draft restored")
    term.wait("my long draft")
    term.wait("First answer.")
    wait_requests(server, 1, term)
    texts = sent_texts(server)
    assert "quick one" in texts and not any("draft" in t for t in texts)


def test_a_custom_key_and_a_bad_entry_in_the_app(api: Any, terminal: Any) -> None:  # noqa: F811
    write_json(config_dir() / "keybindings.json", {"bindings": [
        {"context": "Chat", "bindings": {"ctrl+e": "chat:stash", "ctrl+q": "chat:nothing"}},
        {"context": "Global", "bindings": {"ctrl+k ctrl+t": "app:toggleTodos"}},
    ]})
    server = api(["Other answer."])
    term = terminal(app_env())
    screen = term.wait("Keybindings: 1 entry")
    assert 'Unknown action "chat:nothing"' in screen
    term.keys("/doctor", literal=True)
    term.keys("Enter")
    screen = term.wait("Chat ctrl+e -> chat:stash")
    assert "skipped" in screen
    term.keys("draft", literal=True)
    term.wait("draft")
    term.keys("C-e")
    term.wait("stashed · ctrl+s to restore")
    term.keys("other", literal=True)
    term.keys("Enter")
    term.wait("Other answer.")
    wait_requests(server, 1, term)
    texts = sent_texts(server)
    assert "other" in texts and not any("draft" in t for t in texts)
