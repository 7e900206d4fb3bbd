"""Streaming access to the Messages API through the official SDK, with our own retries.

The `anthropic` import costs seconds on a 2-core machine, so nothing here imports it at module
level: `preload_sdk()` can warm it in a background thread after the first paint, and the first
request imports it otherwise.

Retries (429, 5xx, 529/overloaded, connection failures, an `error` SSE event of a retryable type,
a stream that breaks, stalls or sends a frame that is not JSON) are done here rather than in
the SDK so the loop can tell the user (`ApiRetry` events) and can discard a partially streamed
answer before trying again.

The idle watchdog is the HTTP read timeout: no byte (not even the API's `ping` events) for
`idle_timeout` seconds ends the attempt as a retryable "stream stalled" error. Claude Code's
variables set it: CLAUDE_STREAM_IDLE_TIMEOUT_MS (default 90 s here) and API_TIMEOUT_MS (connect
and send, default 600 s). CLAUDE_CODE_USE_BEDROCK / CLAUDE_CODE_USE_VERTEX pick the SDK's
Bedrock or Vertex client, whose extras are checked before use.
"""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import json
import os
import random
import re
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from claude_harness.api.errors import NO_KEY_HELP, ApiError, MissingCredentials
from claude_harness.api.request_body import encode_body
from claude_harness.api.request_params import betas_for, sdk_arguments
from claude_harness.protocol.debug_log import debug

RETRYABLE_STATUS = {408, 409, 429, 500, 502, 503, 504, 529}
RETRYABLE_ERROR_TYPES = {"overloaded_error", "api_error", "rate_limit_error", "timeout_error"}
DEFAULT_IDLE_TIMEOUT_MS = 90_000
DEFAULT_API_TIMEOUT_MS = 600_000

Provider = Literal["anthropic", "bedrock", "vertex"]
PROVIDER_EXTRAS = {"bedrock": ("botocore", "CLAUDE_CODE_USE_BEDROCK", "anthropic[bedrock]"),
                   "vertex": ("google.auth", "CLAUDE_CODE_USE_VERTEX", "anthropic[vertex]")}

_sdk_lock = threading.Lock()


# Set once the SDK is loaded: work that can wait (warming the Bash checker while a person
# types) waits for it, so it never slows the import the first request needs.
SDK_LOADED = threading.Event()


def preload_sdk() -> None:
    """Import the SDK (safe to call from a worker thread; idempotent).

    The SDK and its models are most of the objects the process will ever hold, and all of them
    live to the end: once they are loaded they are moved out of the garbage collector's sight
    (`gc.freeze`), or a full collection, walking them all, would stall a turn by 100 ms now
    and then."""
    with _sdk_lock:
        import anthropic  # noqa: F401

        if not SDK_LOADED.is_set():
            gc.freeze()
            SDK_LOADED.set()


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def _milliseconds(env: Mapping[str, str], name: str, default: int) -> float:
    try:
        value = int(env.get(name, "") or default)
    except ValueError:
        value = default
    return max(value, 1) / 1000


@dataclass(frozen=True)
class ApiSettings:
    api_key: str | None
    auth_token: str | None
    base_url: str | None
    max_retries: int = 8
    timeout: float = DEFAULT_API_TIMEOUT_MS / 1000
    retry_base_delay: float = 0.5
    retry_max_delay: float = 32.0
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT_MS / 1000
    provider: Provider = "anthropic"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ApiSettings:
        env = dict(os.environ if env is None else env)
        provider: Provider = "anthropic"
        if _truthy(env.get("CLAUDE_CODE_USE_BEDROCK")):
            provider = "bedrock"
        elif _truthy(env.get("CLAUDE_CODE_USE_VERTEX")):
            provider = "vertex"
        return cls(
            api_key=env.get("ANTHROPIC_API_KEY") or None,
            auth_token=env.get("ANTHROPIC_AUTH_TOKEN") or None,
            base_url=env.get("ANTHROPIC_BASE_URL") or None,
            max_retries=int(env.get("CLAUDE_HARNESS_MAX_RETRIES", "8")),
            retry_base_delay=float(env.get("CLAUDE_HARNESS_RETRY_BASE_DELAY", "0.5")),
            timeout=_milliseconds(env, "API_TIMEOUT_MS", DEFAULT_API_TIMEOUT_MS),
            idle_timeout=_milliseconds(env, "CLAUDE_STREAM_IDLE_TIMEOUT_MS",
                                       DEFAULT_IDLE_TIMEOUT_MS),
            provider=provider,
        )

    @property
    def has_credentials(self) -> bool:
        """Bedrock and Vertex authenticate with the cloud's own credentials."""
        return self.provider != "anthropic" or bool(self.api_key or self.auth_token)


