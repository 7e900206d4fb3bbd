"""The REPL's renderer for thinking events and for hostile text, printing into a StringIO as a
pipe would (and as a terminal would, where the live area matters)."""

from __future__ import annotations

import io
import re
import time

import pytest

from claude_harness.frontends.plain.render import EventRenderer, make_console
from claude_harness.frontends.plain.replay import replay_history
from claude_harness.frontends.plain.stream import MarkdownStream, split_settled
from claude_harness.frontends.plain.theme import load_theme
from claude_harness.protocol.events import (
    McpAuthUrl,
    Notice,
    Report,
    ServerToolUse,
    ShellRan,
    StopNotice,
    TextDelta,
    ThinkingDelta,
    ThinkingDone,
    ToolResultEvent,
    ToolStart,
    TurnEnd,
)
from tests.faults.test_terminal_safety import HOSTILE

ESC = "\x1b"
SEARCH = ServerToolUse("srv_1", "web_search", "paris weather",
                       ("https://a.example/x", "https://b.example/"))


def renderer(*, terminal: bool | None = None, verbose: bool = False,
             width: int = 100) -> tuple[EventRenderer, io.StringIO]:
    buf = io.StringIO()
    console = make_console(load_theme(None)[0].rich_theme(), buf, force_terminal=terminal,
                           width=width)
    return EventRenderer(console, verbose=verbose), buf


def test_thinking_is_one_dim_line_with_its_time_and_the_text_only_in_verbose() -> None:
    for verbose in (False, True):
        out, buf = renderer(verbose=verbose)
        out.render(ThinkingDelta("Weigh the "))
        out.render(ThinkingDelta("options."))
        out.render(ThinkingDone(0, "Weigh the options."))
        out.render(TextDelta("Answer."))
        out.render(TurnEnd("end_turn", 1))
        lines = buf.getvalue().splitlines()
        assert lines[0] == "✻ Thought for 1s"
        assert ("  Weigh the options." in lines) is verbose
        assert "Answer." in lines


def test_redacted_thinking_server_tools_and_a_login_link() -> None:
    out, buf = renderer(verbose=True)
    out.render(ThinkingDone(0, "", redacted=True))
    out.render(SEARCH)
    out.render(ServerToolUse("srv_2", "web_fetch", "https://c.example/", error="too_large"))
    lines = buf.getvalue().splitlines()
    assert lines[0] == "✻ Thinking (redacted: the API keeps its text)"
    assert lines[1] == "● web_search: paris weather → a.example, b.example"
    assert lines[2:4] == ["  ⎿ https://a.example/x", "    https://b.example/"]
    assert lines[4] == "● web_fetch: https://c.example/ → error: too_large"

    quiet, quiet_buf = renderer()
    quiet.render(SEARCH)
    assert quiet_buf.getvalue().splitlines() == [lines[1]]  # URLs only with --verbose

    term, term_buf = renderer(terminal=True)
    term.render(McpAuthUrl("secure", "http://127.0.0.1:9/authorize?x=1"))
    printed = term_buf.getvalue()
    assert "log in to secure" in printed
    assert f"{ESC}]8;" in printed and "http://127.0.0.1:9/authorize?x=1" in printed  # a link


def test_a_stop_notice_is_said_once_at_its_level() -> None:
    out, buf = renderer(terminal=True)
    text = "The model declined to continue this response."
    out.render(StopNotice("refusal", text, "error"))
    out.render(TurnEnd("refusal", 1, text))
    plain = re.sub(r"\x1b\[[0-9;]*m", "", buf.getvalue())
    assert plain.count(text) == 1
    red = load_theme(None)[0].rich_theme().styles["ch.error"].color
    assert red is not None and red.name  # printed in the error style
    assert "\x1b[" in buf.getvalue()


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_text_never_reaches_the_terminal_from_any_print_point(name: str) -> None:
    """Model text, tool output, a tool's input, notices, reports, `!cmd` output, server tool
    lines, thinking and a resumed history: every print point strips the sample, on a pipe and
    on a terminal (where only our own styling sequences may appear)."""
    bad = f"A{HOSTILE[name]}B"
    for terminal in (False, True):
        out, buf = renderer(terminal=terminal, verbose=True)
        out.begin_turn()
        for chunk in (bad[:3], bad[3:]):
            out.render(TextDelta(chunk))
        out.render(ToolStart("t1", "Bash", {"command": f"echo {bad}"}, f"echo {bad}"))
        out.render(ToolResultEvent("t1", "Bash", f"out {bad}\nline 2", input={"command": "x"}))
        out.render(Notice(f"hook said {bad}", "warning"))
        out.render(Report("mcp", (f"srv · failed\n    {bad}",)))
        out.render(ShellRan("ls", "ls", (f"file{bad}",), 0, False))
        out.render(ServerToolUse("s1", "web_search", bad, (f"https://x.example/{bad}",)))
        out.render(ThinkingDelta(bad))
        out.render(ThinkingDone(0, bad))
        out.render(TurnEnd("end_turn", 1))
        out.end_turn()
        replay_history([{"role": "user", "content": bad},
                        {"role": "assistant", "content": [{"type": "text", "text": bad}]}],
                       out)
        printed = buf.getvalue()
        ours = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\]8;[^\x1b]*\x1b\\", "", printed)
        assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", ours), (terminal,
                                                                            repr(ours))
        assert "AB" in ours.replace(" ", "").replace("\r", "")


