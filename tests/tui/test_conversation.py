"""The conversation container in a small host app: old blocks move into the archive (one widget,
drawn line by line), nothing becomes unreachable, and a 2,000-message session resumes with its
tail mounted and the rest drawn as the reader scrolls up."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from claude_harness.frontends.tui.router import history_widgets
from claude_harness.frontends.tui.widgets.assistant_text import AssistantTextView
from claude_harness.frontends.tui.widgets.conversation import Conversation, split_turns
from claude_harness.frontends.tui.widgets.notice import NoticeView
from claude_harness.frontends.tui.widgets.tool_call import ToolCallView
from claude_harness.frontends.tui.widgets.user_prompt import UserPromptView
from tests.tui.helpers import wait_for

ANSWER = "An answer with `code` and a list:\n\n- one\n- two\n"


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Conversation(id="conversation")

    @property
    def conversation(self) -> Conversation:
        return self.query_one(Conversation)


def screen_lines(app: App[Any]) -> list[str]:
    """What the terminal shows, line by line (the compositor's own full render)."""
    update = app.screen._compositor.render_full_update()
    return ["".join(strip.text for strip in line) for line in update.strips]


def text_area(app: App[Any]) -> list[str]:
    """The screen without the scrollbar column (its thumb moves when content is added)."""
    return [line[:-2].rstrip() for line in screen_lines(app)]


def archive_text(conversation: Conversation) -> str:
    return "\n".join(s.text for s in conversation.archive._lines_at(conversation.archive.size.width))


def session(turns: int) -> list[dict[str, Any]]:
    """A stored session: each turn a prompt, a tool call and its result, and an answer."""
    messages: list[dict[str, Any]] = []
    for n in range(turns):
        messages += [
            {"role": "user", "content": f"question {n}"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": f"t{n}", "name": "Read",
                 "input": {"file_path": f"/src/file{n}.py"}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": f"t{n}", "content": f"contents {n}"}]},
            {"role": "assistant", "content": [{"type": "text", "text": f"answer **{n}**"}]},
        ]
    return messages


async def test_old_blocks_move_into_the_archive_and_stay_readable() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        conversation = app.conversation
        for n in range(60):
            await conversation.add(UserPromptView(f"question {n}"), AssistantTextView(ANSWER))
        await pilot.pause()
        assert len(conversation.blocks()) <= conversation.high_mark
        assert conversation.block_count == 120  # nothing was dropped
        assert len(conversation.query(AssistantTextView)) <= conversation.live_blocks + 3
        assert "› question 59" in "\n".join(screen_lines(app))  # following the bottom
        archived = archive_text(conversation)
        assert "› question 0" in archived and "• one" in archived
        conversation.scroll_home(animate=False)
        await pilot.pause()
        assert any("question 0" in line for line in screen_lines(app))


async def test_an_archived_block_looks_as_it_did(tmp_path: Any) -> None:
    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        conversation = app.conversation
        prompt = UserPromptView("a prompt that is long enough to wrap across two lines here")
        notice = NoticeView("a boxed notice", boxed=True)
        await conversation.add(prompt, notice)
        await pilot.pause()
        live = [line.rstrip() for line in screen_lines(app) if line.strip()]
        conversation.high_mark = conversation.low_mark = 0
        await conversation.add()  # archive everything
        await pilot.pause()
        assert not conversation.blocks() and conversation.archive.entry_count == 2
        archived = [line.rstrip() for line in screen_lines(app) if line.strip()]
        assert archived == live
        styles = {seg.style.bgcolor for strip in conversation.archive._lines_at(
            conversation.archive.size.width)[:3] for seg in strip if seg.text.strip()}
        assert any(color is not None for color in styles)  # the prompt's $boost background


async def test_a_running_tool_call_and_a_reader_scrolled_up_keep_blocks_live() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        conversation = app.conversation
        running = ToolCallView("t1", "Bash", {"command": "sleep 100"})
        await conversation.add(running)
        for n in range(40):
            await conversation.add(NoticeView(f"note {n}"))
        assert running in conversation.blocks() and conversation.archive.entry_count == 0
        running.finish("done", False)
        await conversation.add(NoticeView("after"))
        assert running not in conversation.blocks() and conversation.archive.entry_count > 0
        conversation.scroll_home(animate=False)
        await pilot.pause()
        before = conversation.archive.entry_count
        for n in range(40):
            await conversation.add(NoticeView(f"more {n}"))
        assert conversation.archive.entry_count == before  # what the reader sees stays put


async def test_resuming_2000_messages_mounts_only_the_tail() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        conversation = app.conversation
        await conversation.load_history(session(500), history_widgets)  # 2,000 messages
        await pilot.pause()
        screen = "\n".join(screen_lines(app))
        assert "answer 499" in screen and "› question 499" in screen
        assert len(conversation.blocks()) <= conversation.high_mark
        assert len(conversation.archive.pending) > 400  # most turns are not drawn yet


async def test_scrolling_up_a_resumed_session_reaches_its_first_turn() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        conversation = app.conversation
        await conversation.load_history(session(60), history_widgets)
        for _ in range(60):  # scroll up until the very first turn is on screen
            conversation.scroll_home(animate=False)
            await pilot.pause()
            if any("› question 0" in line for line in screen_lines(app)):
                break
        assert not conversation.archive.pending
        assert any("› question 0" in line for line in screen_lines(app))
        assert "Read(/src/file0.py)" in archive_text(conversation)
        assert conversation.block_count == 60 * 3  # prompt, tool call, answer per turn


async def test_loading_older_turns_keeps_the_view_still() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        conversation = app.conversation
        await conversation.load_history(session(200), history_widgets)
        await wait_for(pilot, lambda: conversation.archive.entry_count > 0
                       and not conversation.loading_older, what="a first batch")
        # laid out: scrolling to a row below the bottom would end at the bottom (and anchor)
        await wait_for(pilot, lambda: conversation.max_scroll_y > conversation.size.height + 5,
                       what="the first batch laid out")
        conversation.scroll_to(y=conversation.size.height + 2, animate=False)
        await pilot.pause()
        top = text_area(app)
        assert "question" in "".join(top)
        pending = len(conversation.archive.pending)
        conversation.scroll_to(y=conversation.size.height - 1, animate=False)  # near the top
        await wait_for(pilot, lambda: len(conversation.archive.pending) < pending
                       and not conversation.loading_older, what="older turns, in place")
        await pilot.pause()
        conversation.scroll_to(y=conversation.scroll_y + 3, animate=False)
        await pilot.pause()
        assert text_area(app) == top


async def test_a_new_width_redraws_the_archive() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        conversation = app.conversation
        text = "word " * 40
        for _ in range(30):
            await conversation.add(UserPromptView(text))
        await pilot.pause()
        wide = conversation.archive.line_count
        await pilot.resize_terminal(50, 30)
        await pilot.pause()
        assert conversation.archive.line_count > wide
        assert all(len(s.text) <= 50 for s in conversation.archive._lines_at(
            conversation.archive.size.width))


def test_turns_keep_tool_calls_with_their_results() -> None:
    turns = split_turns(session(3))
    assert [len(t) for t in turns] == [4, 4, 4]
    assert all(t[0]["role"] == "user" and isinstance(t[0]["content"], str) for t in turns)
