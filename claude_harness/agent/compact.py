"""Compaction: when the conversation nears the context window (or on /compact), the model
summarises it and the history is replaced by that summary plus the last user request, verbatim.

The summary request reuses the session's system prompt and tool list, so its prefix is the one
already cached. CLAUDE.md stays where it always is (the system prompt), so it survives compaction
word for word. A PreCompact hook may veto the compaction.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from claude_harness.agent.messages import final_text, normalize_for_api
from claude_harness.agent.stream import StreamAccumulator
from claude_harness.api.client import ApiClient
from claude_harness.api.errors import ApiError

SUMMARY_INSTRUCTIONS = """\
Your context is nearly full, so this conversation will be replaced by your summary of it. \
Write that summary now, as plain text, with these sections:
1. The user's requests and intent, in order, quoting exact wording where it matters.
2. Key technical context: files, functions, commands, decisions and why they were made.
3. What was done: changes made (file paths), commands run and their outcomes, errors and fixes.
4. Open work: what remains, the next step, and anything the user asked to avoid.
Do not call tools. Be complete but concise."""

CONTINUATION = """\
This session continues an earlier conversation that ran out of context. Summary of the \
earlier conversation:

{summary}

The user's last request, verbatim:
{last_request}

Continue from where the work stopped, without asking the user to repeat anything."""


@dataclass(frozen=True)
class CompactionResult:
    summary: str
    messages: list[dict[str, Any]]
    pre_tokens: int
    usage: dict[str, int]


def last_user_request(messages: list[dict[str, Any]]) -> str:
    """The text of the latest message the user typed (not a tool-results message)."""
    for message in reversed(messages):
        if message.get("role") != "user" or message.get("isSidechain"):
            continue
        texts = [b.get("text", "") for b in message.get("content") or []
                 if isinstance(b, dict) and b.get("type") == "text"
                 and not b.get("text", "").startswith("<system-reminder>")]
        if texts and not any(b.get("type") == "tool_result" for b in message["content"]):
            return "\n".join(texts)
    return ""


def summary_request(request_base: dict[str, Any], messages: list[dict[str, Any]],
                    instructions: str) -> dict[str, Any]:
    ask = SUMMARY_INSTRUCTIONS + (f"\n\nAdditional instructions: {instructions}"
                                  if instructions.strip() else "")
    history = normalize_for_api([*messages, {"role": "user", "content": [
        {"type": "text", "text": ask}]}])
    return {**request_base, "messages": history}


async def summarise(api: ApiClient, request: dict[str, Any], retries: int = 3) -> tuple[str, dict[str, int]]:
    """Run the summary request (streamed), retrying transient failures."""
    for attempt in range(1, retries + 2):
        acc = StreamAccumulator()
        try:
            async for event in api.stream_once(request):
                acc.feed(event)
            return final_text(acc.message()).strip(), acc.usage
        except ApiError as exc:
            if not exc.retryable or attempt > retries:
                raise
            await asyncio.sleep(api.backoff(attempt, exc.retry_after))
    raise AssertionError("unreachable")


async def compact_messages(
    api: ApiClient,
    request_base: dict[str, Any],
    messages: list[dict[str, Any]],
    *,
    instructions: str = "",
    pre_tokens: int = 0,
) -> CompactionResult:
    request = summary_request(request_base, messages, instructions)
    summary, usage = await summarise(api, request)
    if not summary:
        raise ApiError("Compaction failed: the model returned an empty summary.")
    text = CONTINUATION.format(summary=summary,
                               last_request=last_user_request(messages) or "(none)")
    new_history = [{"role": "user", "content": [{"type": "text", "text": text}]}]
    return CompactionResult(summary, new_history, pre_tokens, usage)
