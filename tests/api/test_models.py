"""The model table and the request fields it produces, checked against what Claude Code 2.1.332
sends for each family (captured by running it with --model against the scripted server).

| family              | Claude Code sends (max_tokens, thinking, effort)          | we send            |
|---------------------|-----------------------------------------------------------|--------------------|
| claude-opus-5-5     | 128000, adaptive, medium                                  | same               |
| claude-sonnet-5-5   | 128000, adaptive, medium                                  | same               |
| claude-haiku-5-5    | 128000, adaptive, medium                                  | same               |
| claude-opus-5       | 64000, adaptive, high                                     | same               |
| claude-sonnet-5     | 64000, adaptive, high                                     | same               |
| claude-opus-4-8     | 64000, adaptive, high                                     | same               |
| claude-opus-4-7     | 64000, adaptive, xhigh                                    | same               |
| claude-opus-4-6     | 64000, adaptive, high (xhigh asked -> high)               | same               |
| claude-sonnet-4-6   | 32000, adaptive, high (xhigh asked -> high)               | same               |
| claude-opus-4-5     | 32000, enabled budget 31999, high (max asked -> high)     | same               |
| claude-sonnet-4-5   | 32000, enabled budget 31999, no effort                    | same               |
| claude-haiku-4-5    | 32000, enabled budget 31999, no effort                    | same               |
| claude-sonnet-4(-0) | 32000, enabled budget 31999, no effort                    | same               |
| claude-opus-4-1/4-0 | remapped to claude-opus-5-5 (retired)                     | own row: 32000,    |
|                     |                                                           | budget 31999       |
| claude-3-7-sonnet   | 32000, no thinking                                        | same               |
| claude-3-5-haiku    | 8192, no thinking                                         | same               |
| unknown id          | 32000, adaptive, high                                     | 8192, nothing else |

Every thinking request also carries context_management clear_thinking_20251015 keep "all";
Claude Code sends display "omitted" in -p (we do too) and the beta headers
interleaved-thinking-2025-05-14, context-management-2025-06-27, effort-2025-11-24 (we send
those three when the request uses them; Claude Code's own beta flags are not ours to send).
"""

from __future__ import annotations

import pytest

from claude_harness.api.models import (
    UNKNOWN_SPEC,
    family_of,
    resolve_alias,
    small_fast_model,
    spec_for,
    subagent_model,
)
from claude_harness.api.pricing import cost_usd
from claude_harness.api.request_params import (
    RequestSettings,
    betas_for,
    model_params,
    sdk_arguments,
    settings_from_sources,
)

P = RequestSettings(thinking_display="omitted")
ADAPTIVE = {"type": "adaptive", "display": "omitted"}


def budget(n: int) -> dict[str, object]:
    return {"type": "enabled", "budget_tokens": n, "display": "omitted"}


@pytest.mark.parametrize(("model", "max_tokens", "thinking", "effort"), [
    ("claude-opus-5-5", 128_000, ADAPTIVE, "medium"),
    ("claude-sonnet-5-5", 128_000, ADAPTIVE, "medium"),
    ("claude-haiku-5-5", 128_000, ADAPTIVE, "medium"),
    ("claude-opus-5", 64_000, ADAPTIVE, "high"),
    ("claude-sonnet-5", 64_000, ADAPTIVE, "high"),
    ("claude-opus-4-8", 64_000, ADAPTIVE, "high"),
    ("claude-opus-4-7", 64_000, ADAPTIVE, "xhigh"),
    ("claude-opus-4-6", 64_000, ADAPTIVE, "high"),
    ("claude-sonnet-4-6", 32_000, ADAPTIVE, "high"),
    ("claude-opus-4-5-20251101", 32_000, budget(31_999), "high"),
    ("claude-sonnet-4-5", 32_000, budget(31_999), None),
    ("claude-haiku-4-5", 32_000, budget(31_999), None),
    ("claude-sonnet-4-20250514", 32_000, budget(31_999), None),
    ("claude-opus-4-1", 32_000, budget(31_999), None),
    ("claude-3-7-sonnet-20250219", 32_000, None, None),
    ("claude-3-5-haiku-20241022", 8_192, None, None),
    ("us.anthropic.claude-opus-4-8-v1:0", 64_000, ADAPTIVE, "high"),
    ("claude-opus-4-8@20260101", 64_000, ADAPTIVE, "high"),
    ("some-proxy-model", 8_192, None, None),
])
def test_default_request_fields_per_family(model, max_tokens, thinking, effort):
    params = model_params(model, P)
    assert params["max_tokens"] == max_tokens
    assert params.get("thinking") == thinking
    assert params.get("output_config") == ({"effort": effort} if effort else None)
    assert ("context_management" in params) == (thinking is not None)


def test_effort_is_clamped_to_what_the_model_takes():
    assert model_params("claude-opus-4-6", RequestSettings(effort="xhigh"))["output_config"] == {
        "effort": "high"}
    assert model_params("claude-opus-4-5", RequestSettings(effort="max"))["output_config"] == {
        "effort": "high"}
    assert "output_config" not in model_params("claude-sonnet-4-5", RequestSettings(effort="low"))
    assert model_params("claude-opus-5-5", RequestSettings(), ultrathink=True)[
        "output_config"] == {"effort": "max"}


