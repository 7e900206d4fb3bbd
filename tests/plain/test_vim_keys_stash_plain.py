"""Vim mode, stash and keybindings in the real `claude-harness --plain` in tmux: prompt-toolkit's vi mode with the
mode in the toolbar (editorMode, /vim), Ctrl+S stash, and a key from the keybindings file,
checked on screen and in what the scripted server received."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import conversation

pytestmark = [pytest.mark.timeout(90), pytest.mark.slow]

READY = "shift+tab to cycle"


def sent(server: Any, index: int = -1) -> list[str]:
    return [b.get("text", "") for b in conversation(server.requests[index])[-1]["content"]]


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_vim_mode_from_settings_shows_insert_and_edits_in_normal(
        plain_tmux: Any, home: Path) -> None:
    write_json(home / ".claude" / "settings.json", {"editorMode": "vim"})
    session, server = plain_tmux(["Vim answer."])
    session.wait_for("-- INSERT --")
    session.type("fix the old tests")
    session.send("Escape")
    session.wait_for(lambda s: READY in s and "-- INSERT --" not in s)
    session.type("bdw")  # NORMAL: back a word, delete it
    session.wait_for(lambda s: "> fix the old" in s and "tests" not in s)
    session.type("Anow")
    session.wait_for("-- INSERT --")
    session.send("Enter")
    session.wait_for("Vim answer.")
    assert "fix the old now" in sent(server)


def test_slash_vim_turns_vi_mode_on_for_the_next_prompt(plain_tmux: Any, home: Path) -> None:
    session, server = plain_tmux(["Typed in vim."])
    session.wait_for(READY)
    assert "-- INSERT --" not in session.screen()
    session.type("/vim")
    session.send("Enter")
    session.wait_for("Editor mode set to vim")
    session.wait_for("-- INSERT --")
    session.type("abcX")
    session.send("Escape")
    session.type("x")  # NORMAL: deletes the X
    session.send("Enter")
    session.wait_for("Typed in vim.")
    assert "abc" in sent(server)
    saved = json.loads((home / ".claude" / "settings.json").read_text())
    assert saved["editorMode"] == "vim"


def test_ctrl_s_stashes_and_the_draft_returns_after_the_next_prompt(plain_tmux: Any) -> None:
    session, server = plain_tmux(["First.", "Second."])
    session.wait_for(READY)
    session.type("my long draft")
    session.send("C-s")
    session.wait_for(lambda s: "stashed · ctrl+s to restore" in s and "my long draft" not in s)
    session.type("quick one")
    session.send("Enter")
    session.wait_for("First.")
    session.wait_for("draft restored")
    session.wait_for("> my long draft")  # back in the input for the next prompt
    assert "quick one" in sent(server, 0) and not any("draft" in t for t in sent(server, 0))
    session.send("Enter")
    session.wait_for("Second.")
    assert "my long draft" in sent(server, 1)


def test_a_custom_key_from_the_keybindings_file(plain_tmux: Any, home: Path) -> None:
    write_json(home / ".claude" / "keybindings.json", {"bindings": [
        {"context": "Chat", "bindings": {"ctrl+e": "chat:stash", "ctrl+s": None,
                                         "ctrl+q": "chat:nothing"}}]})
    session, server = plain_tmux(["Got it."])
    session.wait_for(READY)
    screen = session.screen()
    assert "Keybindings: 1 entry" in screen and 'Unknown action "chat:nothing"' in screen
    session.type("draft")
    session.send("C-s")  # unbound in the file: nothing happens
    session.type("!")
    session.wait_for("> draft!")
    session.send("C-e")
    session.wait_for("stashed · ctrl+s to restore")
    session.type("other")
    session.send("Enter")
    session.wait_for("Got it.")
    session.wait_for("> draft!")
    assert "other" in sent(server) and not any("draft" in t for t in sent(server))


def test_keybindings_command_creates_opens_and_applies_the_file(
        plain_tmux: Any, home: Path, tmp_path: Path) -> None:
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import json, sys\n"
        "data = json.load(open(sys.argv[1]))\n"
        "data['bindings'].append({'context': 'Chat', 'bindings': {'ctrl+e': 'chat:stash'}})\n"
        "json.dump(data, open(sys.argv[1], 'w'))\n", encoding="utf-8")
    import sys

    session, server = plain_tmux(["Fine."], env={"EDITOR": f"{sys.executable} {editor}"})
    session.wait_for(READY)
    session.type("/keybindings")
    session.send("Enter")
    session.wait_for("Claude Code's format")
    session.wait_for(READY)
    data = json.loads((home / ".claude" / "keybindings.json").read_text())
    assert data["$schema"].endswith("claude-code-keybindings.json")
    session.type("draft")
    session.send("C-e")
    session.wait_for("stashed · ctrl+s to restore")
    session.type("now")
    session.send("Enter")
    session.wait_for("Fine.")
    session.wait_for("> draft")
    assert "now" in sent(server)


def test_vim_insert_mode_remap_in_the_repl(plain_tmux: Any, home: Path) -> None:
    write_json(home / ".claude" / "settings.json",
               {"editorMode": "vim", "vimInsertModeRemaps": {"jj": "<Esc>"}})
    session, server = plain_tmux(["Remapped."])
    session.wait_for("-- INSERT --")
    session.type("abcjj")
    session.wait_for(lambda s: "-- INSERT --" not in s and "> abc" in s)
    session.type("x")  # NORMAL: deletes the c
    session.send("Enter")
    session.wait_for("Remapped.")
    assert "ab" in sent(server)


@pytest.mark.parametrize(("mode", "shift_enter"), [
    ("vim", "\x1b[13;2u"),  # the kitty/CSI-u report of Shift+Enter
    ("vim", "\x1b[27;2;13~"),  # xterm's modifyOtherKeys report
    ("normal", "\x1b[13;2u"),
])
def test_shift_enter_inserts_a_newline_in_either_editor_mode(
        plain_tmux: Any, home: Path, mode: str, shift_enter: str) -> None:
    """Shift+Enter (as a terminal that reports it sends it) is a newline in vim's INSERT too,
    as in normal editing; before, vim mode took its Escape as leaving INSERT and then sent the
    prompt on the Enter."""
    write_json(home / ".claude" / "settings.json", {"editorMode": mode})
    session, server = plain_tmux(["Two lines."])
    session.wait_for(READY)
    session.type("first line")
    session.type(shift_enter)
    session.type("second line")
    session.wait_for(lambda s: "> first line\n  second line" in s)
    if mode == "vim":
        assert "-- INSERT --" in session.screen()  # still typing
    assert not server.requests
    session.send("Enter")
    session.wait_for("Two lines.")
    assert "first line\nsecond line" in sent(server)


def test_question_mark_in_vim_normal_shows_the_shortcuts_at_an_empty_prompt(
        plain_tmux: Any, home: Path) -> None:
    """`?` in NORMAL on an empty prompt is the shortcuts panel, as `?` is in INSERT and in
    normal editing (before, it started vim's backward search there); with text in the prompt
    it is still vim's search."""
    write_json(home / ".claude" / "settings.json", {"editorMode": "vim"})
    session, server = plain_tmux(["Searched."])
    session.wait_for("-- INSERT --")
    session.send("Escape")
    session.wait_for(lambda s: READY in s and "-- INSERT --" not in s)
    session.type("?")
    screen = session.wait_for("ctrl+_ to undo")  # the panel
    assert "shift+tab to cycle modes" in screen
    session.type("?")  # again: put away
    session.wait_for(lambda s: "ctrl+_ to undo" not in s)
    session.type("ialpha beta")
    session.send("Escape")
    session.wait_for(lambda s: "> alpha beta" in s and "-- INSERT --" not in s)
    session.type("?alp")  # text in the prompt: vim's backward search
    session.send("Enter")  # to the match, at the start
    session.type("x")  # NORMAL: deletes the a there
    session.wait_for("> lpha beta")
    assert "ctrl+_ to undo" not in session.screen()
    session.send("Enter")
    session.wait_for("Searched.")
    assert "lpha beta" in sent(server)
