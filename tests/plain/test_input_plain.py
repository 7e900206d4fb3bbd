"""The input in the real `claude-harness --plain` in tmux against the scripted server:
a long bracketed paste shows as a placeholder and goes out whole; a pasted image path becomes
the image."""

from __future__ import annotations

import base64
import time
from pathlib import Path
from typing import Any

import pytest

from tests.paste_support import LONG_PASTE, image_blocks, small_repo, tmux_paste, write_png
from tests.plain.test_surface_plain import READY, user_texts, wait_requests

pytestmark = [pytest.mark.timeout(90), pytest.mark.slow]


def test_a_long_paste_is_a_placeholder_and_is_sent_whole(plain_tmux: Any,
                                                         tmp_path: Path) -> None:
    session, server = plain_tmux(["Read all of it."])
    session.wait_for(READY)
    session.type("explain ")
    tmux_paste(session.socket, session.name, LONG_PASTE, tmp_path)
    screen = session.wait_for("[Pasted text #1 +120 lines]")
    assert "line 7:" not in screen  # the text itself stays out of the prompt
    session.type(" thanks")
    session.wait_for("+120 lines] thanks")
    session.send("Enter")
    session.wait_for("Read all of it.")
    wait_requests(server, 1)
    assert f"explain {LONG_PASTE} thanks" in user_texts(server)  # byte for byte


def test_a_short_paste_stays_as_typed(plain_tmux: Any, tmp_path: Path) -> None:
    session, server = plain_tmux(["Short."])
    session.wait_for(READY)
    tmux_paste(session.socket, session.name, "two\nlines", tmp_path)
    screen = session.wait_for("lines")
    assert "Pasted text" not in screen
    session.send("Enter")
    session.wait_for("Short.")
    assert "two\nlines" in user_texts(server)


def test_a_pasted_image_path_is_attached_as_the_image(plain_tmux: Any, tmp_path: Path) -> None:
    session, server = plain_tmux(["A red square."])
    folder = tmp_path / "my shots"
    folder.mkdir()
    data = write_png(folder / "shot.png")
    session.wait_for(READY)
    session.type("what is this ")
    tmux_paste(session.socket, session.name, str(folder / "shot.png").replace(" ", "\\ "),
               tmp_path)  # as a drop types it, the space escaped
    session.wait_for(f'@"{folder / "shot.png"}"')
    session.send("Enter")
    session.wait_for("A red square.")
    wait_requests(server, 1)
    images = image_blocks(server.requests[-1])
    assert [base64.b64decode(b["source"]["data"]) for b in images] == [data]


def test_the_at_popup_fuzzy_finds_files_as_you_type_and_attaches(plain_tmux: Any,
                                                                 project: Path) -> None:
    small_repo(project)
    session, server = plain_tmux([
        {"content": [{"type": "tool_use", "name": "Read",
                      "input": {"file_path": str(project / "docs/recent_notes.md")}}]},
        "Read the notes.", "Looked at it."])
    session.wait_for(READY)
    session.type("read the notes")
    session.send("Enter")
    session.wait_for("Read the notes.")
    session.wait_for(READY)
    session.type("look at @")  # no Tab: the menu opens as the `@` is typed
    screen = session.wait_for("+ docs/recent_notes.md")
    rows = [line.strip() for line in screen.splitlines() if line.strip().startswith("+ ")]
    assert rows[0] == "+ docs/recent_notes.md"  # the file this session read comes first
    assert "+ src/" in rows
    session.type("wpi")  # w(idgets/) p(rompt_) i(nput): a subsequence
    screen = session.wait_for("+ src/widgets/prompt_input.py")
    assert "wpi_ignored" not in screen  # .gitignore'd, as rg --files leaves it out
    session.send("Tab")
    session.wait_for("look at @src/widgets/prompt_input.py")
    session.send("Enter")  # the first Enter takes the highlighted row, the second sends
    time.sleep(0.3)
    session.send("Enter")
    session.wait_for("Looked at it.")
    wait_requests(server, 3)
    assert any("contents of src/widgets/prompt_input.py" in str(t)
               for t in user_texts(server, 2))


def test_a_long_paste_brought_back_with_up_is_sent_whole_again(plain_tmux: Any,
                                                                tmp_path: Path) -> None:
    session, server = plain_tmux(["First.", "Again."])
    session.wait_for(READY)
    tmux_paste(session.socket, session.name, LONG_PASTE, tmp_path)
    session.wait_for("[Pasted text #1 +120 lines]")
    session.send("Enter")
    session.wait_for("First.")
    session.wait_for(READY)
    session.send("Up")  # the prompt as it was sent: a later session has no paste #1
    session.wait_for("line 120:")
    session.send("Enter")
    session.wait_for("Again.")
    wait_requests(server, 2)
    assert LONG_PASTE in user_texts(server, 1)