def test_thinking_controls():
    off = model_params("claude-opus-5-5", RequestSettings(thinking=False))
    assert off["thinking"] == {"type": "disabled"} and "context_management" not in off
    assert model_params("claude-sonnet-4-5", RequestSettings(thinking_budget=5000))[
        "thinking"]["budget_tokens"] == 5000
    assert model_params("claude-sonnet-4-5", RequestSettings(thinking_budget=100))[
        "thinking"]["budget_tokens"] == 1024
    small = model_params("claude-sonnet-4-5", RequestSettings(max_output_tokens=1000))
    assert small["max_tokens"] == 1000 and "thinking" not in small  # no room for a budget
    assert model_params("claude-opus-5-5", RequestSettings(max_output_tokens=10**6))[
        "max_tokens"] == 128_000
    assert model_params("proxy", RequestSettings(max_output_tokens=50_000))["max_tokens"] == 50_000


def test_settings_follow_claude_codes_precedence():
    settings, warnings = settings_from_sources(
        {"CLAUDE_CODE_EFFORT_LEVEL": "LOW", "MAX_THINKING_TOKENS": "0",
         "CLAUDE_CODE_MAX_OUTPUT_TOKENS": "2000"}, flag_effort="max", settings_effort="high")
    assert (settings.effort, settings.thinking, settings.max_output_tokens) == ("low", False, 2000)
    assert warnings == []
    settings, warnings = settings_from_sources({"CLAUDE_CODE_EFFORT_LEVEL": "extreme"},
                                               flag_effort="max", interactive=False)
    assert settings.effort == "max" and settings.thinking_display == "omitted"
    assert "extreme" in warnings[0]
    settings, _ = settings_from_sources({}, settings_effort="high", always_thinking=False)
    assert settings.effort == "high" and not settings.thinking
    _, warnings = settings_from_sources({"MAX_THINKING_TOKENS": "lots"})
    assert "MAX_THINKING_TOKENS" in warnings[0]


def test_betas_and_sdk_arguments():
    request = {"model": "claude-opus-5-5", **model_params("claude-opus-5-5", P)}
    assert betas_for(request) == ["interleaved-thinking-2025-05-14",
                                  "context-management-2025-06-27", "effort-2025-11-24"]
    kwargs = sdk_arguments(request)
    assert kwargs["extra_body"] == {"context_management": request["context_management"]}
    assert "context_management" not in kwargs
    assert kwargs["extra_headers"]["anthropic-beta"].count(",") == 2
    assert "extra_headers" not in sdk_arguments({"model": "claude-3-5-haiku", "max_tokens": 5})


def test_aliases_and_side_models(monkeypatch):
    env = {"ANTHROPIC_DEFAULT_SONNET_MODEL": "claude-sonnet-4-6"}
    assert resolve_alias("sonnet", env) == "claude-sonnet-4-6"
    assert resolve_alias("opus", {}) == "claude-opus-5-5"
    assert resolve_alias("claude-opus-4-8", {}) == "claude-opus-4-8"
    assert small_fast_model({}) == "claude-haiku-5-5"
    assert small_fast_model({"ANTHROPIC_DEFAULT_HAIKU_MODEL": "claude-haiku-4-5"}) == \
        "claude-haiku-4-5"
    assert small_fast_model({"ANTHROPIC_SMALL_FAST_MODEL": "x-fast"}) == "x-fast"
    assert subagent_model(None, "claude-opus-5-5", {"CLAUDE_CODE_SUBAGENT_MODEL": "haiku"}) == \
        "claude-haiku-5-5"
    assert subagent_model("sonnet", "claude-opus-5-5", {}) == "claude-sonnet-5-5"
    assert family_of("claude-opus-6") is None and spec_for("claude-opus-6") is UNKNOWN_SPEC


def test_prices_as_claude_code_bills_them():
    # Observed: 283 input + 11687 cache-write + 8 output tokens on claude-opus-5-5 cost $0.059727,
    # 288 input + 11795 cache-read + 8 output cost $0.003671.
    assert cost_usd("claude-opus-5-5", {"input_tokens": 283, "cache_creation_input_tokens": 11687,
                                        "output_tokens": 8}) == pytest.approx(0.059727)
    assert cost_usd("claude-opus-5-5", {"input_tokens": 288, "cache_read_input_tokens": 11795,
                                        "output_tokens": 8}) == pytest.approx(0.003671)
    assert cost_usd("claude-opus-4-8", {"input_tokens": 276, "cache_creation_input_tokens": 11738,
                                        "output_tokens": 8}) == pytest.approx(0.0749425)
    assert cost_usd("claude-haiku-5-5", {"input_tokens": 288, "cache_creation_input_tokens": 4645,
                                         "cache_read_input_tokens": 7811, "output_tokens": 8}
                    ) == pytest.approx(0.000691535)