class ApiClient:
    """One SDK client per session; `stream_once()` yields raw SSE events of one attempt.

    `side_usage` collects the usage of side requests (WebFetch summaries, WebSearch, the
    classifier): the loop drains it into the session totals after each request.
    """

    def __init__(self, settings: ApiSettings) -> None:
        self.settings = settings
        self._client: Any = None
        self.side_usage: list[tuple[str, str, dict[str, int]]] = []  # (purpose, model, usage)

    def _sdk_client(self) -> Any:
        if self._client is None:
            if not self.settings.has_credentials:
                raise MissingCredentials(NO_KEY_HELP)
            preload_sdk()
            self._client = _make_sdk_client(self.settings)
        return self._client

    async def stream_once(self, request: dict[str, Any],
                          encoded_messages: Sequence[bytes] | None = None
                          ) -> AsyncIterator[Any]:
        """Open one streaming request and yield its raw events; errors become ApiError.

        `encoded_messages` are `request["messages"]` already serialised, one each: the body is
        then posted as bytes (see request_body.py). Bedrock and Vertex reshape the body in the
        SDK, so they always take the SDK's path."""
        client = self._sdk_client()
        debug("api", f"POST /v1/messages model={request.get('model')} "
              f"messages={len(request.get('messages') or ())} "
              f"max_tokens={request.get('max_tokens')} betas={','.join(betas_for(request))}")
        try:
            if encoded_messages is not None and self.settings.provider == "anthropic":
                stream = await _post_stream(client, request, encoded_messages)
            else:
                stream = await client.messages.create(**sdk_arguments(request), stream=True)
            async with stream:
                async for event in stream:
                    yield event
        except ApiError as exc:
            debug("api", f"request failed: {exc.message}")
            raise
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the SDK's error classes are imported lazily
            error = translate_error(exc, self.settings.idle_timeout)
            debug("api", f"request failed: {error.message}")
            raise error from exc

    def record_side_usage(self, purpose: str, model: str, usage: dict[str, int]) -> None:
        self.side_usage.append((purpose, model, dict(usage)))

    def drain_side_usage(self) -> list[tuple[str, str, dict[str, int]]]:
        drained, self.side_usage = self.side_usage, []
        return drained

    def backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return max(0.0, min(retry_after, 60.0))
        delay = self.settings.retry_base_delay * (2 ** (attempt - 1))
        delay = min(delay, self.settings.retry_max_delay)
        return delay * (0.75 + random.random() * 0.25)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()


async def _post_stream(client: Any, request: dict[str, Any],
                       encoded_messages: Sequence[bytes]) -> Any:
    """What `messages.create(..., stream=True)` sends, with our bytes as the body: the SDK's
    client still adds the headers, the timeouts and parses the stream."""
    from anthropic import AsyncStream
    from anthropic.types import Message, RawMessageStreamEvent

    body = encode_body({**request, "stream": True}, encoded_messages)
    betas = betas_for(request)
    headers = {"anthropic-beta": ",".join(betas)} if betas else {}
    return await client.post("/v1/messages", cast_to=Message, content=body,
                             options={"headers": headers}, stream=True,
                             stream_cls=AsyncStream[RawMessageStreamEvent])


