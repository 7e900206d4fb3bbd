"""The renderer and the streaming Markdown, printing into a StringIO like a pipe would."""

from __future__ import annotations

import io
import re

import pytest

from claude_harness.frontends.plain.render import EventRenderer, make_console
from claude_harness.frontends.plain.stream import MarkdownStream, split_settled
from claude_harness.frontends.plain.theme import load_theme
from claude_harness.protocol.events import (
    ApiRetry,
    Notice,
    TextDelta,
    ToolProgress,
    ToolResultEvent,
    ToolStart,
    TurnEnd,
)

ESC = "\x1b"


def renderer(*, terminal: bool | None = None) -> tuple[EventRenderer, io.StringIO]:
    buf = io.StringIO()
    console = make_console(load_theme(None)[0].rich_theme(), buf, force_terminal=terminal,
                           width=80)
    return EventRenderer(console), buf


def lines_of(buf: io.StringIO) -> list[str]:
    return buf.getvalue().splitlines()


def test_streamed_markdown_settles_into_plain_lines_without_escapes() -> None:
    out, buf = renderer()
    answer = "# Plan\n\nFirst **do** this.\n\n```sh\nmake test\n```\nThen `that`."
    for i in range(0, len(answer), 3):
        out.render(TextDelta(answer[i:i + 3]))
    out.render(TurnEnd("end_turn", 1))
    text = buf.getvalue()
    assert ESC not in text
    assert lines_of(buf) == ["Plan", "", "First do this.", "", " make test", "",
                             "Then that."]


def test_finished_blocks_print_before_the_stream_ends() -> None:
    out, buf = renderer()
    out.render(TextDelta("Para one.\n\nPara two is still"))
    assert lines_of(buf) == ["Para one."]  # the tail is not printed (no live area off a tty)
    out.render(TextDelta(" streaming."))
    out.render(ToolStart("t1", "Bash", {"command": "ls"}, "ls"))
    assert lines_of(buf)[:3] == ["Para one.", "", "Para two is still streaming."]


def test_split_settled_keeps_open_code_fences_and_last_line() -> None:
    assert split_settled("a\n\nb") == 3
    assert split_settled("```\ncode\n\nmore") == 0  # a blank line inside a fence is no end
    assert split_settled("```\ncode\n```\nrest") == len("```\ncode\n```\n")
    assert split_settled("no newline yet") == 0


def test_live_tail_on_a_terminal_is_transient_and_final_text_printed_once() -> None:
    buf = io.StringIO()
    console = make_console(None, buf, force_terminal=True, width=60)
    stream = MarkdownStream(console)
    assert stream.area.enabled
    stream.feed("streaming words ")
    stream.feed("one by one")
    stream.finish()
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buf.getvalue())
    # The live tail was redrawn in place (\r, cursor moves), then the text was printed for
    # good once: the only newline in the output ends that final line.
    assert "\rstreaming words one by one" in plain
    assert plain.count("\n") == 1
    assert plain.split("\r")[-1].strip() == "streaming words one by one"


def test_tool_call_is_one_header_line_and_a_short_preview() -> None:
    out, buf = renderer()
    out.render(ToolStart("t1", "Bash", {"command": "seq 1 10"}, "seq 1 10"))
    out.render(ToolResultEvent("t1", "Bash", "\n".join(str(i) for i in range(1, 11))))
    assert lines_of(buf) == ["● Bash(seq 1 10)", "  ⎿ 1", "    2", "    3", "    4",
                             "    … +6 lines"]


def test_edit_result_shows_a_unified_diff() -> None:
    out, buf = renderer()
    inp = {"file_path": "/p/app.py", "old_string": "x = 1\ny = 2", "new_string": "x = 1\ny = 3"}
    out.render(ToolStart("e1", "Edit", inp, "/p/app.py"))
    out.render(ToolResultEvent("e1", "Edit", "The file /p/app.py has been updated.", input=inp))
    text = lines_of(buf)
    assert text[0] == "● Edit(/p/app.py)"
    assert "Updated /p/app.py: 1 line(s) added, 1 removed" in text[1]
    assert "    -y = 2" in text
    assert "    +y = 3" in text
    assert "     x = 1" in text  # context line


