"""The per-model part of a Messages request: max_tokens, thinking, effort, context management.

`RequestSettings` holds what the user chose (flags, settings, environment), independent of the
model; `model_params()` turns it and a model id into the request fields, reading the model
table, so a model switch mid-session needs nothing else. Claude Code's precedence is kept:

  effort      CLAUDE_CODE_EFFORT_LEVEL > --effort > settings `effortLevel` > the model's default,
              then clamped to what the model accepts (xhigh on a model without it becomes high)
  thinking    on by default where the model thinks; MAX_THINKING_TOKENS=0 or settings
              `alwaysThinkingEnabled: false` turn it off; MAX_THINKING_TOKENS=N sets the budget
              of models that only take budgeted thinking (adaptive models decide for themselves)
  max_tokens  CLAUDE_CODE_MAX_OUTPUT_TOKENS, capped at the model's maximum; else its default

Old thinking is handled by the API's `clear_thinking_20251015` edit with `keep: "all"`, as
Claude Code sends it: thinking blocks stay in the prompt, so the cached prefix never changes
under the conversation (clearing older turns would move the cache boundary every turn).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from claude_harness.api.models import (
    EFFORT_LEVELS,
    MIN_THINKING_BUDGET,
    EffortLevel,
    ModelSpec,
    spec_for,
)

ThinkingDisplay = Literal["summarized", "omitted"]
CLEAR_THINKING = {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]}
ULTRATHINK = re.compile(r"\bultrathink\b", re.IGNORECASE)
ULTRATHINK_EFFORT: EffortLevel = "max"

BETA_INTERLEAVED_THINKING = "interleaved-thinking-2025-05-14"
BETA_CONTEXT_MANAGEMENT = "context-management-2025-06-27"
BETA_EFFORT = "effort-2025-11-24"
# Request keys the SDK's `messages.create` has no argument for: sent through `extra_body`.
EXTRA_BODY_KEYS = frozenset({"context_management"})


@dataclass(frozen=True)
class RequestSettings:
    """The user's choices that shape every request, whatever the model."""

    effort: EffortLevel | None = None  # None: the model's default
    thinking: bool = True
    thinking_budget: int | None = None  # MAX_THINKING_TOKENS for budget-only models
    max_output_tokens: int | None = None  # CLAUDE_CODE_MAX_OUTPUT_TOKENS
    thinking_display: ThinkingDisplay = "summarized"

    def with_effort(self, effort: EffortLevel | None) -> RequestSettings:
        """/effort: a new level for the rest of the session (None: back to the default)."""
        return replace(self, effort=effort)

    def toggled_thinking(self) -> RequestSettings:
        """Alt+T: thinking on or off for the following requests."""
        return replace(self, thinking=not self.thinking)


# Side requests (WebFetch answers, WebSearch): no thinking (a forced tool_choice forbids it) and
# little effort; they are short errands for the main model.
SIDE_REQUEST_SETTINGS = RequestSettings(effort="low", thinking=False)
SIDE_REQUEST_MAX_TOKENS = 8_192


def side_request_params(model: str) -> dict[str, Any]:
    """max_tokens, thinking and effort for a side request to `model`."""
    params = model_params(model, SIDE_REQUEST_SETTINGS)
    params["max_tokens"] = min(params["max_tokens"], SIDE_REQUEST_MAX_TOKENS)
    return params


def parse_effort(value: Any) -> EffortLevel | None:
    """A valid effort level from a flag, setting or variable (case-insensitive), else None."""
    if not isinstance(value, str):
        return None
    lowered = value.strip().lower()
    for level in EFFORT_LEVELS:
        if level == lowered:
            return level
    return None


def _positive_int(value: str | None) -> int | None:
    if value is None or not value.strip():
        return None
    try:
        number = int(value.strip())
    except ValueError:
        return None
    return number if number >= 0 else None


