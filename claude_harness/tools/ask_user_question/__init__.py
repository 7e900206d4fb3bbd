"""AskUserQuestion: the model asks the person 1-4 multiple-choice questions and waits.

The questions go through `ctx.questions`, which each front end implements (a widget in the app,
a numbered prompt in the REPL, a permission callback for SDK clients). When nobody can answer
(`-p` with no SDK client), the tool's own check asks for permission, so headless runs deny it
(and list it among the permission denials) unless a client's callback supplies `answers`; and if
the call goes ahead anyway (bypassPermissions) with no answers, it ends with an explicit "nobody
to ask" error. It is never answered automatically.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.permission_data import PermissionDecision
from claude_harness.protocol.questions import (
    INPUT_SCHEMA,
    Answers,
    AskUserQuestionInput,
    Question,
)
from claude_harness.protocol.tool import (
    VALID,
    Progress,
    ToolError,
    ToolPresentation,
    ToolResult,
    ValidationResult,
    build_tool,
    load_prompt,
)

NOBODY_TO_ASK = (
    "No one can answer questions in this session (it is not interactive). Do not ask again: "
    "choose the most reasonable option yourself, say which one you chose and why, and continue."
)
DECLINED = (
    "The user closed the questions without answering. Do not assume an answer: continue only "
    "with what does not depend on them, or ask in your reply what they would like instead."
)


@dataclass(frozen=True)
class AskResult:
    questions: tuple[Question, ...]
    answers: dict[str, str]
    annotations: dict[str, dict[str, str]]


def render_answers(result: Any) -> str:
    """The model's view: every question with its answer, in Claude Code's `"Q"="A"` pairs."""
    if not isinstance(result, AskResult):
        return str(result)
    pairs = []
    for question in result.questions:
        answer = result.answers.get(question.question, "(no answer)")
        pair = f'"{question.question}"="{answer}"'
        notes = result.annotations.get(question.question, {}).get("notes")
        if notes:
            pair += f" (user notes: {notes})"
        pairs.append(pair)
    return (f"The user answered your questions: {', '.join(pairs)}. Continue with these answers "
            "in mind.")


async def _validate(inp: AskUserQuestionInput, ctx: ToolUseContext) -> ValidationResult:
    texts = [q.question for q in inp.questions]
    if len(set(texts)) != len(texts):
        return ValidationResult.fail("Each question must be different (answers are keyed by "
                                     "the question text).")
    for question in inp.questions:
        labels = [o.label for o in question.options]
        if len(set(labels)) != len(labels):
            return ValidationResult.fail(
                f"The options of {question.question!r} must have different labels.")
    return VALID


async def _check(inp: AskUserQuestionInput, ctx: ToolUseContext) -> PermissionDecision:
    if ctx.questions.available:
        return PermissionDecision.allow("asking the user is the interaction itself",
                                        decided_by="tool")
    return PermissionDecision.ask("AskUserQuestion needs someone to answer its questions",
                                  decided_by="tool")


def _supplied(inp: AskUserQuestionInput) -> Answers:
    notes = {k: v.model_dump(exclude_none=True) for k, v in (inp.annotations or {}).items()}
    return Answers(dict(inp.answers or {}), notes)


async def _call(inp: AskUserQuestionInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    if ctx.questions.available:
        answers = await ctx.questions.ask(list(inp.questions))
    elif inp.answers:
        answers = _supplied(inp)  # a client answered through its permission callback
    else:
        raise ToolError(NOBODY_TO_ASK, code="no_answerer")
    if answers.declined:
        raise ToolError(DECLINED, code="declined")
    return ToolResult(data=AskResult(tuple(inp.questions), answers.answers, answers.annotations))


TOOL = build_tool(
    name="AskUserQuestion",
    needs_conversation=True,
    description=load_prompt(__file__),
    input_model=AskUserQuestionInput,
    json_schema=INPUT_SCHEMA,
    call=_call,
    validate_input=_validate,
    check_permissions=_check,
    is_read_only=lambda inp: True,
    key_argument=lambda inp: inp.questions[0].header if inp.questions else "",
    render_result=render_answers,
    search_hint="ask the user multiple-choice questions",
    presentation=ToolPresentation(asks_user=True),
)
