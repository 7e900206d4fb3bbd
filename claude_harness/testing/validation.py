"""Reject requests the real Messages API would answer with HTTP 400.

A mock that accepts anything hides the bugs the real API catches (orphan tool_results,
empty text blocks, mangled thinking signatures...). Each check returns a message that names
the broken rule, so a failing test points straight at the harness bug.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from claude_harness.testing.model_rules import ModelRuleBroken, check_model_params
from claude_harness.testing.script import genuine_redacted, signed_thinking

TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
MAX_CACHE_BREAKPOINTS = 4


class RequestInvalid(ValueError):
    """The request breaks a rule of the real API; str(exc) is the message sent back."""


@dataclass
class IssuedThinking:
    """What the server has sent that must come back unchanged: thinking blocks, server tool
    blocks, and a paused turn waiting to be continued."""

    by_signature: dict[str, str] = field(default_factory=dict)
    # tool_use id -> the thinking blocks (type, signature or data) sent in the same response
    by_tool_id: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # server_tool_use id / result tool_use_id -> the block as issued (compact JSON)
    server_blocks: dict[tuple[str, str], str] = field(default_factory=dict)
    paused: list[list[dict[str, Any]]] = field(default_factory=list)  # pause_turn contents
    redacted: set[str] = field(default_factory=set)  # redacted_thinking data issued verbatim

    def record(self, blocks: list[tuple[str, str]], tool_ids: list[str],
               marks: list[tuple[str, str]] | None = None) -> None:
        """Thinking (text, signature) pairs of a response and its tool ids; `marks` are its
        thinking and redacted_thinking blocks in order, as (type, signature or data)."""
        for text, signature in blocks:
            self.by_signature[signature] = text
        marks = marks if marks is not None else [("thinking", sig) for _, sig in blocks]
        if marks:
            for tool_id in tool_ids:
                self.by_tool_id[tool_id] = list(marks)

    def record_response(self, content: list[dict[str, Any]], stop_reason: str) -> None:
        for block in content:
            if block.get("type") == "redacted_thinking" and isinstance(block.get("data"), str):
                self.redacted.add(block["data"])
            key = _server_key(block)
            if key is not None:
                self.server_blocks[key] = _canonical(block)
        if stop_reason == "pause_turn" and content:
            self.paused.append(content)


def _server_key(block: Any) -> tuple[str, str] | None:
    if not isinstance(block, dict):
        return None
    kind = str(block.get("type", ""))
    if kind.endswith("_tool_use") and kind != "tool_use":  # server_tool_use, mcp_tool_use
        return (kind, str(block.get("id")))
    if kind.endswith("_tool_result") and kind != "tool_result" and "tool_use_id" in block:
        return (kind, str(block.get("tool_use_id")))
    return None


def _canonical(block: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in block.items() if k != "cache_control"}, sort_keys=True,
                      ensure_ascii=False)


def validate_request(body: Any, issued: IssuedThinking, headers: dict[str, str] | None = None,
                     *, strict_unknown_models: bool = False) -> None:
    """Raise RequestInvalid naming the first rule the request breaks."""
    if not isinstance(body, dict):
        raise RequestInvalid("request body must be a JSON object")
    _check_required(body)
    try:
        check_model_params(body, headers or {}, strict_unknown=strict_unknown_models)
    except ModelRuleBroken as exc:
        raise RequestInvalid(str(exc)) from exc
    messages = body["messages"]
    _check_tools(body.get("tools"))
    _check_system(body.get("system"))
    for i, message in enumerate(messages):
        _check_message_shape(i, message, final=i == len(messages) - 1)
    if messages[0]["role"] != "user":
        raise RequestInvalid("messages.0: the first message must use the `user` role")
    _check_tool_pairing(messages)
    _check_prefill(messages)
    _check_thinking(body, messages, issued)
    _check_server_blocks(messages, issued)
    _check_pause_continuation(messages, issued)
    count = count_cache_breakpoints(body)
    if count > MAX_CACHE_BREAKPOINTS:
        raise RequestInvalid(
            f"A maximum of {MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. "
            f"Found {count}.")


def _check_required(body: dict[str, Any]) -> None:
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise RequestInvalid("model: Field required")
    max_tokens = body.get("max_tokens")
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
        raise RequestInvalid("max_tokens: Field required (a positive integer)")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise RequestInvalid("messages: at least one message is required")


def _check_tools(tools: Any) -> None:
    if tools is None:
        return
    if not isinstance(tools, list):
        raise RequestInvalid("tools: must be a list")
    seen: set[str] = set()
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise RequestInvalid(f"tools.{i}: must be an object")
        name = tool.get("name")
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            raise RequestInvalid(
                f"tools.{i}.name: String should match pattern '^[a-zA-Z0-9_-]{{1,128}}$' "
                f"(got {name!r})")
        if name in seen:
            raise RequestInvalid(f"tools: Tool names must be unique (duplicate {name!r})")
        seen.add(name)
        if tool.get("type", "custom") == "custom":
            schema = tool.get("input_schema")
            if not isinstance(schema, dict) or schema.get("type") != "object":
                raise RequestInvalid(f"tools.{i}.input_schema.type: Input should be 'object'")


def _check_system(system: Any) -> None:
    if system is None or isinstance(system, str):
        return
    if not isinstance(system, list):
        raise RequestInvalid("system: must be a string or a list of text blocks")
    for i, block in enumerate(system):
        if not isinstance(block, dict) or block.get("type") != "text":
            raise RequestInvalid(f"system.{i}: must be a text block")
        _check_text(f"system.{i}", block)


def _check_text(where: str, block: dict[str, Any]) -> None:
    text = block.get("text")
    if not isinstance(text, str) or not text.strip():
        raise RequestInvalid(f"{where}: text content blocks must contain non-whitespace text")


def _check_message_shape(i: int, message: Any, final: bool) -> None:
    if not isinstance(message, dict) or message.get("role") not in ("user", "assistant", "system"):
        raise RequestInvalid(f"messages.{i}.role: must be 'user', 'assistant' or 'system'")
    content = message.get("content")
    if message["role"] == "system":  # mid-conversation system messages: text only
        _check_system(content if isinstance(content, list) else [{"type": "text", "text": content}])
        return
    if final and message["role"] == "assistant" and content in ("", []):
        return  # an empty final assistant message is the one allowed empty message
    if isinstance(content, str):
        if not content.strip():
            raise RequestInvalid(f"messages.{i}: text content blocks must contain non-whitespace text")
        return
    if not isinstance(content, list) or not content:
        raise RequestInvalid(
            f"messages.{i}: all messages must have non-empty content except for the optional "
            f"final assistant message")
    for n, block in enumerate(content):
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            raise RequestInvalid(f"messages.{i}.content.{n}: a content block must have a type")
        if block["type"] == "text":
            _check_text(f"messages.{i}.content.{n}", block)
        elif block["type"] == "tool_result" and isinstance(block.get("content"), list):
            for k, inner in enumerate(block["content"]):
                if isinstance(inner, dict) and inner.get("type") == "text":
                    _check_text(f"messages.{i}.content.{n}.content.{k}", inner)


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message["content"]
    return content if isinstance(content, list) else [{"type": "text", "text": content}]


def _check_tool_pairing(messages: list[dict[str, Any]]) -> None:
    for i, message in enumerate(messages):
        blocks = _blocks(message)
        if message["role"] == "system":
            continue
        if message["role"] == "assistant":
            if any(b["type"] == "tool_result" for b in blocks):
                raise RequestInvalid(f"messages.{i}: tool_result blocks are only allowed in user messages")
            continue
        result_ids = [b.get("tool_use_id") for b in blocks if b["type"] == "tool_result"]
        if not result_ids:
            continue
        first_other = next((n for n, b in enumerate(blocks) if b["type"] != "tool_result"),
                           len(blocks))
        if any(b["type"] == "tool_result" for b in blocks[first_other:]):
            raise RequestInvalid(
                f"messages.{i}: tool_result blocks must come first in the user message, "
                f"before any other content")
        previous = messages[i - 1] if i > 0 else None
        used = ([b.get("id") for b in _blocks(previous) if b["type"] == "tool_use"]
                if previous is not None and previous["role"] == "assistant" else [])
        dupes = sorted({x for x in result_ids if result_ids.count(x) > 1}, key=str)
        if dupes:
            raise RequestInvalid(
                f"messages.{i}: each tool_use id must be answered exactly once; duplicate "
                f"tool_result for {', '.join(map(str, dupes))}")
        unexpected = [x for x in result_ids if x not in used]
        if unexpected:
            raise RequestInvalid(
                f"messages.{i}: unexpected `tool_use_id` found in `tool_result` blocks: "
                f"{', '.join(map(str, unexpected))}. Each `tool_result` block must have a "
                f"corresponding `tool_use` block in the previous message.")
    for i, message in enumerate(messages):
        if message["role"] != "assistant":
            continue
        used = [b.get("id") for b in _blocks(message) if b["type"] == "tool_use"]
        if not used:
            continue
        following = messages[i + 1] if i + 1 < len(messages) else None
        answered = ([b.get("tool_use_id") for b in _blocks(following) if b["type"] == "tool_result"]
                    if following is not None and following["role"] == "user" else [])
        missing = [x for x in used if x not in answered]
        if missing:
            raise RequestInvalid(
                f"messages.{i + 1}: `tool_use` ids were found without `tool_result` blocks "
                f"immediately after: {', '.join(map(str, missing))}. Each `tool_use` block must "
                f"have a corresponding `tool_result` block in the next message.")


def _check_prefill(messages: list[dict[str, Any]]) -> None:
    last = messages[-1]
    if last["role"] != "assistant":
        return
    blocks = _blocks(last)
    tail = blocks[-1] if blocks else {"type": "none"}
    if tail["type"] == "text" and tail["text"] != tail["text"].rstrip():
        raise RequestInvalid(
            f"messages.{len(messages) - 1}: final assistant content cannot end with trailing "
            f"whitespace")


def _check_thinking(body: dict[str, Any], messages: list[dict[str, Any]],
                    issued: IssuedThinking) -> None:
    """Thinking blocks must come back byte-for-byte with the signature the server sent."""
    for i, message in enumerate(messages):
        if message["role"] != "assistant":
            continue
        for n, block in enumerate(_blocks(message)):
            where = f"messages.{i}.content.{n}"
            if block["type"] == "redacted_thinking":
                if not genuine_redacted(block.get("data")) \
                        and block.get("data") not in issued.redacted:
                    raise RequestInvalid(f"{where}: Invalid `data` in `redacted_thinking` block; "
                                         "it must be sent back unchanged")
                continue
            if block["type"] != "thinking":
                continue
            signature = block.get("signature")
            text = block.get("thinking")
            carried = signed_thinking(signature)
            # the text as issued, or "" when it was issued with display "omitted"
            genuine = isinstance(text, str) and (
                (carried is not None and text in (carried, ""))
                or (isinstance(signature, str) and issued.by_signature.get(signature) == text))
            if not genuine:
                raise RequestInvalid(
                    f"{where}: Invalid `signature` in `thinking` block; thinking blocks must be "
                    f"sent back unchanged, with the exact text and signature they came with")
    thinking = body.get("thinking")
    if not isinstance(thinking, dict) or thinking.get("type") not in ("enabled", "adaptive"):
        return
    _check_final_tool_turn_keeps_thinking(messages, issued)


def _check_final_tool_turn_keeps_thinking(messages: list[dict[str, Any]],
                                          issued: IssuedThinking) -> None:
    """With thinking on, the assistant turn a tool loop continues must keep its thinking."""
    last_assistant = next((i for i in range(len(messages) - 1, -1, -1)
                           if messages[i]["role"] == "assistant"), None)
    if last_assistant is None:
        return
    blocks = _blocks(messages[last_assistant])
    sent: list[tuple[str, str]] = []
    for block in blocks:
        if block["type"] == "tool_use" and block.get("id") in issued.by_tool_id:
            sent = issued.by_tool_id[block["id"]]
            break
    if not sent:
        return
    head = [(b["type"], str(b.get("signature") or b.get("data") or ""))
            for b in blocks[:len(sent)]]
    if head != sent:
        raise RequestInvalid(
            f"messages.{last_assistant}.content.0: Expected `thinking` or `redacted_thinking`, "
            f"but found `{blocks[0]['type']}`. When `thinking` is enabled, a final `assistant` "
            f"message must start with the thinking blocks it was issued with, unchanged.")


def _check_server_blocks(messages: list[dict[str, Any]], issued: IssuedThinking) -> None:
    """Server tool blocks go back exactly as the server sent them (ids it issued)."""
    for i, message in enumerate(messages):
        if message["role"] != "assistant":
            continue
        for n, block in enumerate(_blocks(message)):
            key = _server_key(block)
            if key is None or key not in issued.server_blocks:
                continue
            if _canonical(block) != issued.server_blocks[key]:
                raise RequestInvalid(f"messages.{i}.content.{n}: `{key[0]}` blocks must be sent "
                                     "back exactly as they were returned")


def _check_pause_continuation(messages: list[dict[str, Any]], issued: IssuedThinking) -> None:
    """A paused turn continues with its content as the final assistant message, never with a
    user message after it."""
    for paused in list(issued.paused):
        want = [_canonical(b) for b in paused]
        for i, message in enumerate(messages):
            if message["role"] != "assistant":
                continue
            got = [_canonical(b) for b in _blocks(message)]
            if got[-len(want):] != want:
                continue
            if i == len(messages) - 1:
                issued.paused.remove(paused)  # continued properly
                break
            raise RequestInvalid(
                f"messages.{i + 1}: a response that stopped with `pause_turn` must be continued "
                "by sending it back as the final assistant message, without a user message "
                "after it")


def iter_cache_controlled(body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every block (tool, system block, message block, nested block) with cache_control."""
    for tool in body.get("tools") or []:
        if isinstance(tool, dict) and tool.get("cache_control"):
            yield tool
    system = body.get("system")
    if isinstance(system, list):
        yield from (b for b in system if isinstance(b, dict) and b.get("cache_control"))
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("cache_control"):
                yield block
            inner = block.get("content")
            if isinstance(inner, list):
                yield from (b for b in inner if isinstance(b, dict) and b.get("cache_control"))


def count_cache_breakpoints(body: dict[str, Any]) -> int:
    return sum(1 for _ in iter_cache_controlled(body))
