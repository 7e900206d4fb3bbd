"""One request beside the conversation (a compaction summary, a WebFetch answer, a WebSearch),
streamed, retried on transient failures, and accounted.

Its usage goes to the session's ledger (`ApiClient.record_side_usage`); the loop turns the
ledger into SideUsage events, so `/cost` and `-p`'s `total_cost_usd` include every request the
session made, not only the conversation's own.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from claude_harness.agent.messages import final_text
from claude_harness.agent.stream import StreamAccumulator
from claude_harness.api.client import ApiClient
from claude_harness.api.errors import ApiError


@dataclass(frozen=True)
class SideResult:
    message: dict[str, Any]  # the assistant message (completed blocks, unknown types verbatim)
    stop_reason: str | None
    usage: dict[str, int]

    @property
    def text(self) -> str:
        return final_text(self.message).strip()


async def side_query(api: ApiClient, request: dict[str, Any], *, purpose: str,
                     retries: int = 3) -> SideResult:
    """Run `request` (streamed) and return its answer; retryable failures are retried with the
    session's backoff, others raise ApiError."""
    for attempt in range(1, retries + 2):
        acc = StreamAccumulator()
        try:
            async for event in api.stream_once(request):
                acc.feed(event)
        except ApiError as exc:
            if acc.usage:
                api.record_side_usage(purpose, request.get("model", ""), acc.usage)
            if not exc.retryable or attempt > retries:
                raise
            await asyncio.sleep(api.backoff(attempt, exc.retry_after))
            continue
        api.record_side_usage(purpose, request.get("model", ""), acc.usage)
        return SideResult(acc.message(), acc.stop_reason, dict(acc.usage))
    raise AssertionError("unreachable")
