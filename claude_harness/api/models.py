"""The model table: one row per model family, and the names users type for them.

Every request parameter that depends on the model comes from here: the context window, the
default and largest `max_tokens`, whether the model takes adaptive thinking
(`{"type": "adaptive"}`), only budgeted thinking (`{"type": "enabled", "budget_tokens": N}`) or
none, the effort levels it accepts, and its prices. The figures are what Claude Code 2.1.332
sends and bills for each family (observed against the scripted server); see
`tests/api/test_models.py` for the table of requests per family.

A model id is matched by family, so dated snapshots (`claude-opus-4-5-20251101`), Bedrock ids
(`us.anthropic.claude-opus-4-8-v1:0`) and Vertex ids (`claude-opus-4-8@20260101`) find their
row. An id that matches no row gets `UNKNOWN_SPEC`: no thinking and no effort (parameters such a
model may refuse) and a modest `max_tokens`, and the caller shows `unknown_model_notice()` once.

Stdlib only: the scripted server and `--help` import this without the SDK.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

DEFAULT_MODEL = "claude-sonnet-5-5"
ALIAS_DEFAULTS = {
    "opus": "claude-opus-5-5",
    "sonnet": "claude-sonnet-5-5",
    "haiku": "claude-haiku-5-5",
}
ALIAS_ENV = {
    "opus": "ANTHROPIC_DEFAULT_OPUS_MODEL",
    "sonnet": "ANTHROPIC_DEFAULT_SONNET_MODEL",
    "haiku": "ANTHROPIC_DEFAULT_HAIKU_MODEL",
}
MODEL_ALIASES = ALIAS_DEFAULTS  # the names users may type; kept for /model listings

EffortLevel = Literal["low", "medium", "high", "xhigh", "max"]
EFFORT_LEVELS: tuple[EffortLevel, ...] = ("low", "medium", "high", "xhigh", "max")
ThinkingKind = Literal["adaptive", "budget", "none"]
MIN_THINKING_BUDGET = 1024  # the API's floor for budget_tokens


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens."""

    input: float
    output: float
    cache_write: float
    cache_read: float

    @classmethod
    def standard(cls, input: float, output: float) -> Price:  # noqa: A002 - the API's word
        """The usual ratios: a cache write costs 1.25x input, a cache read 0.1x."""
        return cls(input, output, input * 1.25, input * 0.1)


@dataclass(frozen=True)
class ModelSpec:
    """What one model family accepts and costs."""

    family: str
    context_window: int
    default_max_tokens: int
    max_output_tokens: int
    thinking: ThinkingKind
    price: Price
    efforts: tuple[EffortLevel, ...] = ()
    default_effort: EffortLevel | None = None
    known: bool = True

    def clamp_effort(self, wanted: EffortLevel) -> EffortLevel | None:
        """The accepted level for `wanted`: itself, else the highest accepted level below it,
        else the lowest accepted one (the API's own fallback); None when effort is not taken."""
        if not self.efforts:
            return None
        if wanted in self.efforts:
            return wanted
        rank = EFFORT_LEVELS.index(wanted)
        below: list[EffortLevel] = [e for e in self.efforts if EFFORT_LEVELS.index(e) < rank]
        return below[-1] if below else self.efforts[0]


ALL_EFFORTS = EFFORT_LEVELS
NO_XHIGH: tuple[EffortLevel, ...] = ("low", "medium", "high", "max")
_M = 1_000_000


def _adaptive(family: str, window: int, default: int, effort: EffortLevel, price: Price,
              efforts: tuple[EffortLevel, ...] = ALL_EFFORTS, maximum: int = 128_000) -> ModelSpec:
    return ModelSpec(family, window, default, maximum, "adaptive", price, efforts, effort)


def _budget(family: str, default: int, maximum: int, price: Price, *,
            efforts: tuple[EffortLevel, ...] = (), effort: EffortLevel | None = None) -> ModelSpec:
    return ModelSpec(family, 200_000, default, maximum, "budget", price, efforts, effort)


