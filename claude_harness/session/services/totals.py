"""The session's running totals: what every request cost and how full the context is."""

from __future__ import annotations

from dataclasses import dataclass

from claude_harness.api.pricing import context_window_for
from claude_harness.protocol.events import SideUsage, TotalsChanged, Usage


@dataclass
class Totals:
    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    last_context_tokens: int = 0  # prompt size of the latest request: context use
    api_turns: int = 0
    api_seconds: float = 0.0

    def add(self, usage: Usage | SideUsage) -> None:
        """Count a request's tokens and cost; only the conversation's own requests (Usage) say
        how full the context is."""
        self.cost_usd += usage.cost_usd
        self.input_tokens += usage.input_tokens
        self.output_tokens += usage.output_tokens
        self.cache_read_tokens += usage.cache_read_input_tokens
        self.cache_write_tokens += usage.cache_creation_input_tokens
        if isinstance(usage, Usage):
            self.last_context_tokens = usage.context_tokens
            self.api_turns += 1
            self.api_seconds += usage.api_seconds

    def event(self, model: str) -> TotalsChanged:
        """The totals as front ends see them, with the context share of `model`'s window."""
        window = context_window_for(model)
        prompt = self.input_tokens + self.cache_read_tokens + self.cache_write_tokens
        return TotalsChanged(
            cost_usd=self.cost_usd, input_tokens=self.input_tokens,
            output_tokens=self.output_tokens, cache_read_tokens=self.cache_read_tokens,
            cache_write_tokens=self.cache_write_tokens, api_turns=self.api_turns,
            api_seconds=self.api_seconds, context_tokens=self.last_context_tokens,
            context_percent=100.0 * self.last_context_tokens / window if window else 0.0,
            cache_read_percent=100.0 * self.cache_read_tokens / prompt if prompt else None)
