"""API failures as the harness sees them: retryable or not, with a one-line message for people."""

from __future__ import annotations

import re
from typing import Any

RETRYABLE_STATUS = {408, 409, 429, 500, 502, 503, 504, 529}
RETRYABLE_ERROR_TYPES = {"overloaded_error", "api_error", "rate_limit_error", "timeout_error"}


class ApiError(Exception):
    """A Messages API failure after retries were spent or that must not be retried."""

    def __init__(self, message: str, *, status: int | None = None, retryable: bool = False,
                 retry_after: float | None = None, context_overflow: bool = False,
                 context_limit: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after
        self.context_overflow = context_overflow  # the prompt did not fit: compact, then retry
        self.context_limit = context_limit  # the window the API named ("> 200000 maximum")


class MissingCredentials(ApiError):
    """Neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set."""


NO_KEY_HELP = (
    "No API key found. Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or point "
    "ANTHROPIC_BASE_URL at a compatible server and set a key it accepts."
)


def status_error(status: int, body: Any, retry_after: float | None, fallback: str) -> ApiError:
    """The API's answer to a failed request (or an `error` event inside a stream, status 200)
    as an ApiError: the API's own type and message, whether to retry, whether it overflowed."""
    error = body.get("error") if isinstance(body, dict) else None
    error = error if isinstance(error, dict) else {}
    err_type = error.get("type", "")
    detail = error.get("message") or fallback
    if status == 401:
        return ApiError(f"Authentication failed (401): {detail}. Check ANTHROPIC_API_KEY / "
                        "ANTHROPIC_AUTH_TOKEN.", status=401)
    if status == 200 and err_type:
        return ApiError(f"API error during stream ({err_type}): {detail}", status=None,
                        retryable=err_type in RETRYABLE_ERROR_TYPES)
    retryable = status in RETRYABLE_STATUS or err_type in RETRYABLE_ERROR_TYPES
    return ApiError(f"API error {status} ({err_type or 'error'}): {detail}", status=status,
                    retryable=retryable, retry_after=retry_after,
                    context_overflow=is_context_overflow(status, detail),
                    context_limit=context_limit_in(detail))


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
