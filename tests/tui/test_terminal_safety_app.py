"""Escape sequences in what the app shows: the model's answer, a tool's output, a hook's notice
and a server's error never reach the terminal as sequences.

In-process, every widget's lines are rendered as Textual would write them (line filters
included) and searched for control characters. Through the real binary in tmux (`--inline`, so
the app itself keeps the normal screen), the terminal's own state is read back: its title and
whether the alternate screen was switched on."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from rich.segment import Segment
from textual.color import Color
from textual.geometry import Region

from claude_harness.frontends.tui.terminal_filter import TerminalSafeFilter
from claude_harness.frontends.tui.widgets.assistant_text import AssistantTextView
from claude_harness.frontends.tui.widgets.tool_call import ToolCallView
from tests.faults.test_terminal_safety import HOSTILE
from tests.tui.helpers import screen_text, send, wait_for
from tests.tui.test_terminal import BINARY, app_env
from tests.tui.test_terminal import terminal as terminal  # noqa: F401 - the tmux fixture

PAYLOAD = "".join(HOSTILE.values())
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def drawn_text(widget: Any) -> str:
    """What the widget writes to the terminal (its text, after the app's line filters)."""
    width, height = widget.outer_size
    strips = widget.render_lines(Region(0, 0, width, height))
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def test_the_line_filter_cleans_segments_and_keeps_clean_lines_as_they_are() -> None:
    line_filter = TerminalSafeFilter()
    clean = [Segment("plain text"), Segment(" more")]
    assert line_filter.apply(clean, Color(0, 0, 0)) is clean
    for sample in HOSTILE.values():
        out = line_filter.apply([Segment(f"a{sample}b"), Segment("\rc")], Color(0, 0, 0))
        assert not any(CONTROL.search(s.text) for s in out), repr(sample)
        assert out[0].text.startswith("a") and out[0].text.endswith("b")


async def test_hostile_answer_tool_output_and_notices_are_drawn_clean(
        api: Any, make_app: Any, project: Path) -> None:
    (project / "evil.txt").write_text(f"file start {PAYLOAD} file end\n")
    server = api([
        {"content": [f"Answer start {PAYLOAD} answer end.",
                     {"type": "tool_use", "name": "Bash", "input": {"command": "cat evil.txt"}}],
         "chunk_size": 5},
        "Done."])
    app = make_app(server, mode="bypassPermissions", bypass=True)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "show me")
        await wait_for(pilot, lambda: not app.busy and "Done." in screen_text(app),
                       what="turn end")
        await app.renderer.notice(f"hook said {PAYLOAD} and more")
        await app.post_notice(f"server error {PAYLOAD}", "error")
        await pilot.pause()
        answer = app.query(AssistantTextView).first()
        assert answer.text == "Answer start  answer end."  # whole sequences, cut or not
        (tool,) = app.query(ToolCallView)
        result = drawn_text(tool.query_one(".tool-result"))
        assert "file start" in result and "file end" in result
        for widget in app.query("*"):
            if widget.outer_size.area:
                assert not CONTROL.search(drawn_text(widget)), (widget, drawn_text(widget))


@pytest.mark.skipif(shutil.which("tmux") is None or not BINARY.exists(),
                    reason="needs tmux and the installed claude-harness")
def test_the_real_app_keeps_its_title_and_screen(api: Any, terminal: Any,
                                                 project: Path) -> None:
    (project / "evil.txt").write_text(f"file start {PAYLOAD} file end\n")
    api([{"content": [f"Answer start {PAYLOAD} answer end.",
                      {"type": "tool_use", "name": "Bash", "input": {"command": "cat evil.txt"}}],
          "chunk_size": 7},
         "All done."])
    term = terminal(app_env(), "--inline", "--allowedTools", "'Bash(cat:*)'",
                    then="echo APP-EXITED; sleep 30")
    term.wait("default mode")
    title_before = term.run("display-message", "-p", "-t", term.name, "#{pane_title}").strip()
    term.keys("show me", literal=True)
    term.keys("Enter")
    screen = term.wait("All done.", timeout=30)
    state = term.run("display-message", "-p", "-t", term.name, "#{pane_title}|#{alternate_on}")
    title, _, alternate = state.strip().partition("|")
    assert title == title_before and "pwned" not in title
    assert alternate == "0"
    assert "Answer start" in screen and "answer end." in screen
    assert "file start" in screen  # the tool's output was shown (cleaned)
    term.keys("C-d")  # --inline prints the conversation into the scrollback on the way out
    after = term.wait("APP-EXITED")
    state = term.run("display-message", "-p", "-t", term.name, "#{pane_title}|#{alternate_on}")
    assert state.strip() == f"{title_before}|0"
    assert "answer end." in after.partition("APP-EXITED")[0]
