"""A code block fenced with four backticks may hold three-backtick lines (a README showing a
code sample): while streaming, the plain REPL keeps it one block until its own ```` line,
instead of cutting it at the inner ``` and printing the rest as Markdown."""

from __future__ import annotations

import io

from claude_harness.frontends.plain.render import EventRenderer, make_console
from claude_harness.frontends.plain.stream import PlainMarkdown, emit, split_settled
from claude_harness.frontends.plain.theme import load_theme
from claude_harness.protocol.events import TextDelta, TurnEnd

ANSWER = ("Put this in the README:\n\n"
          "````markdown\n"
          "Install it:\n\n"
          "```sh\n"
          "pip install widget\n"
          "```\n\n"
          "# Not a heading\n"
          "````\n\n"
          "Done.")


def renderer() -> tuple[EventRenderer, io.StringIO]:
    buf = io.StringIO()
    console = make_console(load_theme(None)[0].rich_theme(), buf, width=80)
    return EventRenderer(console), buf


def test_the_inner_fence_does_not_end_the_block() -> None:
    inner_close = ANSWER.index("```\n\n# Not") + len("```\n\n")
    assert split_settled(ANSWER[:inner_close]) == len("Put this in the README:\n\n")
    outer_close = ANSWER.index("````\n\nDone") + len("````\n")
    assert split_settled(ANSWER[:outer_close]) == outer_close
    assert split_settled("~~~~\n~~~\nx\n") == 0  # tildes: the same rule
    assert split_settled("```\nx\n````\n") == len("```\nx\n````\n")  # longer closes


def test_streamed_nested_fences_print_as_one_code_block() -> None:
    out, buf = renderer()
    cut = ANSWER.index("# Not a heading")
    for i in range(0, cut, 5):
        out.render(TextDelta(ANSWER[i:min(i + 5, cut)]))
    assert buf.getvalue().splitlines() == ["Put this in the README:"]  # the block is still open
    for i in range(cut, len(ANSWER), 5):
        out.render(TextDelta(ANSWER[i:i + 5]))
    out.render(TurnEnd("end_turn", 1))
    whole = io.StringIO()
    emit(make_console(load_theme(None)[0].rich_theme(), whole, width=80), PlainMarkdown(
        ANSWER[ANSWER.index("````markdown"):ANSWER.index("\n\nDone")]))
    lines = buf.getvalue().splitlines()
    assert lines[2:-2] == whole.getvalue().splitlines()
    assert "# Not a heading" in buf.getvalue() and "```sh" in buf.getvalue()
    assert lines[-1] == "Done."
