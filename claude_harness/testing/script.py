"""Load and check the turn script that drives the scripted Messages API server.

The script is checked completely at load time so that a typo in a test's script fails
loudly before any request is made, instead of surfacing later as a confusing stream.

Format (a JSON file, a dict, or a bare list of turns)::

    {"turns": [TURN, ...],
     "context_window": optional N: a request whose estimated size (api/token_estimate.py)
                       is over N tokens gets HTTP 400 "prompt is too long: X tokens > N
                       maximum" and consumes no turn, as the real API answers,
     "strict_unknown_models": optional bool: a model id the model table does not know is
                       refused thinking, effort and context_management (a proxy or a new
                       model that takes none of them); by default such ids accept anything,
     "side": optional [TURN, ...]: answers for requests that offer no tools (side.py)}

    TURN  = {"content": [BLOCK, ...],
             "stop_reason": optional (default "tool_use" if any tool_use block else "end_turn"),
             "stop_sequence": optional str,
             "usage": optional {"input_tokens", "output_tokens", ...} (overrides the estimates;
                      "web_search_requests": N is sent as server_tool_use, as the API does),
             "delay": optional seconds to sleep before each SSE event
                      (a non-streamed answer sleeps it once),
             "chunk_size": optional max characters per delta chunk (default 24),
             "fault": optional FAULT}
          | {"sse": "<an SSE body recorded from the real API>"}: sent byte for byte (frame
             by frame); what it issues (thinking, tool ids, server tool blocks) is read from
             it (recorded.py), so its blocks must come back as they were
          | "some text"                                  (shorthand for one text block)
    BLOCK = {"type": "text", "text": ...} | "some text"
          | {"type": "thinking", "thinking": ..., "signature": optional (default: a
             stateless signed copy of the text, so any mock server verifies it, as after a
             resume)}; when the request asks for `thinking.display: "omitted"` the text is
             sent empty and only the signature carries it, as the API does
          | {"type": "redacted_thinking", "data": optional (default: stateless signed data)}
          | {"type": "tool_use", "name": ..., "input": {...},
             "id": optional (default "toolu_<turn>_<n>")}
          | {"type": "tool_use", "name": ..., "raw_input": "<sent verbatim as partial_json>"}
          | {"type": "server_tool_use", "name": "web_search"|"web_fetch"|"code_execution"...,
             "input": {...}, "id": optional (default "srvtoolu_<turn>_<n>")}
          | {"type": ANY OTHER TYPE, ...}: sent verbatim, whole, in content_block_start (the
             way the API streams web_search_tool_result, web_fetch_tool_result,
             code_execution_tool_result...); a `*_tool_result` block without "tool_use_id"
             answers the server_tool_use just before it
    FAULT = {"status": 429|500|529|400|413|..., "retry_after": optional seconds,
             "message": optional (e.g. "prompt is too long: 210000 tokens > 200000 maximum")}
          | {"drop_after_events": N}
          | {"sse_error": {"type": ..., "message": ...}, "after_events": N}
          | {"malformed_after_events": N}: after N events, a frame whose data is not JSON
          | {"stall_after_events": N, "stall": seconds}: after N events, silence (no ping)

stop_reason may be any the API gives: end_turn, tool_use, max_tokens, stop_sequence,
pause_turn, refusal, model_context_window_exceeded.

What the server checks (validation.py): the API's structural rules, thinking and redacted
thinking sent back unchanged, server tool blocks sent back as they were issued and never
answered by a tool_result, a pause_turn continued without a user message in between, and the
model's parameters (model_rules.py: max_tokens, thinking type and budget, effort level,
context_management and its beta header) against the model table.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_CHUNK_SIZE = 24
STOP_REASONS = frozenset({"end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn",
                          "refusal", "model_context_window_exceeded"})


# Blocks only a request carries; a response with one is a typo in the script.
_REQUEST_ONLY_TYPES = frozenset({"image", "document", "tool_result", "search_result"})


class ScriptError(ValueError):
    """The script file or object does not follow the documented format."""


@dataclass(frozen=True)
class Block:
    """One content block the scripted assistant will send.

    For tool_use blocks `input_json` is the exact string streamed as partial_json: the
    serialised `input`, or `raw_input` verbatim (which may be deliberately invalid JSON).
    """

    type: str
    text: str = ""
    signature: str = ""
    tool_id: str = ""
    name: str = ""
    input_json: str = ""
    raw: dict[str, Any] | None = None  # a block sent verbatim (server tool results, ...)

    def parsed_input(self) -> dict[str, Any]:
        """The tool input as an object; {} when raw_input is not a JSON object."""
        try:
            value = json.loads(self.input_json)
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def to_api(self, omit_thinking: bool = False) -> dict[str, Any]:
        """The block as the API shows it in a complete (non-streamed) Message."""
        if self.raw is not None:  # verbatim: a recorded block, a server tool result...
            return dict(self.raw)
        if self.type == "text":
            return {"type": "text", "text": self.text}
        if self.type == "thinking":
            return {"type": "thinking", "thinking": "" if omit_thinking else self.text,
                    "signature": self.signature}
        return {"type": self.type, "id": self.tool_id, "name": self.name,
                "input": self.parsed_input()}


@dataclass(frozen=True)
class Fault:
    """A failure to inject instead of (or in the middle of) a normal answer."""

    status: int | None = None
    retry_after: float | None = None
    message: str | None = None
    drop_after_events: int | None = None
    sse_error: dict[str, Any] | None = None
    after_events: int = 0
    malformed_after_events: int | None = None
    stall_after_events: int | None = None
    stall: float = 0.0


@dataclass(frozen=True)
class Turn:
    """One scripted assistant response, consumed by exactly one accepted request."""

    index: int
    blocks: tuple[Block, ...]
    stop_reason: str
    stop_sequence: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    delay: float = 0.0
    chunk_size: int = DEFAULT_CHUNK_SIZE
    fault: Fault | None = None
    sse: str | None = None  # a recorded SSE body, played verbatim


@dataclass(frozen=True)
class ScriptOptions:
    """Script-wide settings (see the format above)."""

    context_window: int | None = None
    strict_unknown_models: bool = False


def load_script(source: str | Path | dict[str, Any] | list[Any]) -> list[Turn]:
    """Parse a script from a path, a dict with "turns", or a bare list of turns."""
    return load_script_with_options(source)[0]


def load_script_with_options(source: str | Path | dict[str, Any] | list[Any]
                             ) -> tuple[list[Turn], ScriptOptions]:
    """The turns and the script-wide options."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            source = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ScriptError(f"cannot read script {path}: {exc}") from exc
        except ValueError as exc:
            raise ScriptError(f"script {path} is not valid JSON: {exc}") from exc
    options = ScriptOptions()
    if isinstance(source, dict):
        if "turns" not in source:
            raise ScriptError('script object must have a "turns" list')
        unknown = set(source) - {"turns", "context_window", "strict_unknown_models", "side"}
        if unknown:
            raise ScriptError(f"script: unknown keys {sorted(unknown)}")
        window = source.get("context_window")
        if window is not None and (not isinstance(window, int) or window < 1):
            raise ScriptError("script.context_window must be a positive integer")
        options = ScriptOptions(window, bool(source.get("strict_unknown_models", False)))
        source = source["turns"]
    if not isinstance(source, list):
        raise ScriptError("script turns must be a list")
    return [_parse_turn(i, raw) for i, raw in enumerate(source)], options


