"""Conversation history in the Messages API's own shape, and the rules for sending it back.

History is a list of `{"role": ..., "content": [blocks]}` dicts, exactly what the API takes, so
the transcript on disk, the request and the resume path share one representation.
`normalize_for_api()` is the single place that makes a history acceptable to the API: it merges
consecutive messages of one role, drops empty text blocks, strips our private keys, and gives
every tool_use an answer.
"""

from __future__ import annotations

import copy
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


def _clean_block(block: Block) -> Block | None:
    kind = block.get("type")
    if kind == "text" and not str(block.get("text", "")).strip():
        return None
    return {k: v for k, v in block.items() if not k.startswith("_")}


def _answered_ids(message: Message) -> set[str]:
    return {
        b["tool_use_id"]
        for b in message.get("content", [])
        if isinstance(b, dict) and b.get("type") == "tool_result"
    }


def _system_message(message: Message) -> Message:
    """A `role: system` message in the conversation (Claude Code sends them for output-style
    changes and background-task notices): text blocks only, sent as they are."""
    content = message.get("content")
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else [
        {"type": "text", "text": str(b.get("text", ""))} for b in content or []
        if isinstance(b, dict) and b.get("type") == "text" and str(b.get("text", "")).strip()]
    return {"role": "system", "content": blocks}


def normalize_for_api(messages: list[Message]) -> list[Message]:
    """Return a copy of `messages` that satisfies the Messages API's structural rules."""
    merged: list[Message] = []
    for msg in messages:
        if msg.get("role") == "system" and not msg.get("isSidechain"):
            note = _system_message(msg)  # a mid-conversation note (style, a task that ended)
            if note["content"]:
                merged.append(note)
            continue
        if msg.get("isSidechain") or msg.get("role") not in ("user", "assistant"):
            continue  # sub-agent transcripts and attachments live in the transcript only
        content = msg.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        blocks = [c for c in (_clean_block(b) for b in content or []) if c is not None]
        if not blocks:
            continue
        if merged and merged[-1]["role"] == msg["role"]:
            merged[-1]["content"].extend(blocks)
        else:
            merged.append({"role": msg["role"], "content": blocks})
    while merged and merged[0]["role"] != "user":
        merged.pop(0)
    out: list[Message] = []
    for i, msg in enumerate(merged):
        if msg["role"] == "user":
            msg["content"].sort(key=lambda b: 0 if b.get("type") == "tool_result" else 1)
        out.append(msg)
        uses = tool_uses(msg)
        if not uses:
            continue
        nxt = merged[i + 1] if i + 1 < len(merged) else None
        answered = _answered_ids(nxt) if nxt and nxt["role"] == "user" else set()
        missing = [
            tool_result_block(u["id"], CANCELLED_MESSAGE, True)
            for u in uses
            if u["id"] not in answered
        ]
        if missing and nxt is not None and nxt["role"] == "user":
            nxt["content"][:0] = missing
        elif missing:
            out.append({"role": "user", "content": missing})
    # A tool_result must answer the assistant message right before it.
    for i, msg in enumerate(out):
        if msg["role"] != "user":
            continue
        prev_ids = {u["id"] for u in tool_uses(out[i - 1])} if i > 0 else set()
        msg["content"] = [
            b
            for b in msg["content"]
            if b.get("type") != "tool_result" or b.get("tool_use_id") in prev_ids
        ] or [{"type": "text", "text": "(no content)"}]
    return out


def with_cache_breakpoint(messages: list[Message]) -> list[Message]:
    """Mark the last block of the last message as a cache breakpoint (without touching history)."""
    if not messages:
        return messages
    last = copy.copy(messages[-1])
    blocks = list(last["content"])
    if blocks:
        tail = dict(blocks[-1])
        if tail.get("type") not in ("thinking", "redacted_thinking"):
            tail["cache_control"] = {"type": "ephemeral"}
            blocks[-1] = tail
    last["content"] = blocks
    return [*messages[:-1], last]


def last_prompt_text(messages: list[Message]) -> str:
    """The text of the latest message the user typed (not tool results, reminders or meta
    messages the harness added)."""
    for message in reversed(messages):
        if message.get("role") != "user" or message.get("isSidechain") or message.get("isMeta"):
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        blocks = [b for b in content or [] if isinstance(b, dict)]
        if any(b.get("type") == "tool_result" for b in blocks):
            continue
        texts = [b.get("text", "") for b in blocks if b.get("type") == "text"
                 and not b.get("text", "").startswith("<system-reminder>")]
        if texts:
            return "\n".join(texts)
    return ""


def final_text(message: Message) -> str:
    return "".join(
        b.get("text", "") for b in message.get("content", []) if b.get("type") == "text"
    )
