"""The AskUserQuestion widget in a small host app, answering a real AskUserQuestion call that
runs through the real tool pipeline (the app's ctx.questions is the widget's asker)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Vertical

from claude_harness.frontends.tui.widgets.ask_user_question import (
    AskUserQuestionPrompt,
    WidgetQuestionAsker,
)
from claude_harness.protocol.context import ToolUseOptions
from claude_harness.tools.ask_user_question import TOOL
from claude_harness.tools.pipeline import check_permissions_and_call_tool
from tests.tools.conftest import make_ctx
from tests.tui.helpers import type_text, wait_for

LIBRARY = {"question": "Which date library should we use?", "header": "Library",
           "multiSelect": False,
           "options": [{"label": "dayjs", "description": "Small", "preview": "import dayjs"},
                       {"label": "luxon", "description": "Time zones"}]}
FEATURES = {"question": "Which features do you want?", "header": "Features", "multiSelect": True,
            "options": [{"label": "Caching", "description": "Faster"},
                        {"label": "Metrics", "description": "Prometheus"},
                        {"label": "Tracing", "description": "Spans"}]}


class Host(App[None]):
    """Stands in for the app: an input area where the prompt is shown, and one tool call."""

    def __init__(self, tmp_path: Path, questions: list[dict[str, Any]]) -> None:
        super().__init__()
        self.tmp_path = tmp_path
        self.questions = questions
        self.outcome: Any = None
        self.messages: list[AskUserQuestionPrompt.Answered] = []

    def compose(self) -> ComposeResult:
        yield Vertical(id="input-area")

    async def show(self, prompt: AskUserQuestionPrompt) -> None:
        await self.query_one("#input-area").mount(prompt)

    def on_mount(self) -> None:
        self.run_worker(self.ask())

    async def ask(self) -> None:
        ctx = replace(make_ctx(self.tmp_path), options=ToolUseOptions(tools=(TOOL,)),
                      questions=WidgetQuestionAsker(self.show))
        self.outcome = await check_permissions_and_call_tool(
            {"id": "t1", "name": "AskUserQuestion", "input": {"questions": self.questions}},
            ctx, lambda _: None)

    def on_ask_user_question_prompt_answered(self, message: AskUserQuestionPrompt.Answered
                                             ) -> None:
        self.messages.append(message)


async def test_numbers_and_toggles_answer_both_questions(tmp_path: Path) -> None:
    app = Host(tmp_path, [LIBRARY, FEATURES])
    async with app.run_test() as pilot:
        prompt = await wait_for(pilot, lambda: app.query(AskUserQuestionPrompt).first(None),
                                what="the questions")
        assert "Which date library" in str(prompt._question.render())
        assert "import dayjs" in str(prompt._preview.render())  # the focused option's preview
        await pilot.press("2")
        await wait_for(pilot, lambda: prompt.index == 1, what="the second question")
        await pilot.press("1", "down", "down", "space", "enter")
        await wait_for(pilot, lambda: app.outcome is not None, what="the tool result")
        assert not app.query(AskUserQuestionPrompt)  # removed once answered
    assert not app.outcome.is_error
    assert '"Which date library should we use?"="luxon"' in app.outcome.content
    assert '"Which features do you want?"="Caching, Tracing"' in app.outcome.content
    assert len(app.messages) == 1 and not app.messages[0].answers.declined


async def test_typing_words_answers_with_other(tmp_path: Path) -> None:
    app = Host(tmp_path, [LIBRARY])
    async with app.run_test() as pilot:
        prompt = await wait_for(pilot, lambda: app.query(AskUserQuestionPrompt).first(None),
                                what="the questions")
        await type_text(pilot, "date fns")
        assert prompt.selected == prompt.other_row and prompt._other.value == "date fns"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.outcome is not None, what="the tool result")
    assert '="date fns"' in app.outcome.content


async def test_going_back_and_declining(tmp_path: Path) -> None:
    app = Host(tmp_path, [LIBRARY, FEATURES])
    async with app.run_test() as pilot:
        prompt = await wait_for(pilot, lambda: app.query(AskUserQuestionPrompt).first(None),
                                what="the questions")
        await pilot.press("enter")  # dayjs
        await wait_for(pilot, lambda: prompt.index == 1, what="the second question")
        await pilot.press("enter")  # nothing toggled: refused with a hint
        assert "at least one" in str(prompt._hint.render()) and prompt.index == 1
        await pilot.press("left")
        assert prompt.index == 0
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.outcome is not None, what="the tool result")
    assert app.outcome.is_error and "without answering" in app.outcome.content
    assert app.messages[0].answers.declined


async def test_the_asker_never_leaves_the_widget_behind_when_cancelled(tmp_path: Path) -> None:
    app = Host(tmp_path, [LIBRARY])
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.query(AskUserQuestionPrompt).first(None),
                       what="the questions")
        for worker in app.workers:
            worker.cancel()
        await wait_for(pilot, lambda: not app.query(AskUserQuestionPrompt), what="removal")
        await asyncio.sleep(0)
