"""Prices per million tokens, in one place. Cache writes cost 1.25x input, cache reads 0.1x."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Price:
    input: float
    output: float

    @property
    def cache_write(self) -> float:
        return self.input * 1.25

    @property
    def cache_read(self) -> float:
        return self.input * 0.1


# Matched by substring of the model id, most specific first.
PRICES: tuple[tuple[str, Price], ...] = (
    ("opus-4-0", Price(15.0, 75.0)),
    ("opus-4-1", Price(15.0, 75.0)),
    ("opus", Price(5.0, 25.0)),
    ("sonnet", Price(3.0, 15.0)),
    ("haiku-3", Price(0.8, 4.0)),
    ("haiku", Price(1.0, 5.0)),
)
DEFAULT_PRICE = Price(3.0, 15.0)

CONTEXT_WINDOWS: tuple[tuple[str, int], ...] = (("", 200_000),)


def price_for(model: str) -> Price:
    for key, price in PRICES:
        if key in model:
            return price
    return DEFAULT_PRICE


def context_window_for(model: str) -> int:
    for key, size in CONTEXT_WINDOWS:
        if key in model:
            return size
    return 200_000


def cost_usd(model: str, usage: dict[str, int]) -> float:
    price = price_for(model)
    return (
        usage.get("input_tokens", 0) * price.input
        + usage.get("output_tokens", 0) * price.output
        + usage.get("cache_creation_input_tokens", 0) * price.cache_write
        + usage.get("cache_read_input_tokens", 0) * price.cache_read
    ) / 1_000_000