# Keyed by family id. Claude Code remaps the retired claude-opus-4-1 / claude-opus-4-0 to
# claude-opus-5-5; we keep their own rows (a user who names them gets what they asked for).
MODEL_TABLE: dict[str, ModelSpec] = {spec.family: spec for spec in (
    _adaptive("claude-opus-5-5", _M, 128_000, "medium", Price(4.0, 20.0, 5.0, 0.2)),
    _adaptive("claude-sonnet-5-5", _M, 128_000, "medium", Price(2.0, 10.0, 2.5, 0.1)),
    _adaptive("claude-haiku-5-5", _M, 128_000, "medium", Price(0.1, 0.5, 0.125, 0.01)),
    _adaptive("claude-fable-5-2", _M, 128_000, "medium", Price(8.0, 40.0, 10.0, 0.2)),
    _adaptive("claude-mythos-5-2", _M, 128_000, "medium", Price(8.0, 40.0, 10.0, 0.2)),
    _adaptive("claude-fable-5-1", _M, 64_000, "high", Price(10.0, 50.0, 12.5, 0.25)),
    _adaptive("claude-mythos-5-1", _M, 64_000, "high", Price(10.0, 50.0, 12.5, 0.25)),
    _adaptive("claude-fable-5", _M, 64_000, "high", Price.standard(10.0, 50.0)),
    _adaptive("claude-mythos-5", _M, 64_000, "high", Price.standard(10.0, 50.0)),
    _adaptive("claude-opus-5", _M, 64_000, "high", Price.standard(5.0, 25.0)),
    _adaptive("claude-sonnet-5", _M, 64_000, "high", Price.standard(2.0, 10.0)),
    _adaptive("claude-mythos-preview", _M, 32_000, "high", Price(4.0, 20.0, 5.0, 0.2)),
    _adaptive("claude-opus-4-8", _M, 64_000, "high", Price.standard(5.0, 25.0)),
    _adaptive("claude-opus-4-7", _M, 64_000, "xhigh", Price.standard(5.0, 25.0)),
    _adaptive("claude-opus-4-6", 200_000, 64_000, "high", Price.standard(5.0, 25.0), NO_XHIGH),
    _adaptive("claude-sonnet-4-6", 200_000, 32_000, "high", Price.standard(3.0, 15.0), NO_XHIGH),
    _budget("claude-opus-4-5", 32_000, 64_000, Price.standard(5.0, 25.0),
            efforts=("low", "medium", "high"), effort="high"),
    _budget("claude-sonnet-4-5", 32_000, 64_000, Price.standard(3.0, 15.0)),
    _budget("claude-haiku-4-5", 32_000, 64_000, Price.standard(1.0, 5.0)),
    _budget("claude-opus-4-1", 32_000, 32_000, Price.standard(15.0, 75.0)),
    _budget("claude-opus-4", 32_000, 32_000, Price.standard(15.0, 75.0)),
    _budget("claude-sonnet-4", 32_000, 64_000, Price.standard(3.0, 15.0)),
    # Claude Code never asks 3.7 Sonnet to think; neither do we.
    ModelSpec("claude-3-7-sonnet", 200_000, 32_000, 64_000, "none", Price.standard(3.0, 15.0)),
    ModelSpec("claude-3-5-sonnet", 200_000, 8_192, 8_192, "none", Price.standard(3.0, 15.0)),
    ModelSpec("claude-3-5-haiku", 200_000, 8_192, 8_192, "none", Price.standard(0.8, 4.0)),
)}

# Families whose thinking cannot be turned off by the user (Claude Code 2.1.332 marks them
# `rejects_disabled_thinking`): Alt+T says so instead of asking for thinking off.
THINKING_ALWAYS_ON = frozenset({
    "claude-haiku-5-5", "claude-sonnet-5-5", "claude-opus-5-5", "claude-fable-5",
    "claude-fable-5-1", "claude-fable-5-2", "claude-mythos-5-1", "claude-mythos-5-2",
})

# An id we cannot place: nothing the model might refuse, and an output cap every model takes.
UNKNOWN_SPEC = ModelSpec("unknown", 200_000, 8_192, 8_192, "none", Price.standard(3.0, 15.0),
                         known=False)

_LINES = "opus|sonnet|haiku|fable|mythos"
# claude-opus-4-5, claude-opus-4-20250514 (version 4, dated), claude-sonnet-4-0, claude-opus-5
_NEW_STYLE = re.compile(rf"claude-({_LINES})-(\d+)(?:-(\d{{1,2}}))?(?![0-9])")
_OLD_STYLE = re.compile(rf"claude-(\d+)(?:-(\d))?-({_LINES})")


def family_of(model: str) -> str | None:
    """The table key for a model id, or None when it names no family we know."""
    lowered = model.lower()
    if "claude-mythos-preview" in lowered:
        return "claude-mythos-preview"
    if match := _NEW_STYLE.search(lowered):
        line, major, minor = match.groups()
        version = major if minor in (None, "0") else f"{major}-{minor}"
        family = f"claude-{line}-{version}"
    elif match := _OLD_STYLE.search(lowered):
        major, minor, line = match.groups()
        family = f"claude-{major}-{minor}-{line}" if minor else f"claude-{major}-{line}"
    else:
        return None
    return family if family in MODEL_TABLE else None


def spec_for(model: str) -> ModelSpec:
    """The row for `model` (an id, not an alias), or UNKNOWN_SPEC."""
    family = family_of(model)
    return MODEL_TABLE[family] if family is not None else UNKNOWN_SPEC


def unknown_model_notice(model: str) -> str:
    return (f"Model {model!r} is not in the model table: sending it without thinking or effort "
            f"and with max_tokens {UNKNOWN_SPEC.default_max_tokens} "
            "(set CLAUDE_CODE_MAX_OUTPUT_TOKENS to change that).")


def resolve_alias(model: str, env: Mapping[str, str] | None = None) -> str:
    """`opus` / `sonnet` / `haiku` to a model id (ANTHROPIC_DEFAULT_*_MODEL wins); ids pass."""
    env = os.environ if env is None else env
    key = model.strip().lower()
    if key in ALIAS_DEFAULTS:
        return env.get(ALIAS_ENV[key]) or ALIAS_DEFAULTS[key]
    return model


def small_fast_model(env: Mapping[str, str] | None = None) -> str:
    """The model for side requests (WebFetch summaries): ANTHROPIC_SMALL_FAST_MODEL, else the
    haiku alias."""
    env = os.environ if env is None else env
    return env.get("ANTHROPIC_SMALL_FAST_MODEL") or resolve_alias("haiku", env)


def subagent_model(requested: str | None, parent: str,
                   env: Mapping[str, str] | None = None) -> str:
    """A sub-agent's model: the one asked for (the Agent call or the agent's definition), else
    CLAUDE_CODE_SUBAGENT_MODEL, else the parent's."""
    env = os.environ if env is None else env
    chosen = requested or env.get("CLAUDE_CODE_SUBAGENT_MODEL") or parent
    return resolve_alias(chosen, env)
