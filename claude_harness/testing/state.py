"""The scripted server's memory: turns left, request log, issued thinking, cache state.

Separated from the HTTP handler so the one decision that must be atomic (validate the
request, then consume a turn and note what it issues) happens under a single lock, even when
several requests (sub-agents) arrive at once.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_harness.api.token_estimate import estimate_tokens
from claude_harness.testing.cache import CacheTracker
from claude_harness.testing.script import ScriptOptions, Turn
from claude_harness.testing.side import default_side_turn, is_side_request
from claude_harness.testing.validation import IssuedThinking, RequestInvalid, validate_request

REDACTED_HEADERS = frozenset({"x-api-key", "authorization"})

ERROR_TYPES = {
    400: "invalid_request_error", 401: "authentication_error", 402: "billing_error",
    403: "permission_error", 404: "not_found_error", 413: "request_too_large",
    429: "rate_limit_error", 500: "api_error", 504: "timeout_error", 529: "overloaded_error",
}
STATUS_FOR_TYPE = {v: k for k, v in ERROR_TYPES.items()}


def error_type_for(status: int) -> str:
    return ERROR_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")


@dataclass(frozen=True)
class ErrorReply:
    """An HTTP error answer in the API's JSON error shape."""

    status: int
    type: str
    message: str
    retry_after: float | None = None
    turn: int | None = None  # the script turn this fault consumed, if any


@dataclass(frozen=True)
class TurnReply:
    """A turn to play back, with the usage input fields computed for this request."""

    turn: Turn
    usage: dict[str, int]
    omit_thinking: bool = False  # the request asked for thinking display "omitted"
    side: bool = False  # answered from the script's `side` list (see side.py)

    @property
    def log_tag(self) -> dict[str, int]:
        """How the request log names the turn played: `turn` or `side_turn`."""
        return {"side_turn" if self.side else "turn": self.turn.index}


class ServerState:
    """Thread-safe record of everything the scripted server has seen and sent."""

    def __init__(self, turns: list[Turn], log_path: str | Path | None,
                 api_key: str | None, options: ScriptOptions | None = None,
                 side: list[Turn] | None = None, *, keep_bodies: bool = True) -> None:
        self.turns = turns
        self.options = options or ScriptOptions()
        self.side = side
        self.next_side = 0
        self.api_key = api_key
        self.log_path = Path(log_path) if log_path is not None else None
        self.log: list[dict[str, Any]] = []
        self.requests: list[Any] = []  # parsed bodies (None each when not kept)
        self.raw_requests: list[bytes] = []  # the bytes as sent (empty each when not kept)
        self.keep_bodies = keep_bodies  # off for long benchmarks: 2,000 growing bodies weigh GBs
        self.next_turn = 0
        self.issued = IssuedThinking()
        self.cache = CacheTracker()
        self._lock = threading.Lock()
        self._log_lock = threading.Lock()
        self._request_count = 0

    # -- log -------------------------------------------------------------------------------

    def record_request(self, path: str, headers: dict[str, str], body: Any,
                       raw: bytes = b"") -> int:
        """Log an arriving request (accepted or not) and return its index."""
        if not self.keep_bodies:
            body, raw = None, b""
        with self._log_lock:
            index = self._request_count
            self._request_count += 1
            self.requests.append(body)
            self.raw_requests.append(raw)
        safe = {k.lower(): ("[redacted]" if k.lower() in REDACTED_HEADERS else v)
                for k, v in headers.items()}
        entry = {"event": "request", "t": time.time(), "index": index, "path": path,
                 "headers": safe}
        self._append({**entry, "body": body} if self.keep_bodies else entry)
        return index

    def record_response_end(self, index: int, status: int, **extra: Any) -> None:
        """Log the moment the response was fully written (message_stop for streams)."""
        self._append({"event": "response_end", "t": time.time(), "index": index,
                      "status": status, **extra})

    def _append(self, entry: dict[str, Any]) -> None:
        with self._log_lock:
            self.log.append(entry)
            if self.log_path is not None:
                with self.log_path.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(entry, ensure_ascii=False, default=str) + "\n")

    # -- decisions ---------------------------------------------------------------------------

    def check_auth(self, headers: dict[str, str]) -> ErrorReply | None:
        if self.api_key is None:
            return None
        lowered = {k.lower(): v for k, v in headers.items()}
        given = lowered.get("x-api-key")
        bearer = lowered.get("authorization", "")
        if given == self.api_key or bearer == f"Bearer {self.api_key}":
            return None
        return ErrorReply(401, "authentication_error", "invalid x-api-key")

    def take_turn(self, body: Any, headers: dict[str, str] | None = None
                  ) -> ErrorReply | TurnReply:
        """Validate, then consume the next turn; rejected requests consume nothing."""
        with self._lock:
            try:
                validate_request(body, self.issued, headers or {},
                                 strict_unknown_models=self.options.strict_unknown_models)
            except RequestInvalid as exc:
                return ErrorReply(400, "invalid_request_error", str(exc))
            window = self.options.context_window
            if window is not None and (size := estimate_tokens(body)) > window:
                return ErrorReply(400, "invalid_request_error",
                                  f"prompt is too long: {size} tokens > {window} maximum")
            if self.side is not None and is_side_request(body):
                return TurnReply(self._take_side(), self.cache.account(body), side=True)
            if self.next_turn >= len(self.turns):
                return ErrorReply(500, "api_error",
                                  f"mock_api: script exhausted ({len(self.turns)} turns)")
            turn = self.turns[self.next_turn]
            self.next_turn += 1
            fault = turn.fault
            if fault is not None and fault.status is not None:
                message = fault.message or f"mock_api: scripted {fault.status} fault"
                return ErrorReply(fault.status, error_type_for(fault.status), message,
                                  fault.retry_after, turn.index)
            usage = self.cache.account(body)
            usage.update({k: v for k, v in turn.usage.items() if k != "output_tokens"})
            self.issued.record(
                [(b.text, b.signature) for b in turn.blocks if b.type == "thinking"],
                [b.tool_id for b in turn.blocks if b.type == "tool_use"],
                [_thinking_mark(b.to_api()) for b in turn.blocks
                 if b.type in ("thinking", "redacted_thinking")])
            omit = _thinking_display(body) == "omitted"
            self.issued.record_response([b.to_api(omit) for b in turn.blocks], turn.stop_reason)
            return TurnReply(turn, usage, omit)

    def _take_side(self) -> Turn:
        assert self.side is not None
        if self.next_side < len(self.side):
            self.next_side += 1
            return self.side[self.next_side - 1]
        return default_side_turn()

    @property
    def remaining_turns(self) -> int:
        return len(self.turns) - self.next_turn


def _thinking_display(body: Any) -> str | None:
    thinking = body.get("thinking") if isinstance(body, dict) else None
    return thinking.get("display") if isinstance(thinking, dict) else None


def _thinking_mark(block: dict[str, Any]) -> tuple[str, str]:
    """What identifies an issued thinking block whatever its display: its signature or data."""
    return (block["type"], str(block.get("signature") or block.get("data") or ""))