def _make_sdk_client(settings: ApiSettings) -> Any:
    """The SDK client for the provider; the read timeout is the idle watchdog."""
    import anthropic
    import httpx2

    timeout = httpx2.Timeout(settings.timeout, read=settings.idle_timeout)
    common: dict[str, Any] = {"max_retries": 0, "timeout": timeout}
    if settings.provider == "anthropic":
        return anthropic.AsyncAnthropic(api_key=settings.api_key, auth_token=settings.auth_token,
                                        base_url=settings.base_url, **common)
    module, variable, extra = PROVIDER_EXTRAS[settings.provider]
    if importlib.util.find_spec(module.split(".")[0]) is None or (
            "." in module and importlib.util.find_spec(module) is None):
        raise ApiError(f"{variable} is set, but the {settings.provider.title()} support of the "
                       f"SDK is not installed: pip install '{extra}'")
    env = os.environ
    if settings.provider == "bedrock":
        from anthropic.lib.bedrock import AsyncAnthropicBedrock  # what `anthropic` re-exports

        return AsyncAnthropicBedrock(
            aws_region=env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or "us-east-1",
            base_url=env.get("ANTHROPIC_BEDROCK_BASE_URL") or None, **common)
    from anthropic.lib.vertex import AsyncAnthropicVertex

    return AsyncAnthropicVertex(
        region=env.get("CLOUD_ML_REGION") or "us-east5",
        # the client keeps `project_id: str | None` and resolves a None from the credentials;
        # its __init__ annotation leaves None out
        project_id=env.get("ANTHROPIC_VERTEX_PROJECT_ID") or None,  # pyright: ignore[reportArgumentType]
        base_url=env.get("ANTHROPIC_VERTEX_BASE_URL") or None, **common)


_LIMIT = re.compile(r">\s*(\d+)\s*maximum")


def context_limit_in(message: str) -> int | None:
    """The window a "prompt is too long: 250000 tokens > 200000 maximum" message names."""
    match = _LIMIT.search(message)
    return int(match.group(1)) if match else None


def is_context_overflow(status: int | None, message: str) -> bool:
    """The request did not fit the model's context window (400 "prompt is too long", 413)."""
    lowered = message.lower()
    return status == 413 or (status == 400 and (
        "prompt is too long" in lowered or "context window" in lowered
        or "too many tokens" in lowered))


def translate_error(exc: Exception, idle_timeout: float | None = None) -> ApiError:
    """Turn an SDK or transport exception into an ApiError with a one-line message."""
    import anthropic

    if isinstance(exc, anthropic.APIStatusError):
        status = exc.status_code
        body = exc.body if isinstance(exc.body, dict) else {}
        err = body.get("error", {}) if isinstance(body.get("error"), dict) else {}
        err_type = err.get("type", "")
        detail = err.get("message") or str(exc)
        retry_after = _retry_after(exc)
        if isinstance(exc, anthropic.AuthenticationError) or status == 401:
            return ApiError(
                f"Authentication failed (401): {detail}. Check ANTHROPIC_API_KEY / "
                "ANTHROPIC_AUTH_TOKEN.",
                status=401,
            )
        if status == 200 and err_type:  # an `error` event inside a stream
            return ApiError(f"API error during stream ({err_type}): {detail}", status=None,
                            retryable=err_type in RETRYABLE_ERROR_TYPES)
        retryable = status in RETRYABLE_STATUS or err_type in RETRYABLE_ERROR_TYPES
        label = err_type or "error"
        return ApiError(f"API error {status} ({label}): {detail}", status=status,
                        retryable=retryable, retry_after=retry_after,
                        context_overflow=is_context_overflow(status, detail),
                        context_limit=context_limit_in(detail))
    if isinstance(exc, anthropic.APITimeoutError) or type(exc).__name__ == "ReadTimeout":
        idle = f" for {idle_timeout:g} s" if idle_timeout else ""
        return ApiError(f"Stream stalled: no data from the API{idle}", retryable=True)
    if isinstance(exc, anthropic.APIConnectionError):
        return ApiError(f"Connection error: {exc.__cause__ or exc}", retryable=True)
    if isinstance(exc, json.JSONDecodeError):
        return ApiError(f"Malformed event in the API stream (not JSON): {exc}", retryable=True)
    # httpx/httpcore errors raised while iterating a broken stream
    name = type(exc).__name__
    if any(k in name for k in ("RemoteProtocol", "ReadError", "Incomplete", "Connect", "Timeout",
                               "ReadTimeout", "Stream", "SSE")):
        return ApiError(f"Stream interrupted: {name}: {exc}", retryable=True)
    return ApiError(f"Unexpected API failure: {name}: {exc}")


def _retry_after(exc: Any) -> float | None:
    try:
        value = exc.response.headers.get("retry-after")
        return float(value) if value is not None else None
    except (AttributeError, ValueError, TypeError):
        return None
