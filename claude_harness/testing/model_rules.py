"""The per-model request rules the real API enforces, checked by the scripted server.

The facts come from the model table (`claude_harness.api.models`), the one place the harness
and its tests read them from: the largest max_tokens, which thinking types a model takes (and
the budget's bounds), which effort levels, and what `context_management` may hold (and that it
needs its beta header, and thinking on, to clear thinking).
"""

from __future__ import annotations

from typing import Any

from claude_harness.api.models import EFFORT_LEVELS, MIN_THINKING_BUDGET, spec_for

CONTEXT_EDIT_TYPES = ("clear_thinking_20251015", "clear_tool_uses_20250919", "compact_20260112")
CONTEXT_BETA = "context-management-2025-06-27"
THINKING_DISPLAYS = ("summarized", "omitted")
# `display: "updates"` is accepted with this beta (Claude Code 2.1.332 sends both)
UPDATES_BETA_PREFIX = "thinking-display-updates-"


class ModelRuleBroken(ValueError):
    """str(exc) is the message sent back with HTTP 400."""


def _betas(headers: dict[str, str]) -> set[str]:
    raw = next((v for k, v in headers.items() if k.lower() == "anthropic-beta"), "")
    return {b.strip() for b in raw.split(",") if b.strip()}


def check_model_params(body: dict[str, Any], headers: dict[str, str], *,
                       strict_unknown: bool) -> None:
    """Raise ModelRuleBroken naming the first model parameter the API would refuse."""
    model = body["model"]
    spec = spec_for(model)
    thinking = body.get("thinking")
    effort = (body.get("output_config") or {}).get("effort") \
        if isinstance(body.get("output_config"), dict) else None
    _check_context_management(body.get("context_management"), thinking, headers)
    if not spec.known:
        if strict_unknown and (_thinking_on(thinking) or effort is not None
                               or body.get("context_management") is not None):
            raise ModelRuleBroken(f"model {model!r} does not support thinking, effort or "
                                  "context_management")
        return
    if body["max_tokens"] > spec.max_output_tokens:
        raise ModelRuleBroken(
            f"max_tokens: {body['max_tokens']} > {spec.max_output_tokens}, which is the maximum "
            f"allowed number of output tokens for {model}")
    _check_thinking(model, spec.thinking, thinking, body["max_tokens"], headers)
    if effort is not None:
        if effort not in EFFORT_LEVELS:
            raise ModelRuleBroken(f"output_config.effort: Input should be one of "
                                  f"{', '.join(EFFORT_LEVELS)} (got {effort!r})")
        if effort not in spec.efforts:
            raise ModelRuleBroken(f"output_config.effort: {effort!r} is not supported by "
                                  f"{model}")


def _thinking_on(thinking: Any) -> bool:
    return isinstance(thinking, dict) and thinking.get("type") in ("enabled", "adaptive")


def _check_thinking(model: str, kind: str, thinking: Any, max_tokens: int,
                    headers: dict[str, str]) -> None:
    if thinking is None:
        return
    if not isinstance(thinking, dict) or thinking.get("type") not in (
            "enabled", "adaptive", "disabled", "between_tools"):
        raise ModelRuleBroken("thinking.type: Input should be 'enabled', 'adaptive', "
                              "'disabled' or 'between_tools'")
    display = thinking.get("display")
    updates = display == "updates" and any(b.startswith(UPDATES_BETA_PREFIX)
                                           for b in _betas(headers))
    if display is not None and display not in THINKING_DISPLAYS and not updates:
        raise ModelRuleBroken(f"thinking.display: Input should be 'summarized' or 'omitted' "
                              f"(got {display!r})")
    if thinking["type"] == "adaptive" and kind != "adaptive":
        raise ModelRuleBroken(f"thinking.type: 'adaptive' is not supported by {model}; use "
                              "'enabled' with budget_tokens")
    if thinking["type"] == "enabled":
        if kind == "none":
            raise ModelRuleBroken(f"thinking: {model} does not support extended thinking")
        budget = thinking.get("budget_tokens")
        if not isinstance(budget, int) or budget < MIN_THINKING_BUDGET:
            raise ModelRuleBroken(f"thinking.budget_tokens: Input should be greater than or "
                                  f"equal to {MIN_THINKING_BUDGET}")
        if budget >= max_tokens:
            raise ModelRuleBroken("`max_tokens` must be greater than `thinking.budget_tokens`")


def _check_context_management(value: Any, thinking: Any, headers: dict[str, str]) -> None:
    if value is None:
        return
    if CONTEXT_BETA not in _betas(headers):
        raise ModelRuleBroken(f"context_management: Extra inputs are not permitted (it needs "
                              f"the anthropic-beta header {CONTEXT_BETA})")
    edits = value.get("edits") if isinstance(value, dict) else None
    if not isinstance(edits, list) or set(value) - {"edits"}:
        raise ModelRuleBroken("context_management: an object with an `edits` list is expected")
    for i, edit in enumerate(edits):
        kind = edit.get("type") if isinstance(edit, dict) else None
        if kind not in CONTEXT_EDIT_TYPES:
            raise ModelRuleBroken(f"context_management.edits.{i}.type: Input should be one of "
                                  f"{', '.join(CONTEXT_EDIT_TYPES)}")
        if kind == "clear_thinking_20251015":
            keep = edit.get("keep", "all")
            valid = keep == "all" or (isinstance(keep, dict) and (
                keep.get("type") == "all" or (keep.get("type") == "thinking_turns"
                                              and isinstance(keep.get("value"), int)
                                              and keep["value"] >= 1)))
            if not valid:
                raise ModelRuleBroken(f"context_management.edits.{i}.keep: expected 'all' or "
                                      "{'type': 'thinking_turns', 'value': N >= 1}")
            if not _thinking_on(thinking):
                raise ModelRuleBroken(f"context_management.edits.{i}: clear_thinking_20251015 "
                                      "requires thinking to be enabled")