def test_errors_are_marked_and_markup_in_output_is_not_interpreted() -> None:
    out, buf = renderer()
    out.render(ToolStart("t1", "Read", {"file_path": "/nope"}, "/nope"))
    out.render(ToolResultEvent("t1", "Read",
                               "<tool_use_error>File [bold]/nope[/bold] does not exist."
                               "</tool_use_error>", is_error=True))
    out.render(TurnEnd("error", 1, error="API error 500"))
    text = lines_of(buf)
    assert "  ⎿ Error: File [bold]/nope[/bold] does not exist." in text
    assert text[-1] == "✗ Error: API error 500"


def test_errors_are_coloured_on_a_terminal_and_not_with_no_color(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    out, buf = renderer(terminal=True)
    out.render(Notice("disk full", "error"))
    assert ESC + "[" in buf.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    out, buf = renderer(terminal=True)
    out.render(Notice("disk full", "error"))
    assert "\x1b[3" not in buf.getvalue() and "\x1b[9" not in buf.getvalue()
    assert "disk full" in buf.getvalue()


def test_interrupt_and_retry_lines() -> None:
    out, buf = renderer()
    out.render(ApiRetry(1, 8, 0.5, "overloaded"))
    out.render(TurnEnd("aborted", 1))
    text = lines_of(buf)
    assert text[0] == "API error (overloaded); retrying in 0.5s (attempt 1/8)"
    assert text[1].endswith("Interrupted · What should the model do instead?")


def test_unknown_theme_warns_and_falls_back() -> None:
    theme, warning = load_theme("no-such-theme")
    assert theme.name == "dark"
    assert warning and "no-such-theme" in warning
    light, none = load_theme("light")
    assert none is None and light.name == "light"


def test_usage_and_history_events_do_not_cut_a_streaming_paragraph() -> None:
    from claude_harness.protocol.events import Usage, UserMessage

    out, buf = renderer()
    out.render(TextDelta("half a "))
    out.render(Usage(input_tokens=5, output_tokens=1))
    out.render(UserMessage({"role": "user", "content": []}))
    out.render(TextDelta("sentence."))
    out.render(TurnEnd("end_turn", 1))
    assert lines_of(buf) == ["half a sentence."]


def test_status_line_shows_what_runs_and_disappears_at_the_end_of_the_turn() -> None:
    buf = io.StringIO()
    out = EventRenderer(make_console(None, buf, force_terminal=True, width=80))
    out.begin_turn()
    out.render(ToolStart("t1", "Bash", {"command": "make"}, "make"))
    out.render(ToolProgress("t1", "Bash", {"stdout": "compiling a.c\ncompiling b.c\n"}))
    assert "Running Bash…" in out.area.render().renderables[0].plain
    assert "compiling b.c" in out.area.render().renderables[0].plain
    out.render(TurnEnd("end_turn", 1))
    assert out.area.render().renderables == []
    printed = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buf.getvalue())
    assert "● Bash(make)" in printed


def test_no_status_line_off_a_terminal() -> None:
    out, buf = renderer()
    out.begin_turn()
    out.render(ToolStart("t1", "Bash", {"command": "make"}, "make"))
    out.render(ToolProgress("t1", "Bash", {"stdout": "compiling\n"}))
    out.render(TurnEnd("end_turn", 1))
    assert "Running" not in buf.getvalue() and "compiling" not in buf.getvalue()
    assert ESC not in buf.getvalue()


def test_todo_list_preview_marks_each_state() -> None:
    out, buf = renderer()
    todos = [{"content": "write tests", "status": "completed", "activeForm": "Writing tests"},
             {"content": "fix bug", "status": "in_progress", "activeForm": "Fixing bug"},
             {"content": "ship", "status": "pending", "activeForm": "Shipping"}]
    out.render(ToolStart("t1", "TodoWrite", {"todos": todos}))
    out.render(ToolResultEvent("t1", "TodoWrite", "Todos updated", input={"todos": todos}))
    assert lines_of(buf)[1:] == ["  ⎿ ☒ write tests", "    ◐ fix bug", "    ☐ ship"]