def test_a_command_to_approve_shows_its_hidden_bytes() -> None:
    from claude_harness.frontends.plain.previews import permission_body

    (line,) = permission_body("Bash", {"command": f"echo hi{ESC}]0;x\x07 && rm -rf ~"}, None)
    assert line == "echo hi\\x1b]0;x\\x07 && rm -rf ~"


def test_a_one_megabyte_line_streams_in_linear_time_and_prints_whole() -> None:
    """The live tail shows only what fits; nothing is copied per delta. The whole line is
    printed once, at the end (the transcript has it too). The figure itself is for the
    benchmark (scripts/bench_plain_long_line.py); this bound only catches a quadratic cost,
    which takes minutes here."""
    text = ("word " * 200_000)[:1_000_000]
    out, buf = renderer(terminal=True)
    started = time.perf_counter()
    for i in range(0, len(text), 24):
        out.render(TextDelta(text[i:i + 24]))
        if i == 500_016:  # halfway: the live area shows the last rows only
            tail = out.area.tail
            assert tail.startswith("…") and len(tail) <= 100 * 8
    out.render(TurnEnd("end_turn", 1))
    elapsed = time.perf_counter() - started
    assert elapsed < 10, elapsed
    printed = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", buf.getvalue())
    assert text.strip() in printed


def test_live_tail_lines_are_cut_to_the_rows_they_fill() -> None:
    from claude_harness.frontends.plain.live import tail_view

    assert tail_view("a\nb\nc", 10, 2) == "b\nc"
    assert tail_view("x" * 35, 10, 2) == "…" + "x" * 19
    assert tail_view("short\n" + "y" * 15, 10, 3) == "short\n" + "y" * 15


def test_blocks_are_those_a_full_rescan_per_delta_finds() -> None:
    """The stream reads each line once; it must print the same blocks as re-scanning all the
    pending text on every delta (the simple, quadratic way), however the text is cut."""
    answer = ("# T\n\npara one\nstill\n\n```py\nx = 1\n\ny = 2\n```\nafter\n\n"
              "~~~\nfenced\n~~~\n\n\n- a\n- b\n\nlast")

    def rescanned(size: int) -> list[str]:
        blocks, pending = [], ""
        for i in range(0, len(answer), size):
            pending += answer[i:i + size]
            if cut := split_settled(pending):
                blocks.append(pending[:cut])
                pending = pending[cut:]
        return [b for b in [*blocks, pending] if b.strip()]

    for size in (1, 2, 3, 5, 7, 13, 1000):
        stream = MarkdownStream(make_console(None, io.StringIO(), width=80))
        printed: list[str] = []
        stream._print_block = printed.append  # type: ignore[method-assign]
        for i in range(0, len(answer), size):
            stream.feed(answer[i:i + size])
        stream.finish()
        assert printed == rescanned(size), size


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_console_strips_what_a_print_point_might_forget(name: str) -> None:
    """The render hook make_console installs: raw Text, Markdown and a plain str printed
    directly come out clean, while Rich's own colours stay."""
    from rich.markdown import Markdown
    from rich.text import Text

    buf = io.StringIO()
    console = make_console(None, buf, force_terminal=True, width=80)
    console.print(Text(f"a{HOSTILE[name]}b", style="bold red"))
    console.print(Markdown(f"*c{HOSTILE[name]}d*"))
    console.print(f"e{HOSTILE[name]}f", markup=False)
    printed = buf.getvalue()
    ours = re.sub(r"\x1b\[[0-9;]*m", "", printed)
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", ours), repr(ours)
    # Rich drops BEL itself, so an OSC may lose its end before the hook sees it: its words stay
    # (harmless text), the sequence does not.
    assert re.search("a.*b", ours) and re.search("c.*d", ours) and re.search("e.*f", ours)
    assert "\x1b[1;31m" in printed  # the style's own sequence is kept


def test_resume_replay_skips_meta_messages_and_shows_thinking_as_one_line() -> None:
    history = [
        {"role": "user", "content": [{"type": "text", "text": "write a story"}]},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "Plot first."},
                                          {"type": "text", "text": "Once upon a"}]},
        {"role": "user", "content": [{"type": "text", "text": "Resume directly."}],
         "isMeta": True},
        {"role": "assistant", "content": [{"type": "redacted_thinking", "data": "x"},
                                          {"type": "text", "text": "time."}]},
    ]
    for verbose in (False, True):
        out, buf = renderer(verbose=verbose)
        replay_history(history, out)
        lines = buf.getvalue().splitlines()
        assert lines[:2] == ["> write a story", "✻ Thought"]
        assert ("  Plot first." in lines) is verbose
        assert "Resume directly." not in buf.getvalue()
        assert "✻ Thinking (redacted: the API keeps its text)" in lines
        assert lines[-1] == "── resumed ──"