def settings_from_sources(
    env: Mapping[str, str] | None = None,
    *,
    flag_effort: str | None = None,
    settings_effort: Any = None,
    always_thinking: Any = None,
    interactive: bool = True,
) -> tuple[RequestSettings, list[str]]:
    """RequestSettings from the environment, `--effort` and settings; also the warnings for
    values that were ignored (an unknown effort level, a non-numeric token count)."""
    env = os.environ if env is None else env
    warnings: list[str] = []
    effort = None
    for source, raw in (("CLAUDE_CODE_EFFORT_LEVEL", env.get("CLAUDE_CODE_EFFORT_LEVEL")),
                        ("--effort", flag_effort), ("effortLevel", settings_effort)):
        if raw is None or raw == "":
            continue
        effort = parse_effort(raw)
        if effort is not None:
            break
        warnings.append(f"{source}={raw!r} is not an effort level "
                        f"({', '.join(EFFORT_LEVELS)}); ignored.")
    thinking = always_thinking is not False
    budget = None
    raw_budget = env.get("MAX_THINKING_TOKENS")
    if raw_budget is not None and raw_budget.strip():
        parsed = _positive_int(raw_budget)
        if parsed is None:
            warnings.append(f"MAX_THINKING_TOKENS={raw_budget!r} is not a number; ignored.")
        elif parsed == 0:
            thinking = False
        else:
            budget = parsed
    max_out = None
    raw_max = env.get("CLAUDE_CODE_MAX_OUTPUT_TOKENS")
    if raw_max is not None and raw_max.strip():
        max_out = _positive_int(raw_max) or None
        if max_out is None:
            warnings.append(f"CLAUDE_CODE_MAX_OUTPUT_TOKENS={raw_max!r} is not a positive "
                            "number; ignored.")
    display: ThinkingDisplay = "summarized" if interactive else "omitted"
    return RequestSettings(effort, thinking, budget, max_out, display), warnings


def wants_ultrathink(text: str) -> bool:
    """The prompt asks for the deepest reasoning on this turn."""
    return bool(ULTRATHINK.search(text))


def max_tokens_for(spec: ModelSpec, settings: RequestSettings) -> int:
    if settings.max_output_tokens is None:
        return spec.default_max_tokens
    if not spec.known:  # the user knows this model better than we do
        return settings.max_output_tokens
    return max(1, min(settings.max_output_tokens, spec.max_output_tokens))


def _thinking(spec: ModelSpec, settings: RequestSettings, max_tokens: int,
              ultrathink: bool) -> dict[str, Any] | None:
    if spec.thinking == "none":
        return None
    if not settings.thinking:
        return {"type": "disabled"}
    if spec.thinking == "adaptive":
        return {"type": "adaptive", "display": settings.thinking_display}
    if max_tokens <= MIN_THINKING_BUDGET:
        return None  # no room for the API's smallest budget: leave thinking out
    budget = max_tokens - 1
    if settings.thinking_budget is not None and not ultrathink:
        budget = min(max(settings.thinking_budget, MIN_THINKING_BUDGET), max_tokens - 1)
    return {"type": "enabled", "budget_tokens": budget, "display": settings.thinking_display}


def _effort(spec: ModelSpec, settings: RequestSettings, ultrathink: bool) -> EffortLevel | None:
    wanted = ULTRATHINK_EFFORT if ultrathink else (settings.effort or spec.default_effort)
    if wanted is None:
        return None
    return spec.clamp_effort(wanted)


def model_params(model: str, settings: RequestSettings, *,
                 ultrathink: bool = False) -> dict[str, Any]:
    """The request fields that depend on the model, in the order they are sent."""
    spec = spec_for(model)
    max_tokens = max_tokens_for(spec, settings)
    params: dict[str, Any] = {"max_tokens": max_tokens}
    thinking = _thinking(spec, settings, max_tokens, ultrathink)
    if thinking is not None:
        params["thinking"] = thinking
        if thinking["type"] != "disabled":
            params["context_management"] = CLEAR_THINKING
    effort = _effort(spec, settings, ultrathink)
    if effort is not None:
        params["output_config"] = {"effort": effort}
    return params


_EXTRA_BETAS: list[str] = []  # --betas: sent with every request of this process


def set_extra_betas(names: Sequence[str]) -> None:
    """`--betas`: features the user asked for, added to every request's `anthropic-beta`."""
    _EXTRA_BETAS[:] = [n for n in dict.fromkeys(names) if n]


def betas_for(request: Mapping[str, Any]) -> list[str]:
    """The `anthropic-beta` features a request body uses, then those of `--betas`."""
    betas: list[str] = []
    thinking = request.get("thinking")
    if isinstance(thinking, dict) and thinking.get("type") in ("enabled", "adaptive"):
        betas.append(BETA_INTERLEAVED_THINKING)
    if request.get("context_management"):
        betas.append(BETA_CONTEXT_MANAGEMENT)
    output_config = request.get("output_config")
    if isinstance(output_config, dict) and output_config.get("effort"):
        betas.append(BETA_EFFORT)
    return betas + [b for b in _EXTRA_BETAS if b not in betas]


def sdk_arguments(request: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments for the SDK's `messages.create`: fields it has no parameter for go in
    `extra_body`, the beta features in the `anthropic-beta` header."""
    kwargs = {k: v for k, v in request.items() if k not in EXTRA_BODY_KEYS}
    extra = {k: v for k, v in request.items() if k in EXTRA_BODY_KEYS}
    if extra:
        kwargs["extra_body"] = extra
    betas = betas_for(request)
    if betas:
        kwargs["extra_headers"] = {"anthropic-beta": ",".join(betas)}
    return kwargs
