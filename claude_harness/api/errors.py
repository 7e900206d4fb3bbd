"""API failures as the harness sees them: retryable or not, with a one-line message for people."""

from __future__ import annotations


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
