"""/btw: a side question answered with the conversation as context, kept out of it.

The request is the session's own (its system prompt, tools and history) with the question as
one more user message, sent as a side request: neither the question nor the answer is added to
`session.messages` or the transcript, so the next turn's request is exactly what it would have
been. Its cost counts in the totals, like other side requests."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from claude_harness.agent.api_history import normalize_for_api
from claude_harness.agent.loop import build_request, side_usage_events
from claude_harness.agent.side_query import side_query
from claude_harness.api.errors import ApiError
from claude_harness.protocol.events import Notice, Report

if TYPE_CHECKING:
    from claude_harness.session.services.slash_commands import SlashServices

BTW_FRAME = ("A quick side question from the user, answered on the side of the conversation "
             "(it will not be kept in it). Answer briefly from what you already know of this "
             "conversation and code, without using tools.\n\n{question}")


def side_request(services: SlashServices, question: str) -> dict[str, Any]:
    base = build_request(services.params(), [])
    asked = {"role": "user", "content": [{"type": "text",
                                          "text": BTW_FRAME.format(question=question)}]}
    base.pop("tool_choice", None)
    return {**base, "messages": normalize_for_api([*settled(services.messages), asked])}


def settled(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The history without a last assistant message whose tool calls have no results yet (a
    turn is running): the API refuses calls without results."""
    history = list(messages)
    while history and history[-1].get("role") == "assistant" and any(
            isinstance(b, dict) and b.get("type") == "tool_use"
            for b in history[-1].get("content") or []):
        history.pop()
    return history


async def answer_side_question(services: SlashServices, question: str) -> None:
    """Ask, then show the answer as a Report; a failure is a notice (the turn is untouched)."""
    try:
        result = await side_query(services.api, side_request(services, question), purpose="btw")
    except ApiError as exc:
        services.emit(Notice(f"/btw failed: {exc.message}", "error"))
        return
    finally:
        for event in side_usage_events(services.api):
            services.apply(event)
            services.emit(event)
    text = result.text.strip()
    services.emit(Report("btw", (f"/btw {question}", *(text or "(no answer)").splitlines())))
