"""What a request cost and how much context a model has, read from the model table."""

from __future__ import annotations

from collections.abc import Mapping

from claude_harness.api.models import Price, spec_for

__all__ = ["Price", "context_window_for", "cost_usd", "price_for"]


def price_for(model: str) -> Price:
    return spec_for(model).price


def context_window_for(model: str) -> int:
    return spec_for(model).context_window


def cost_usd(model: str, usage: Mapping[str, int]) -> float:
    """US dollars for one response's usage (thinking is part of output_tokens)."""
    price = price_for(model)
    return (
        usage.get("input_tokens", 0) * price.input
        + usage.get("output_tokens", 0) * price.output
        + usage.get("cache_creation_input_tokens", 0) * price.cache_write
        + usage.get("cache_read_input_tokens", 0) * price.cache_read
    ) / 1_000_000
