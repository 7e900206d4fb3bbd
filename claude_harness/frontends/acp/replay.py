"""A loaded conversation, replayed to the client as `session/update`s (`session/load`): the
user's words, the answers and thinking, and each tool call with its outcome, in order.

What the session added to a prompt for the model (system reminders, attached files) is not
the user's words and is left out, as are the tool results' own user messages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from acp import (
    start_tool_call,
    update_agent_message_text,
    update_agent_thought_text,
    update_tool_call,
    update_user_message_text,
)

from claude_harness.frontends.acp import tool_calls


def replay_updates(messages: list[dict[str, Any]]) -> Iterator[Any]:
    """The updates that draw `messages` (API shape) again."""
    names: dict[str, str] = {}
    for message in messages:
        if message.get("isSidechain"):
            continue
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        if message.get("role") == "user":
            yield from _user(blocks, names)
        else:
            yield from _assistant(blocks, names)


def _user(blocks: list[dict[str, Any]], names: dict[str, str]) -> Iterator[Any]:
    for block in blocks:
        if block.get("type") == "tool_result":
            tool_id = str(block.get("tool_use_id"))
            failed = bool(block.get("is_error"))
            yield update_tool_call(
                tool_id, status="failed" if failed else "completed",
                content=tool_calls.result_content(names.get(tool_id, ""),
                                                  block.get("content") or "", failed))
        elif block.get("type") == "text" and not _added_by_us(str(block.get("text") or "")):
            yield update_user_message_text(str(block["text"]))


def _assistant(blocks: list[dict[str, Any]], names: dict[str, str]) -> Iterator[Any]:
    for block in blocks:
        kind = block.get("type")
        if kind == "text" and block.get("text"):
            yield update_agent_message_text(str(block["text"]))
        elif kind == "thinking" and block.get("thinking"):
            yield update_agent_thought_text(str(block["thinking"]))
        elif kind == "tool_use":
            name, tool_input = str(block.get("name")), block.get("input") or {}
            names[str(block.get("id"))] = name
            yield start_tool_call(
                str(block.get("id")), tool_calls.title(name, tool_input),
                kind=tool_calls.kind(name), status="pending",  # type: ignore[arg-type]
                content=tool_calls.start_content(name, tool_input) or None,
                locations=tool_calls.locations(name, tool_input) or None, raw_input=tool_input)


def _added_by_us(text: str) -> bool:
    stripped = text.lstrip()
    return stripped.startswith(("<system-reminder>", "<command-name>", "<local-command",
                                "Caveat: "))