def _parse_turn(index: int, raw: Any) -> Turn:
    where = f"turns[{index}]"
    if isinstance(raw, str):
        raw = {"content": [raw]}
    if not isinstance(raw, dict):
        raise ScriptError(f"{where}: a turn must be an object or a string")
    if "sse" in raw:
        return _recorded_turn(where, index, raw)
    unknown = set(raw) - {"content", "stop_reason", "stop_sequence", "usage", "delay",
                          "chunk_size", "fault"}
    if unknown:
        raise ScriptError(f"{where}: unknown keys {sorted(unknown)}")
    fault = _parse_fault(where, raw["fault"]) if raw.get("fault") is not None else None
    content = raw.get("content", [])
    if not isinstance(content, list):
        raise ScriptError(f"{where}.content must be a list of blocks")
    if not content and fault is None:
        raise ScriptError(f"{where}: a turn needs content blocks or a fault")
    blocks = _answer_server_tools(tuple(_parse_block(f"{where}.content[{n}]", index, n, b)
                                        for n, b in enumerate(content)))
    has_tool = any(b.type == "tool_use" for b in blocks)
    stop_reason = raw.get("stop_reason") or ("tool_use" if has_tool else "end_turn")
    if stop_reason not in STOP_REASONS:
        raise ScriptError(f"{where}.stop_reason {stop_reason!r} is not one of {sorted(STOP_REASONS)}")
    usage = raw.get("usage") or {}
    if not isinstance(usage, dict) or not all(isinstance(v, int) for v in usage.values()):
        raise ScriptError(f"{where}.usage must map field names to integers")
    delay = raw.get("delay", 0.0)
    chunk_size = raw.get("chunk_size", DEFAULT_CHUNK_SIZE)
    if not isinstance(delay, (int, float)) or delay < 0:
        raise ScriptError(f"{where}.delay must be a non-negative number")
    if not isinstance(chunk_size, int) or chunk_size < 1:
        raise ScriptError(f"{where}.chunk_size must be a positive integer")
    return Turn(index=index, blocks=blocks, stop_reason=stop_reason,
                stop_sequence=raw.get("stop_sequence"), usage=dict(usage),
                delay=float(delay), chunk_size=chunk_size, fault=fault)


