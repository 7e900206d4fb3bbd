"""Streaming access to the Messages API, with our own retries.

The Anthropic API is spoken to over HTTP and SSE directly (http_stream.py): the `anthropic`
import costs over a second on a 2-core machine and tens of MiB, and a streamed request needs
none of it. The SDK serves Bedrock and Vertex, whose requests it signs; it is imported there
only. `preload_transport()` loads what the first request needs in a background thread after
the first paint; the first request loads it otherwise.

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
import sys
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from claude_harness.api.errors import NO_KEY_HELP, ApiError, MissingCredentials, status_error
from claude_harness.api.request_body import dump_json, encode_body
from claude_harness.api.request_params import betas_for, sdk_arguments
from claude_harness.protocol.debug_log import debug

DEFAULT_IDLE_TIMEOUT_MS = 90_000
DEFAULT_API_TIMEOUT_MS = 600_000

Provider = Literal["anthropic", "bedrock", "vertex"]
PROVIDER_EXTRAS = {"bedrock": ("botocore", "CLAUDE_CODE_USE_BEDROCK", "anthropic[bedrock]"),
                   "vertex": ("google.auth", "CLAUDE_CODE_USE_VERTEX", "anthropic[vertex]")}

_transport_lock = threading.Lock()


# Set once what the first request needs is loaded: work that can wait (warming the Bash
# checker while a person types) waits for it, so it never slows the first request.
TRANSPORT_LOADED = threading.Event()


def preload_transport(provider: Provider | None = None) -> None:
    """Import what requests to `provider` need (safe from a worker thread; idempotent): the
    HTTP client for the Anthropic API, the SDK for Bedrock and Vertex. None: the provider
    the environment names.

    What is loaded now lives to the end: it is moved out of the garbage collector's sight
    (`gc.freeze`), or a full collection, walking it all, would stall a turn now and then."""
    provider = provider or ApiSettings.from_env().provider
    with _transport_lock:
        if provider == "anthropic":
            import httpx2  # noqa: F401

            import claude_harness.api.http_stream  # noqa: F401
        else:
            import anthropic  # noqa: F401
        if not TRANSPORT_LOADED.is_set():
            gc.freeze()
            TRANSPORT_LOADED.set()


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
    """One connection per session; `stream_once()` yields the events of one attempt.

    The Anthropic provider is spoken to over HTTP directly (http_stream.py: no SDK import);
    Bedrock and Vertex go through the SDK's clients, which sign and reshape the request.
    `side_usage` collects the usage of side requests (WebFetch summaries, WebSearch, the
    classifier): the loop drains it into the session totals after each request.
    """

    def __init__(self, settings: ApiSettings) -> None:
        self.settings = settings
        self._client: Any = None  # the SDK's client (Bedrock, Vertex) or an httpx2 client
        self.side_usage: list[tuple[str, str, dict[str, int]]] = []  # (purpose, model, usage)

    @property
    def uses_sdk(self) -> bool:
        return self.settings.provider != "anthropic"

    def _connection(self) -> Any:
        if self._client is None:
            if not self.settings.has_credentials:
                raise MissingCredentials(NO_KEY_HELP)
            preload_transport(self.settings.provider)
            if self.uses_sdk:
                self._client = _make_sdk_client(self.settings)
            else:
                from claude_harness.api.http_stream import make_http_client

                self._client = make_http_client(self.settings)
        return self._client

    async def stream_once(self, request: dict[str, Any],
                          encoded_messages: Sequence[bytes] | None = None
                          ) -> AsyncIterator[Any]:
        """Open one streaming request and yield its events; errors become ApiError.

        `encoded_messages` are `request["messages"]` already serialised, one each: the body is
        then posted as bytes (see request_body.py)."""
        client = self._connection()
        debug("api", f"POST /v1/messages model={request.get('model')} "
              f"messages={len(request.get('messages') or ())} "
              f"max_tokens={request.get('max_tokens')} betas={','.join(betas_for(request))}")
        try:
            if self.uses_sdk:
                stream = await client.messages.create(**sdk_arguments(request), stream=True)
                async with stream:
                    async for event in stream:
                        yield event
            else:
                async for event in self._http_events(client, request, encoded_messages):
                    yield event
        except ApiError as exc:
            debug("api", f"request failed: {exc.message}")
            raise
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # transport errors (and the SDK's, which load lazily)
            error = translate_error(exc, self.settings.idle_timeout)
            debug("api", f"request failed: {error.message}")
            raise error from exc

    async def _http_events(self, client: Any, request: dict[str, Any],
                           encoded_messages: Sequence[bytes] | None) -> AsyncIterator[Any]:
        from claude_harness.api.http_stream import post_stream, request_headers

        streamed = {**request, "stream": True}
        body = (encode_body(streamed, encoded_messages) if encoded_messages is not None
                else dump_json(streamed))
        headers = request_headers(self.settings, betas_for(request))
        async for event in post_stream(client, body, headers):
            yield event

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
            client, self._client = self._client, None
            await (client.aclose() if hasattr(client, "aclose") else client.close())


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


def translate_error(exc: Exception, idle_timeout: float | None = None) -> ApiError:
    """Turn an SDK or transport exception into an ApiError with a one-line message. The SDK's
    classes are looked at only where the SDK is loaded (Bedrock, Vertex): the HTTP path never
    imports it."""
    anthropic: Any = sys.modules.get("anthropic")
    if anthropic is not None and isinstance(exc, anthropic.APIStatusError):
        sdk_error: Any = exc
        status = 401 if isinstance(exc, anthropic.AuthenticationError) else sdk_error.status_code
        return status_error(status, sdk_error.body, _retry_after(exc), str(exc))
    name = type(exc).__name__
    if (anthropic is not None and isinstance(exc, anthropic.APITimeoutError)) \
            or (name.endswith("Timeout") and name != "PoolTimeout"):
        idle = f" for {idle_timeout:g} s" if idle_timeout else ""
        return ApiError(f"Stream stalled: no data from the API{idle}", retryable=True)
    if anthropic is not None and isinstance(exc, anthropic.APIConnectionError):
        return ApiError(f"Connection error: {exc.__cause__ or exc}", retryable=True)
    if name in ("ConnectError", "ProxyError"):  # httpx2's, on the HTTP path
        return ApiError(f"Connection error: {exc}", retryable=True)
    if isinstance(exc, json.JSONDecodeError):
        return ApiError(f"Malformed event in the API stream (not JSON): {exc}", retryable=True)
    # httpx/httpcore errors raised while iterating a broken stream
    if any(k in name for k in ("RemoteProtocol", "ReadError", "Incomplete", "Connect", "Timeout",
                               "WriteError", "Stream", "SSE", "Protocol")):
        return ApiError(f"Stream interrupted: {name}: {exc}", retryable=True)
    return ApiError(f"Unexpected API failure: {name}: {exc}")


def _retry_after(exc: Any) -> float | None:
    try:
        value = exc.response.headers.get("retry-after")
        return float(value) if value is not None else None
    except (AttributeError, ValueError, TypeError):
        return None
