"""Turn the API's raw stream events (api/http_stream.py's views, or the SDK's objects) into content blocks, deltas for the UI, and usage.

Every block is kept as the API sent it in content_block_start (all its fields, those of types
we do not model included) and only the fields its deltas fill change, so it goes back to the
API exactly as received. Deltas are read by attribute (no model_dump per delta): this sits on
the hot path of every token. Any block's input may arrive as partial JSON strings (tool_use,
server_tool_use, mcp_tool_use); it is parsed once, at content_block_stop, which is also the
moment the executor may start a tool_use. An input that arrived whole at the start (a tool
called from code execution) is kept when no delta replaces it, and an answer that comes whole
in message_start (its content and stop reason) is kept too, its tool calls handed over ready.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from claude_harness.agent.server_tools import is_server_use, server_tool_event
from claude_harness.protocol.events import TextDelta, ThinkingDelta, ThinkingDone


@dataclass
class StreamAccumulator:
    blocks: dict[int, dict[str, Any]] = field(default_factory=dict)
    partial_json: dict[int, list[str]] = field(default_factory=dict)
    completed: list[int] = field(default_factory=list)
    message_id: str = ""
    model: str = ""
    stop_reason: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    has_content: bool = False
    ready_tools: list[dict[str, Any]] = field(default_factory=list)

    def reset(self) -> None:
        """Forget a partial answer (its stream broke and the request is retried)."""
        self.__init__()  # type: ignore[misc]

    def feed(self, event: Any) -> tuple[list[Any], dict[str, Any] | None]:
        """Consume one raw event; return (UI deltas, a tool_use block that just completed)."""
        kind = event.type
        if kind == "content_block_delta":
            return self._delta(event.index, event.delta), None
        if kind == "content_block_start":
            self._start(event.index, event.content_block)
            return [], None
        if kind == "content_block_stop":
            return self._finished_events(event.index), self._stop(event.index)
        if kind == "message_start":
            msg = event.message
            self.message_id, self.model = msg.id, msg.model
            self.stop_reason = getattr(msg, "stop_reason", None) or self.stop_reason
            self._take_usage(msg.usage)
            if getattr(msg, "content", None):
                self._prefilled(msg.content)
        elif kind == "message_delta":
            self.stop_reason = event.delta.stop_reason or self.stop_reason
            self._take_usage(event.usage)
        return [], None

    def _prefilled(self, content: list[Any]) -> None:
        """Blocks that came whole in message_start (the API's answer to a tool called from code
        execution, the next call already in it): complete at once; a tool_use among them waits
        in `ready_tools` for the executor."""
        self.has_content = True
        for index, block in enumerate(content):
            self.blocks[index] = _as_sent(block)
            self.completed.append(index)
            if self.blocks[index].get("type") == "tool_use":
                self.ready_tools.append(self.blocks[index])

    def take_ready_tools(self) -> list[dict[str, Any]]:
        """The tool_use blocks complete since the last call besides those `feed` returned."""
        ready, self.ready_tools = self.ready_tools, []
        return ready

    def _take_usage(self, usage: Any) -> None:
        if usage is None:
            return
        for key in ("input_tokens", "output_tokens", "cache_creation_input_tokens",
                    "cache_read_input_tokens"):
            value = getattr(usage, key, None)
            if value is not None:
                self.usage[key] = value
        searches = getattr(getattr(usage, "server_tool_use", None), "web_search_requests", None)
        if searches:  # the web search server tool's searches are priced per search
            self.usage["web_search_requests"] = searches

    def _start(self, index: int, block: Any) -> None:
        """Keep the block as it came, every field (`caller`, nulls, fields of types we do not
        know yet): it is sent back exactly so. Only the fields the deltas fill change."""
        self.has_content = True
        self.blocks[index] = _as_sent(block)
        self.partial_json[index] = []

    def _delta(self, index: int, delta: Any) -> list[Any]:
        block = self.blocks.get(index)
        if block is None:
            return []
        kind = delta.type
        if kind == "text_delta":
            block["text"] = (block.get("text") or "") + delta.text
            return [TextDelta(delta.text, index)]
        if kind == "input_json_delta":  # tool_use, server_tool_use, mcp_tool_use, ...
            self.partial_json[index].append(delta.partial_json or "")
        elif kind == "thinking_delta":
            block["thinking"] = (block.get("thinking") or "") + delta.thinking
            return [ThinkingDelta(delta.thinking, index)]
        elif kind == "signature_delta":
            block["signature"] = delta.signature
        elif kind == "citations_delta":
            block["citations"] = [*(block.get("citations") or []), _as_sent(delta.citation)]
        else:
            _merge_unknown_delta(block, _as_sent(delta))
        return []

    def _finished_events(self, index: int) -> list[Any]:
        """Events for a block that is about to complete: thinking done, a server tool's result."""
        block = self.blocks.get(index)
        if block is None:
            return []
        kind = block.get("type")
        if kind == "thinking":
            return [ThinkingDone(index, block.get("thinking", ""))]
        if kind == "redacted_thinking":
            return [ThinkingDone(index, "", redacted=True)]
        uses = {b.get("id"): b for i, b in self.blocks.items()
                if i in self.completed and is_server_use(b)}
        event = server_tool_event(block, uses)
        return [event] if event is not None else []

    def _stop(self, index: int) -> dict[str, Any] | None:
        block = self.blocks.get(index)
        if block is None:
            return None
        self.completed.append(index)
        raw = "".join(self.partial_json.pop(index, []))
        if raw.strip():  # streamed input replaces the start's (empty) one
            value = parse_tool_input(raw)
            if value is None:  # kept aside (stripped before sending) for a clear is_error result
                block["input"] = {}
                block["_invalid_json"] = raw
            else:
                block["input"] = value
        elif block.get("type") == "tool_use" and not isinstance(block.get("input"), dict):
            block["input"] = {}  # the API needs an object back; a proxy may have left it out
        return block if block.get("type") == "tool_use" else None

    def message(self) -> dict[str, Any]:
        """The assistant message made of the blocks that completed (in index order)."""
        content = [self.blocks[i] for i in sorted(self.completed)]
        return {"role": "assistant", "content": content}


def _as_sent(model: Any) -> dict[str, Any]:
    """An SDK object as the API sent it: the fields it had (explicit nulls too), no others."""
    if isinstance(model, dict):
        return dict(model)
    return model.to_dict(mode="json", exclude_unset=True)


def _merge_unknown_delta(block: dict[str, Any], delta: dict[str, Any]) -> None:
    """A delta type we do not know (compaction_delta...): its strings extend the block's
    field of the same name, as text_delta and thinking_delta do; other values replace it."""
    for key, value in delta.items():
        if key == "type":
            continue
        before = block.get(key)
        if isinstance(value, str) and (before is None or isinstance(before, str)):
            block[key] = (before or "") + value
        else:
            block[key] = value


def parse_tool_input(raw: str) -> dict[str, Any] | None:
    """Parse streamed tool input: a dict, or None when it is not a JSON object.

    The history then stores `{}` (the API needs an object) and the block's private
    `_invalid_json` key, stripped before sending, lets the pipeline explain the failure.
    """
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
