"""Conversation history in the Messages API's own shape, and the rules for sending it back.

History is a list of `{"role": ..., "content": [blocks]}` dicts, exactly what the API takes, so
the transcript on disk, the request and the resume path share one representation.
`api_history.py` is the single place that makes a history acceptable to the API (merging
consecutive messages of one role, dropping empty text blocks and our private keys, giving every
tool_use an answer), a turn at a time.
"""

from __future__ import annotations

from typing import Any

from claude_harness.protocol.messages import CANCELLED_MESSAGE, INTERRUPTED_MESSAGE

__all__ = ["CANCELLED_MESSAGE", "INTERRUPTED_MESSAGE"]

Message = dict[str, Any]
Block = dict[str, Any]


def user_text(text: str) -> Message:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def tool_result_block(tool_use_id: str, content: str | list[Block], is_error: bool) -> Block:
    block: Block = {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}
    if is_error:
        block["is_error"] = True
    return block


def tool_uses(message: Message) -> list[Block]:
    if message.get("role") != "assistant":
        return []
    return [b for b in message.get("content", []) if b.get("type") == "tool_use"]


def has_tool_results(message: Message) -> bool:
    """Does `message` carry tool_result blocks (a batch's answers, not a prompt)?"""
    content = message.get("content")
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") == "tool_result" for b in content)


def last_prompt_text(messages: list[Message]) -> str:
    """The text of the latest message the user typed (not tool results, reminders or meta
    messages the harness added)."""
    for message in reversed(messages):
        if message.get("role") != "user" or message.get("isSidechain") or message.get("isMeta"):
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        if has_tool_results(message):
            continue
        blocks = [b for b in content or [] if isinstance(b, dict)]
        texts = [b.get("text", "") for b in blocks if b.get("type") == "text"
                 and not b.get("text", "").startswith("<system-reminder>")]
        if texts:
            return "\n".join(texts)
    return ""


def final_text(message: Message) -> str:
    return "".join(
        b.get("text", "") for b in message.get("content", []) if b.get("type") == "text"
    )
