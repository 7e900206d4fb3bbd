"""AskUserQuestion: Claude Code's schema, the REPL's numbered prompt answering through the real
pipeline, and the headless paths (denied, answered by a client, nobody to ask)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from claude_harness.frontends.plain.ask import PlainQuestionAsker, parse_answer, question_lines
from claude_harness.protocol.context import ToolUseContext, ToolUseOptions
from claude_harness.protocol.events import DenialRecorded
from claude_harness.protocol.permission_data import PermissionContext
from claude_harness.protocol.questions import Question
from claude_harness.tools.ask_user_question import NOBODY_TO_ASK, TOOL
from claude_harness.tools.pipeline import check_permissions_and_call_tool
from tests.tools.conftest import make_ctx

LIBRARY = {"question": "Which date library should we use?", "header": "Library",
           "multiSelect": False,
           "options": [{"label": "dayjs (Recommended)", "description": "Small, moment-like API"},
                       {"label": "luxon", "description": "Time zones built in"}]}
FEATURES = {"question": "Which features do you want to enable?", "header": "Features",
            "multiSelect": True,
            "options": [{"label": "Caching", "description": "Faster repeat loads"},
                        {"label": "Metrics", "description": "Prometheus endpoint"},
                        {"label": "Tracing", "description": "OpenTelemetry spans"}]}


class ScriptedLines:
    """What a person types at the REPL, one line per call; None is Esc."""

    def __init__(self, lines: Iterable[str | None]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []
        self.printed: list[str] = []

    async def read_line(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        return self.lines.pop(0)

    def asker(self) -> PlainQuestionAsker:
        return PlainQuestionAsker(self.read_line, self.printed.append)


def ctx_with(tmp_path: Path, asker: Any = None, *, mode: str = "default",
             interactive: bool = True) -> ToolUseContext:
    base = make_ctx(tmp_path)
    ctx = replace(base, options=ToolUseOptions(tools=(TOOL,), session_dir=tmp_path),
                  permission=PermissionContext(mode=mode, cwd=tmp_path,  # type: ignore[arg-type]
                                               interactive=interactive))
    return replace(ctx, questions=asker) if asker is not None else ctx


async def run(ctx: ToolUseContext, inp: dict[str, Any], events: list[Any] | None = None) -> Any:
    emit = events.append if events is not None else (lambda _: None)
    return await check_permissions_and_call_tool(
        {"id": "toolu_ask", "name": "AskUserQuestion", "input": inp}, ctx, emit)


def test_the_schema_is_claude_codes() -> None:
    schema = TOOL.input_schema()
    assert schema["required"] == ["questions"] and schema["additionalProperties"] is False
    assert set(schema["properties"]) == {"questions", "answers", "annotations", "metadata"}
    questions = schema["properties"]["questions"]
    assert (questions["minItems"], questions["maxItems"]) == (1, 4)
    item = questions["items"]
    assert item["required"] == ["question", "header", "options", "multiSelect"]
    assert item["properties"]["multiSelect"]["default"] is False
    options = item["properties"]["options"]
    assert (options["minItems"], options["maxItems"]) == (2, 4)
    assert options["items"]["required"] == ["label", "description"]
    assert set(options["items"]["properties"]) == {"label", "description", "preview"}
    assert "$defs" not in str(schema) and "$ref" not in str(schema)


async def test_answers_typed_at_the_repl_reach_the_model(tmp_path: Path) -> None:
    person = ScriptedLines(["1", "1, 3"])
    outcome = await run(ctx_with(tmp_path, person.asker()), {"questions": [LIBRARY, FEATURES]})
    assert not outcome.is_error, outcome.content
    assert outcome.content == (
        'The user answered your questions: "Which date library should we use?"="dayjs '
        '(Recommended)", "Which features do you want to enable?"="Caching, Tracing". Continue '
        "with these answers in mind.")
    assert "[Library] Which date library should we use?  (1/2)" in person.printed
    assert "  3. Other (type your own answer)" in person.printed


async def test_other_takes_the_persons_own_words(tmp_path: Path) -> None:
    person = ScriptedLines(["3", "date-fns, we already ship it"])
    outcome = await run(ctx_with(tmp_path, person.asker()), {"questions": [LIBRARY]})
    assert '="date-fns, we already ship it"' in outcome.content
    assert person.prompts == ["› ", "Your answer: "]
    typed = ScriptedLines(["whatever is smallest"])  # words straight away are "Other" too
    outcome = await run(ctx_with(tmp_path, typed.asker()), {"questions": [LIBRARY]})
    assert '="whatever is smallest"' in outcome.content


async def test_a_bad_answer_is_asked_again_and_esc_declines(tmp_path: Path) -> None:
    person = ScriptedLines(["7", "1,2", "2"])  # out of range; two answers to a single choice
    outcome = await run(ctx_with(tmp_path, person.asker()), {"questions": [LIBRARY]})
    assert '="luxon"' in outcome.content
    assert sum("Please type a number from 1 to 3" in line for line in person.printed) == 2
    gone = ScriptedLines([None])
    outcome = await run(ctx_with(tmp_path, gone.asker()), {"questions": [LIBRARY]})
    assert outcome.is_error and "closed the questions without answering" in outcome.content


async def test_bypass_mode_still_asks_the_person(tmp_path: Path) -> None:
    person = ScriptedLines(["2"])
    ctx = ctx_with(tmp_path, person.asker(), mode="bypassPermissions")
    outcome = await run(ctx, {"questions": [LIBRARY],
                              "answers": {LIBRARY["question"]: "made up by the model"}})
    assert '="luxon"' in outcome.content and "made up" not in outcome.content
    assert person.prompts == ["› "]


async def test_headless_without_a_client_is_denied_and_listed(tmp_path: Path) -> None:
    ctx = ctx_with(tmp_path, interactive=False)
    events: list[Any] = []
    outcome = await run(ctx, {"questions": [LIBRARY]}, events)
    assert outcome.is_error and "not granted" in outcome.content
    assert [e.tool_name for e in events if isinstance(e, DenialRecorded)] == ["AskUserQuestion"]


async def test_headless_in_bypass_mode_says_nobody_can_answer(tmp_path: Path) -> None:
    ctx = ctx_with(tmp_path, mode="bypassPermissions", interactive=False)
    outcome = await run(ctx, {"questions": [LIBRARY]})
    assert outcome.is_error and NOBODY_TO_ASK in outcome.content


async def test_answers_supplied_by_a_client_are_used_when_nobody_is_here(tmp_path: Path) -> None:
    """An SDK client answers through its permission callback: `answers` in the updated input."""
    ctx = ctx_with(tmp_path, mode="bypassPermissions", interactive=False)
    outcome = await run(ctx, {"questions": [LIBRARY, FEATURES],
                              "answers": {LIBRARY["question"]: "luxon",
                                          FEATURES["question"]: "Metrics"},
                              "annotations": {FEATURES["question"]: {"notes": "only in prod"}}})
    assert not outcome.is_error
    assert '="luxon"' in outcome.content
    assert '="Metrics" (user notes: only in prod)' in outcome.content


@pytest.mark.parametrize(("inp", "needle"), [
    ({"questions": []}, "at least 1"),
    ({"questions": [LIBRARY] * 2}, "must be different"),
    ({"questions": [{**LIBRARY, "options": LIBRARY["options"][:1]}]}, "at least 2"),
    ({"questions": [{**LIBRARY, "options": [LIBRARY["options"][0]] * 2}]}, "different labels"),
])
async def test_malformed_questions_are_refused(tmp_path: Path, inp: dict[str, Any],
                                               needle: str) -> None:
    outcome = await run(ctx_with(tmp_path, ScriptedLines([]).asker()), inp)
    assert outcome.is_error and needle in outcome.content


def test_parse_answer_rules() -> None:
    single, multi = Question.model_validate(LIBRARY), Question.model_validate(FEATURES)
    assert parse_answer("2", single) == "luxon"
    assert parse_answer(" 3 1 ", multi) == "Tracing, Caching"
    assert parse_answer("1,1", multi) == "Caching"
    assert parse_answer("", single) is None and parse_answer("0", single) is None
    assert parse_answer("1,2", single) is None
    assert question_lines(multi, 0, 1)[-1].startswith("  Type numbers separated by commas")
