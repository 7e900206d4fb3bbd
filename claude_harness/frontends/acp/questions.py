"""AskUserQuestion over ACP: the protocol has no question form, so each question is put as a
`session/request_permission` whose options are the question's choices (plus "none of these"),
shown on the AskUserQuestion tool call. The labels picked go back as the AnswerQuestions op;
"none of these" or a cancelled request declines, and the model is told so."""

from __future__ import annotations

from typing import Any

from acp.schema import AllowedOutcome, PermissionOption, ToolCallUpdate

from claude_harness.frontends.acp import tool_calls
from claude_harness.protocol import ops
from claude_harness.protocol.events import QuestionsAsked

DECLINE = "decline"


def question_request(question: dict[str, Any], tool_call_id: str) -> tuple[ToolCallUpdate,
                                                                             list[PermissionOption]]:
    """The tool call to show and the options to offer for one question."""
    choices = [o for o in question.get("options") or [] if isinstance(o, dict)]
    options = [PermissionOption(option_id=f"choice-{i}", name=str(o.get("label")),
                                kind="allow_once") for i, o in enumerate(choices)]
    options.append(PermissionOption(option_id=DECLINE, name="None of these",
                                    kind="reject_once"))
    lines = [str(question.get("question") or "")]
    lines += [f"- {o.get('label')}: {o.get('description')}" if o.get("description")
              else f"- {o.get('label')}" for o in choices]
    call = ToolCallUpdate(tool_call_id=tool_call_id, status="pending", kind="other",
                          title=str(question.get("header") or question.get("question") or
                                    "A question"),
                          content=[tool_calls.text_content("\n".join(lines))])
    return call, options


def picked_label(question: dict[str, Any], response: Any) -> str | None:
    """The label chosen, or None (declined, cancelled)."""
    outcome = getattr(response, "outcome", None)
    if not isinstance(outcome, AllowedOutcome) or outcome.option_id == DECLINE:
        return None
    choices = [o for o in question.get("options") or [] if isinstance(o, dict)]
    index = int(outcome.option_id.removeprefix("choice-")) if outcome.option_id.startswith(
        "choice-") and outcome.option_id[7:].isdigit() else -1
    return str(choices[index].get("label")) if 0 <= index < len(choices) else None


async def ask_questions(client: Any, session_id: str, event: QuestionsAsked,
                        tool_call_id: str) -> ops.AnswerQuestions:
    """Ask every question in turn; the op that answers them (declined at the first refusal)."""
    answers: dict[str, str] = {}
    for question in event.questions:
        call, options = question_request(question, tool_call_id)
        response = await client.request_permission(session_id=session_id, tool_call=call,
                                                   options=options)
        label = picked_label(question, response)
        if label is None:
            return ops.AnswerQuestions(event.request_id, declined=True)
        answers[str(question.get("question"))] = label
    return ops.AnswerQuestions(event.request_id, answers=answers)
