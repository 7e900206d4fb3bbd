"""The input in the installed app, in a real terminal (tmux) against the scripted
server: a long paste shows as a placeholder and goes out whole; a pasted image path becomes
the image."""

from __future__ import annotations

import base64
import time
from pathlib import Path
from typing import Any

import pytest

from tests.paste_support import LONG_PASTE, image_blocks, small_repo, tmux_paste, write_png
from tests.tui.test_surface_terminal import sent_texts, wait_requests
from tests.tui.test_terminal import BINARY, app_env, terminal  # noqa: F401 - the fixture

pytestmark = [pytest.mark.skipif(not BINARY.exists(),
                                 reason="claude-harness is not installed in this venv"),
              pytest.mark.timeout(90)]


def test_a_long_paste_is_a_placeholder_and_is_sent_whole(
        api: Any, terminal: Any, tmp_path: Path) -> None:  # noqa: F811
    server = api(["Read all of it."])
    term = terminal(app_env())
    term.wait("default mode")
    term.keys("explain ", literal=True)
    tmux_paste(term.name, term.name, LONG_PASTE, tmp_path)
    screen = term.wait("[Pasted text #1 +120 lines]")
    assert "line 7:" not in screen  # the text itself stays out of the input
    term.keys(" thanks", literal=True)
    term.wait("+120 lines] thanks")
    term.keys("Enter")
    term.wait("Read all of it.")
    wait_requests(server, 1, term)
    assert f"explain {LONG_PASTE} thanks" in sent_texts(server)  # byte for byte


def test_a_short_paste_stays_as_typed(api: Any, terminal: Any, tmp_path: Path) -> None:  # noqa: F811
    server = api(["Short."])
    term = terminal(app_env())
    term.wait("default mode")
    tmux_paste(term.name, term.name, "two\nlines", tmp_path)
    screen = term.wait("lines")
    assert "Pasted text" not in screen
    term.keys("Enter")
    term.wait("Short.")
    assert "two\nlines" in sent_texts(server)


def test_a_pasted_image_path_is_attached_as_the_image(
        api: Any, terminal: Any, project: Path, tmp_path: Path) -> None:  # noqa: F811
    server = api(["A red square."])
    folder = tmp_path / "my shots"
    folder.mkdir()
    data = write_png(folder / "shot.png")
    term = terminal(app_env())
    term.wait("default mode")
    term.keys("what is this ", literal=True)
    tmux_paste(term.name, term.name, f"'{folder / 'shot.png'}'", tmp_path)  # as a drop types it
    screen = term.wait('shots/shot.png"')  # the input soft-wraps the long path
    assert '@"/' in screen
    term.keys("Enter")
    term.wait("A red square.")
    wait_requests(server, 1, term)
    images = image_blocks(server.requests[0])
    assert [base64.b64decode(b["source"]["data"]) for b in images] == [data]


def test_the_at_popup_fuzzy_finds_files_as_you_type_and_tab_attaches(
        api: Any, terminal: Any, project: Path) -> None:  # noqa: F811
    small_repo(project)
    server = api([{"content": [{"type": "tool_use", "name": "Read",
                                "input": {"file_path": str(project / "docs/recent_notes.md")}}]},
                  "Read the notes.", "Looked at it."])
    term = terminal(app_env())
    term.wait("default mode")
    term.keys("read the notes", literal=True)
    term.keys("Enter")
    term.wait("Read the notes.")
    term.keys("look at @", literal=True)  # no Tab: the popup opens as the `@` is typed
    screen = term.wait("+ docs/recent_notes.md")
    rows = [line.strip() for line in screen.splitlines() if line.strip().startswith("+ ")]
    assert rows[0] == "+ docs/recent_notes.md"  # the file this session read comes first
    assert "+ src/" in rows
    term.keys("wpi", literal=True)  # w(idgets/) p(rompt_) i(nput): a subsequence
    screen = term.wait("+ src/widgets/prompt_input.py")
    assert "wpi_ignored" not in screen  # .gitignore'd, as rg --files leaves it out
    term.keys("Enter")  # on the open popup Enter takes the first row, sends nothing
    term.wait("look at @src/widgets/prompt_input.py")
    time.sleep(0.3)
    assert len(server.requests) == 2
    term.keys(" and @ap", literal=True)
    screen = term.wait("+ src/app.py")
    rows = [line.strip() for line in screen.splitlines() if line.strip().startswith("+ ")]
    assert sorted(rows[:2]) == ["+ src/app.py", "+ src/apple.txt"]  # equal: newest first
    second = rows[1][2:]
    term.keys("Down")  # the highlight moves to the second row
    time.sleep(0.2)
    term.keys("Tab")  # Tab takes the highlighted row
    term.wait(f"and @{second}")
    term.keys(" @rec", literal=True)
    term.wait("+ docs/recent_notes.md")
    term.keys("Tab")
    term.wait(f"@{second}  @docs/recent_notes.md")
    term.keys("Enter")  # no `@word` at the cursor: Enter sends
    term.wait("Looked at it.")
    wait_requests(server, 3, term)
    texts = sent_texts(server, 2)
    assert any("contents of src/widgets/prompt_input.py" in t for t in texts)
    assert any(f"contents of {second}" in t for t in texts)
    assert sum("contents of docs/recent_notes.md" in t for t in texts) == 1  # the mention


def test_ctrl_underscore_undoes_and_question_mark_shows_the_shortcuts(
        api: Any, terminal: Any) -> None:  # noqa: F811
    server = api(["Kept."])
    term = terminal(app_env())
    term.wait("default mode")
    term.keys("?", literal=True)  # on an empty prompt: the key list, no `?` typed
    screen = term.wait("ctrl+_ to undo")
    assert "@ for file paths" in screen and "shift+tab to cycle modes" in screen
    term.keys("?", literal=True)  # again: put away
    deadline = time.monotonic() + 10
    while "ctrl+_ to undo" in term.screen() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "ctrl+_ to undo" not in term.screen()
    term.keys("keep this", literal=True)
    term.wait("keep this")
    time.sleep(2.5)  # a pause closes the undo step, as a typing pause does
    term.keys(" but not this", literal=True)
    term.wait("keep this but not this")
    term.keys("C-_")
    deadline = time.monotonic() + 10
    while "but not this" in term.screen() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "but not this" not in term.screen()
    term.keys(" and why?", literal=True)  # `?` in text is just a character
    term.wait("keep this and why?")
    term.keys("Enter")
    term.wait("Kept.")
    wait_requests(server, 1, term)
    assert "keep this and why?" in sent_texts(server)
