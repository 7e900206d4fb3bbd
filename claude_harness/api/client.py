"""Streaming access to the Messages API through the official SDK, with our own retries.

The `anthropic` import costs seconds on a 2-core machine, so nothing here imports it at module
level: `preload_sdk()` can warm it in a background thread after the first paint, and the first
request imports it otherwise.

Retries (429, 5xx, 529/overloaded, connection failures, an `error` SSE event of a retryable type,
a stream that breaks) are done here rather than in the SDK so the loop can tell the user
(`ApiRetry` events) and can discard a partially streamed answer before trying again.
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from claude_harness.api.errors import NO_KEY_HELP, ApiError, MissingCredentials

RETRYABLE_STATUS = {408, 409, 429, 500, 502, 503, 504, 529}
RETRYABLE_ERROR_TYPES = {"overloaded_error", "api_error", "rate_limit_error", "timeout_error"}

_sdk_lock = threading.Lock()


def preload_sdk() -> None:
    """Import the SDK (safe to call from a worker thread; idempotent)."""
    with _sdk_lock:
        import anthropic  # noqa: F401


@dataclass(frozen=True)
class ApiSettings:
    api_key: str | None
    auth_token: str | None
    base_url: str | None
    max_retries: int = 8
    timeout: float = 600.0
    retry_base_delay: float = 0.5
    retry_max_delay: float = 32.0

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> ApiSettings:
        env = dict(os.environ if env is None else env)
        return cls(
            api_key=env.get("ANTHROPIC_API_KEY") or None,
            auth_token=env.get("ANTHROPIC_AUTH_TOKEN") or None,
            base_url=env.get("ANTHROPIC_BASE_URL") or None,
            max_retries=int(env.get("CLAUDE_HARNESS_MAX_RETRIES", "8")),
            retry_base_delay=float(env.get("CLAUDE_HARNESS_RETRY_BASE_DELAY", "0.5")),
        )

    @property
    def has_credentials(self) -> bool:
        return bool(self.api_key or self.auth_token)


class ApiClient:
    """One SDK client per session; `stream()` yields raw SSE events of one attempt."""

    def __init__(self, settings: ApiSettings) -> None:
        self.settings = settings
        self._client: Any = None

    def _sdk_client(self) -> Any:
        if self._client is None:
            if not self.settings.has_credentials:
                raise MissingCredentials(NO_KEY_HELP)
            preload_sdk()
            import anthropic

            self._client = anthropic.AsyncAnthropic(
                api_key=self.settings.api_key,
                auth_token=self.settings.auth_token,
                base_url=self.settings.base_url,
                max_retries=0,
                timeout=self.settings.timeout,
            )
        return self._client

    async def stream_once(self, request: dict[str, Any]) -> AsyncIterator[Any]:
        """Open one streaming request and yield its raw events; errors become ApiError."""
        client = self._sdk_client()
        try:
            stream = await client.messages.create(**request, stream=True)
            async with stream:
                async for event in stream:
                    yield event
        except ApiError:
            raise
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the SDK's error classes are imported lazily
            raise translate_error(exc) from exc

    def backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return max(0.0, min(retry_after, 60.0))
        delay = self.settings.retry_base_delay * (2 ** (attempt - 1))
        delay = min(delay, self.settings.retry_max_delay)
        return delay * (0.75 + random.random() * 0.25)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()


def translate_error(exc: Exception) -> ApiError:
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
                        retryable=retryable, retry_after=retry_after)
    if isinstance(exc, anthropic.APIConnectionError):
        return ApiError(f"Connection error: {exc.__cause__ or exc}", retryable=True)
    # httpx/httpcore errors raised while iterating a broken stream
    name = type(exc).__name__
    if any(k in name for k in ("RemoteProtocol", "ReadError", "Incomplete", "Connect", "Timeout",
                               "ReadTimeout", "Stream")):
        return ApiError(f"Stream interrupted: {name}: {exc}", retryable=True)
    return ApiError(f"Unexpected API failure: {name}: {exc}")


def _retry_after(exc: Any) -> float | None:
    try:
        value = exc.response.headers.get("retry-after")
        return float(value) if value is not None else None
    except (AttributeError, ValueError, TypeError):
        return None
