"""What a request cost and how much context a model has, read from the model table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from claude_harness.api.models import Price, spec_for

__all__ = ["Price", "context_window_for", "cost_usd", "price_for"]


def price_for(model: str) -> Price:
    return spec_for(model).price


def context_window_for(model: str) -> int:
    return spec_for(model).context_window


WEB_SEARCH_USD = 0.01  # per search the web search server tool makes ($10 per 1,000)


def cost_usd(model: str, usage: Mapping[str, Any]) -> float:
    """US dollars for one response's usage (thinking is part of output_tokens), searches of
    the web search server tool included (`usage.server_tool_use.web_search_requests`)."""
    price = price_for(model)
    server_tools = usage.get("server_tool_use")  # the API's shape; the stream keeps it flat
    searches = (server_tools.get("web_search_requests", 0) if isinstance(server_tools, Mapping)
                else usage.get("web_search_requests", 0))
    return (
        usage.get("input_tokens", 0) * price.input
        + usage.get("output_tokens", 0) * price.output
        + usage.get("cache_creation_input_tokens", 0) * price.cache_write
        + usage.get("cache_read_input_tokens", 0) * price.cache_read
    ) / 1_000_000 + (searches or 0) * WEB_SEARCH_USD