def _recorded_turn(where: str, index: int, raw: dict[str, Any]) -> Turn:
    """A turn that plays a recorded SSE body; its blocks are what that body adds up to."""
    from claude_harness.testing.recorded import message_blocks, sse_frames

    if set(raw) != {"sse"} or not isinstance(raw["sse"], str):
        raise ScriptError(f"{where}: a recorded turn is {{\"sse\": \"<SSE text>\"}} alone")
    try:
        content, stop_reason = message_blocks(sse_frames(raw["sse"]))
    except (ValueError, KeyError, TypeError) as exc:
        raise ScriptError(f"{where}.sse is not a Messages API stream: {exc}") from exc
    blocks = tuple(Block(type=str(b.get("type")), text=str(b.get("thinking", "")),
                         signature=str(b.get("signature", "")), tool_id=str(b.get("id", "")),
                         name=str(b.get("name", "")), raw=b) for b in content)
    return Turn(index=index, blocks=blocks, stop_reason=stop_reason or "end_turn",
                sse=raw["sse"])


def _parse_block(where: str, turn: int, n: int, raw: Any) -> Block:
    if isinstance(raw, str):
        raw = {"type": "text", "text": raw}
    if not isinstance(raw, dict):
        raise ScriptError(f"{where}: a block must be an object or a string")
    kind = raw.get("type")
    if kind == "text":
        text = raw.get("text")
        if not isinstance(text, str):
            raise ScriptError(f"{where}: text block needs a string 'text'")
        return Block(type="text", text=text)
    if kind == "thinking":
        thinking = raw.get("thinking")
        if not isinstance(thinking, str):
            raise ScriptError(f"{where}: thinking block needs a string 'thinking'")
        signature = raw.get("signature") or sign_thinking(thinking)
        return Block(type="thinking", text=thinking, signature=signature)
    if kind == "tool_use":
        return _parse_tool_use(where, turn, n, raw)
    if kind == "server_tool_use":
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise ScriptError(f"{where}: server_tool_use block needs a 'name'")
        value = raw.get("input", {})
        if not isinstance(value, dict):
            raise ScriptError(f"{where}: server_tool_use input must be an object")
        return Block(type=kind, tool_id=raw.get("id") or f"srvtoolu_{turn}_{n}", name=name,
                     input_json=json.dumps(value, ensure_ascii=False))
    if kind == "redacted_thinking":
        data = raw.get("data") or sign_redacted(f"redacted {turn}.{n}")
        return Block(type=kind, raw={"type": kind, "data": data})
    if not isinstance(kind, str) or not kind:
        raise ScriptError(f"{where}: a block needs a 'type'")
    if kind in _REQUEST_ONLY_TYPES:
        raise ScriptError(f"{where}: unknown block type {kind!r} for a response (only requests "
                          "carry it)")
    return Block(type=kind, raw=dict(raw))


