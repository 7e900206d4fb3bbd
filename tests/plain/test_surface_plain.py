"""The surface in the real `claude-harness --plain` in tmux against the scripted server:
the first prompt on the command line, text typed as people type it, searches that show what
is typed, and the small things that read as bugs."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.e2e.support import conversation

pytestmark = [pytest.mark.timeout(90), pytest.mark.slow]

READY = "shift+tab to cycle"  # the bottom toolbar: the prompt is up


def user_texts(server: Any, index: int = -1) -> list[str]:
    """The text blocks of the last user message of request `index`."""
    content = conversation(server.requests[index])[-1]["content"]
    return [content] if isinstance(content, str) else [b.get("text") for b in content]


def wait_requests(server: Any, count: int) -> None:
    deadline = time.monotonic() + 20
    while len(server.requests) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(server.requests) >= count


def test_the_prompt_on_the_command_line_is_sent(plain_tmux: Any) -> None:
    session, server = plain_tmux(["Fixed the tests."], "fix the tests")
    session.wait_for("Fixed the tests.")
    session.wait_for(READY)
    assert "fix the tests" in user_texts(server, 0)


TYPED = "👩‍👩‍👧 e\u0301 🇫🇷 中文 👍🏽 a👩‍👩‍👧b"  # ZWJ family, e + combining acute, a flag, CJK, a skin tone


def press(session: Any, *keys: str) -> None:
    for key in keys:
        session.send(key)
        time.sleep(0.15)


def test_graphemes_are_sent_whole_and_the_cursor_steps_over_them(plain_tmux: Any) -> None:
    session, server = plain_tmux(["Got it."])
    session.wait_for(READY)
    session.type(TYPED)
    session.wait_for("a👩‍👩‍👧b")
    # The screen is not read back after the edits: prompt-toolkit measures 👍🏽 and 👩‍👩‍👧 by
    # code point (wcwidth) where tmux 3.3 measures them its own way, so a partial redraw can
    # look shifted in tmux; the request is the ground truth of what the buffer holds.
    press(session, "Left", "BSpace")  # Backspace takes the whole family before the b
    press(session, "X", "Home", "Right", "Right", "Delete")  # over the family; Delete: é
    press(session, "Right", "Right", "!")  # over the space and the whole flag
    session.send("Enter")
    session.wait_for("Got it.")
    assert "👩‍👩‍👧  🇫🇷! 中文 👍🏽 aXb" in user_texts(server)  # byte for byte


def test_the_ctrl_r_query_shows_as_it_is_typed(plain_tmux: Any) -> None:
    session, _server = plain_tmux(["Deployed."])
    session.wait_for(READY)
    session.type("deploy the staging server")
    session.send("Enter")
    session.wait_for("Deployed.")
    session.wait_for(READY)
    session.send("C-r")
    session.type("stag")
    screen = session.wait_for("I-search backward: stag")
    assert screen.count("deploy the staging server") >= 2  # the match is back in the prompt


def test_the_resume_search_shows_what_is_typed_and_picks_from_it(
        plain_tmux: Any, project: Any, home: Any) -> None:
    import subprocess
    import sys

    from claude_harness.testing.mock_api import MockApiServer
    from tests.plain.conftest import child_env

    for prompt in ("older topic", "newer topic"):
        with MockApiServer({"turns": [f"Answer to {prompt}."]}) as earlier:
            done = subprocess.run([sys.executable, "-m", "claude_harness", "-p", prompt],
                                  cwd=project, env=child_env(home, earlier),
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, done.stderr
    session, server = plain_tmux(["Back on the older one."], "-r")
    session.wait_for("Resume which conversation?")
    session.type("older")
    session.wait_for("words to search, Enter for a new conversation: older")  # as typed
    session.send("Enter")
    screen = session.wait_for("Search: older (1 of 2)")
    listing = screen.rpartition("Search: older")[2]
    assert "   1. " in listing and "older topic" in listing and "newer topic" not in listing
    session.type("1")
    session.send("Enter")
    session.wait_for(READY)
    session.type("where were we?")
    session.send("Enter")
    session.wait_for("Back on the older one.")
    assert "older topic" in str(server.requests[-1]["messages"][0])


PLAN = "# Plan\n\n1. Add the flag\n2. Test it\n\nThen:\n\n3. Ship it\n   - and tell people\n4. Done"


def test_plan_approval_numbers_without_gaps_and_keeps_the_plans_numbers(
        plain_tmux: Any) -> None:
    session, _server = plain_tmux(
        [{"content": [{"type": "tool_use", "name": "ExitPlanMode", "input": {"plan": PLAN}}]},
         "Starting now."], "--permission-mode", "plan")
    session.wait_for(READY)
    session.type("plan it")
    session.send("Enter")
    screen = session.wait_for("Do you want to proceed?")
    for step in ("1. Add the flag", "2. Test it", "3. Ship it", "4. Done"):
        assert step in screen
    options = screen.partition("Do you want to proceed?")[2]
    assert "1. Yes" in options and "2. No, and tell the model" in options
    assert "3." not in options
    session.send("1")
    session.wait_for("Starting now.")


def test_the_toolbar_keeps_every_letter_after_shift_tab(plain_tmux: Any) -> None:
    session, _server = plain_tmux([])
    session.wait_for(READY)
    tail = " (shift+tab to cycle) · claude-sonnet-5-5 · ◐ medium · $0.0000 · 0% context"
    for label in ("⏵⏵ accept edits on", "⏸ plan mode on", "default mode", "⏵⏵ accept edits on"):
        session.send("BTab")
        screen = session.wait_for(lambda s, label=label: label in s)
        time.sleep(0.3)  # the redraw settles
        screen = session.screen()
        lines = [line.rstrip() for line in screen.splitlines() if line.strip()]
        assert lines[-1] == f" {label}{tail}"  # whole, not "⏵⏵  ccept edits on (shif +tab"
        assert sum("(shift+tab to cycle)" in line for line in lines) == 1  # no stale copy


def test_parallel_results_say_which_call_each_belongs_to(plain_tmux: Any, project: Any) -> None:
    (project / "alpha.txt").write_text("alpha body\n")
    (project / "beta.txt").write_text("beta body\nsecond line\n")
    reads = [{"type": "tool_use", "name": "Read", "input": {"file_path": str(project / name)}}
             for name in ("alpha.txt", "beta.txt")]
    session, _server = plain_tmux([{"content": reads}, "Read both."], "--permission-mode",
                                  "bypassPermissions")
    session.wait_for(READY)
    session.type("read both")
    session.send("Enter")
    screen = session.wait_for("Read both.")
    lines = [line.strip() for line in screen.partition("> read both")[2].splitlines()
             if line.strip()]
    # Each result sits right under a line naming its own call: the call's header repeated
    # when the other call was printed in between (the usual order), or the call itself when
    # its result came back before the next call was shown (a loaded machine).
    results = [i for i, line in enumerate(lines) if line.startswith("⎿ Read")]
    assert len(results) == 2, lines
    named = [lines[i - 1] for i in results]
    assert all(line.startswith("● Read(") for line in named), lines
    assert "alpha.txt" in named[0] and "beta.txt" in named[1], lines


def test_dont_ask_again_for_an_edit_allows_edits_for_the_session(plain_tmux: Any,
                                                                 project: Any) -> None:
    notes, readme = project / "notes.txt", project / "docs.md"  # new files: no Read first
    session, _server = plain_tmux(
        [{"content": [{"type": "tool_use", "name": "Write", "input": {
            "file_path": str(notes), "content": "bye\n"}}]},
         {"content": [{"type": "tool_use", "name": "Write", "input": {
             "file_path": str(readme), "content": "# new\n"}}]},
         "Both done."])
    session.wait_for(READY)
    session.type("edit both")
    session.send("Enter")
    screen = session.wait_for("2. Yes, allow all edits during this session (shift+tab)")
    assert "Edit(/**)" not in screen
    session.send("2")
    screen = session.wait_for("Both done.")
    asked = [line for line in screen.splitlines() if line.strip() == "Create or overwrite file"]
    assert len(asked) == 1  # the permission title: the second write asked nothing
    session.wait_for("accept edits on (shift+tab to cycle)")
    assert notes.read_text() == "bye\n" and readme.read_text() == "# new\n"
    assert not (project / ".claude" / "settings.local.json").exists()  # no rule saved