def _answer_server_tools(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    """A `*_tool_result` block without a tool_use_id answers the server_tool_use before it."""
    out: list[Block] = []
    last_use = ""
    for block in blocks:
        if block.type == "server_tool_use":
            last_use = block.tool_id
        elif (block.raw is not None and block.type.endswith("_tool_result")
              and "tool_use_id" not in block.raw and last_use):
            block = Block(type=block.type, raw={**block.raw, "tool_use_id": last_use})
        out.append(block)
    return tuple(out)


def _parse_tool_use(where: str, turn: int, n: int, raw: dict[str, Any]) -> Block:
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise ScriptError(f"{where}: tool_use block needs a 'name'")
    if "raw_input" in raw:
        if not isinstance(raw["raw_input"], str):
            raise ScriptError(f"{where}: raw_input must be a string")
        input_json = raw["raw_input"]
    else:
        value = raw.get("input", {})
        if not isinstance(value, dict):
            raise ScriptError(f"{where}: tool_use input must be an object")
        input_json = json.dumps(value, ensure_ascii=False)
    tool_id = raw.get("id") or f"toolu_{turn}_{n}"
    return Block(type="tool_use", tool_id=tool_id, name=name, input_json=input_json)


_SIGNING_KEY = b"claude-harness mock_api thinking signature"
_MAC_SIZE = 32


def _sealed(kind: bytes, payload: str) -> str:
    data = payload.encode()
    mac = hmac.new(_SIGNING_KEY, kind + data, hashlib.sha256).digest()
    return base64.b64encode(mac + data).decode("ascii")


def _unsealed(kind: bytes, sealed: Any) -> str | None:
    """The payload of a sealed string, or None when it was not sealed by a mock server."""
    if not isinstance(sealed, str):
        return None
    try:
        raw = base64.b64decode(sealed.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        return None
    mac, data = raw[:_MAC_SIZE], raw[_MAC_SIZE:]
    good = hmac.new(_SIGNING_KEY, kind + data, hashlib.sha256).digest()
    if len(mac) != _MAC_SIZE or not hmac.compare_digest(mac, good):
        return None
    try:
        return data.decode()
    except UnicodeDecodeError:
        return None


def sign_thinking(thinking: str) -> str:
    """An opaque signature that carries the thinking, verifiable by any mock server.

    Stateless matters for resumed sessions: a transcript written against one server process
    replays its thinking blocks to another, and the real API accepts those. Carrying the text
    lets a block whose text was omitted (`display: "omitted"`) be checked too.
    """
    return _sealed(b"thinking:", thinking)


def signed_thinking(signature: Any) -> str | None:
    """The thinking a signature was made for, or None when it is not a genuine signature."""
    return _unsealed(b"thinking:", signature)


def sign_redacted(seed: str) -> str:
    """Opaque redacted_thinking data, verifiable by any mock server."""
    return _sealed(b"redacted:", seed)


def genuine_redacted(data: Any) -> bool:
    return _unsealed(b"redacted:", data) is not None


def _parse_fault(where: str, raw: Any) -> Fault:
    if not isinstance(raw, dict):
        raise ScriptError(f"{where}.fault must be an object")
    if "status" in raw:
        status = raw["status"]
        if not isinstance(status, int) or not 400 <= status <= 599:
            raise ScriptError(f"{where}.fault.status must be an HTTP error status (400-599)")
        return Fault(status=status, retry_after=raw.get("retry_after"), message=raw.get("message"))
    if "drop_after_events" in raw:
        count = raw["drop_after_events"]
        if not isinstance(count, int) or count < 0:
            raise ScriptError(f"{where}.fault.drop_after_events must be a non-negative integer")
        return Fault(drop_after_events=count)
    if "malformed_after_events" in raw:
        count = raw["malformed_after_events"]
        if not isinstance(count, int) or count < 0:
            raise ScriptError(f"{where}.fault.malformed_after_events must be a non-negative "
                              "integer")
        return Fault(malformed_after_events=count)
    if "stall_after_events" in raw:
        count, stall = raw["stall_after_events"], raw.get("stall", 1.0)
        if not isinstance(count, int) or count < 0 or not isinstance(stall, (int, float)):
            raise ScriptError(f"{where}.fault.stall_after_events must be a non-negative "
                              "integer and stall a number of seconds")
        return Fault(stall_after_events=count, stall=float(stall))
    if "sse_error" in raw:
        err = raw["sse_error"]
        if not isinstance(err, dict) or not isinstance(err.get("type"), str):
            raise ScriptError(f"{where}.fault.sse_error must be an object with a 'type'")
        after = raw.get("after_events", 0)
        if not isinstance(after, int) or after < 0:
            raise ScriptError(f"{where}.fault.after_events must be a non-negative integer")
        return Fault(sse_error={"type": err["type"], "message": err.get("message", err["type"])},
                     after_events=after)
    raise ScriptError(f"{where}.fault needs 'status', 'drop_after_events', 'sse_error', "
                      "'malformed_after_events' or 'stall_after_events'")
