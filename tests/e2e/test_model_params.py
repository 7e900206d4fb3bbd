"""What the binary asks of each model: max_tokens, thinking, effort, context management and the
beta header, from the model table and the user's controls; and thinking blocks that survive
tools and a resume. The scripted server refuses what the real API refuses for that model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anthropic
import pytest

from tests.e2e.support import run_cli

CLEAR = {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]}
ADAPTIVE = {"type": "adaptive", "display": "omitted"}

# (model, flags, env, settings, expected request fields) -- the first rows are what Claude Code
# 2.1.332 sends for the same model (captured against the scripted server).
CASES: list[tuple[str, list[str], dict[str, str], dict[str, Any], dict[str, Any]]] = [
    ("claude-opus-5-5", [], {}, {},
     {"max_tokens": 128_000, "thinking": ADAPTIVE, "output_config": {"effort": "medium"},
      "context_management": CLEAR}),
    ("claude-opus-4-8", [], {}, {},
     {"max_tokens": 64_000, "thinking": ADAPTIVE, "output_config": {"effort": "high"}}),
    ("claude-opus-4-7", [], {}, {}, {"max_tokens": 64_000, "output_config": {"effort": "xhigh"}}),
    ("claude-sonnet-4-6", [], {}, {},
     {"max_tokens": 32_000, "thinking": ADAPTIVE, "output_config": {"effort": "high"}}),
    ("claude-sonnet-4-5", [], {}, {},
     {"max_tokens": 32_000, "thinking": {"type": "enabled", "budget_tokens": 31_999,
                                         "display": "omitted"},
      "context_management": CLEAR, "output_config": None}),
    ("claude-3-5-haiku-20241022", [], {}, {},
     {"max_tokens": 8_192, "thinking": None, "output_config": None, "context_management": None}),
    # the user's controls
    ("claude-opus-4-6", ["--effort", "xhigh"], {}, {}, {"output_config": {"effort": "high"}}),
    ("claude-opus-5-5", ["--effort", "max"], {"CLAUDE_CODE_EFFORT_LEVEL": "low"}, {},
     {"output_config": {"effort": "low"}}),
    ("claude-opus-5-5", [], {}, {"effortLevel": "high"}, {"output_config": {"effort": "high"}}),
    ("claude-sonnet-4-5", [], {"MAX_THINKING_TOKENS": "5000"}, {},
     {"thinking": {"type": "enabled", "budget_tokens": 5000, "display": "omitted"}}),
    ("claude-sonnet-4-5", [], {"MAX_THINKING_TOKENS": "0"}, {},
     {"thinking": {"type": "disabled"}, "context_management": None}),
    ("claude-opus-5-5", [], {}, {"alwaysThinkingEnabled": False},
     {"thinking": {"type": "disabled"}, "context_management": None}),
    ("claude-opus-5-5", [], {"CLAUDE_CODE_MAX_OUTPUT_TOKENS": "1000"}, {}, {"max_tokens": 1000}),
    ("claude-opus-5-5", [], {"CLAUDE_CODE_MAX_OUTPUT_TOKENS": "500000"}, {},
     {"max_tokens": 128_000}),
    ("opus", [], {"ANTHROPIC_DEFAULT_OPUS_MODEL": "claude-opus-4-8"}, {},
     {"model": "claude-opus-4-8", "max_tokens": 64_000}),
]


@pytest.mark.parametrize(("model", "flags", "env", "settings", "expected"), CASES,
                         ids=[f"{c[0]} {' '.join(c[1])} {c[2]} {c[3]}".strip() for c in CASES])
def test_request_parameters_per_model(project: Path, api: Any, monkeypatch: pytest.MonkeyPatch,
                                      model: str, flags: list[str], env: dict[str, str],
                                      settings: dict[str, Any], expected: dict[str, Any]) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    server = api(["hi"])
    args = ["-p", "say hi", "--model", model, *flags]
    if settings:
        args += ["--settings", json.dumps(settings)]
    proc = run_cli(args, project)
    assert proc.returncode == 0, proc.stderr
    (request,) = server.requests
    for key, value in expected.items():
        assert request.get(key) == value, key
    betas = server.log[0]["headers"].get("anthropic-beta", "")
    assert ("context-management-2025-06-27" in betas) == ("context_management" in request)
    assert ("effort-2025-11-24" in betas) == ("output_config" in request)


def test_ultrathink_raises_effort_for_that_turn_only(project: Path, api: Any) -> None:
    server = api(["deep", "light"])
    first = run_cli(["-p", "ultrathink: why is the sky blue?", "--output-format", "json",
                     "--model", "claude-opus-5-5"], project)
    session = json.loads(first.stdout)["session_id"]
    run_cli(["-p", "and the sea?", "-r", session, "--model", "claude-opus-5-5"], project)
    assert [r["output_config"] for r in server.requests] == [{"effort": "max"},
                                                             {"effort": "medium"}]


def test_an_unknown_model_gets_safe_defaults_and_one_notice(project: Path, api: Any) -> None:
    server = api({"turns": ["fine"], "strict_unknown_models": True})
    proc = run_cli(["-p", "hi", "--model", "my-gateway-model", "--output-format", "json"],
                   project)
    assert proc.returncode == 0, proc.stderr
    (request,) = server.requests
    assert request["max_tokens"] == 8192
    assert not {"thinking", "output_config", "context_management"} & set(request)
    assert proc.stderr.count("not in the model table") == 1
    # The scripted server, like a gateway in front of such a model, refuses thinking for it:
    # what the harness would have got had it sent its defaults for a known model.
    client = anthropic.Anthropic(base_url=server.url, api_key="test-key", max_retries=0)
    with pytest.raises(anthropic.BadRequestError, match="does not support thinking"):
        client.messages.create(model="my-gateway-model", max_tokens=100,
                               messages=[{"role": "user", "content": "hi"}],
                               thinking={"type": "adaptive"})


THINK_TOOL = {"content": [{"type": "thinking", "thinking": "I should read the file first."},
                          {"type": "tool_use", "name": "Read",
                           "input": {"file_path": "{path}"}}]}


def test_signed_and_redacted_thinking_survive_tools_and_a_resume(project: Path,
                                                                  api: Any) -> None:
    app = str(project / "src" / "app.py")
    tool_turn = json.loads(json.dumps(THINK_TOOL).replace("{path}", app))
    tool_turn["content"].insert(1, {"type": "redacted_thinking"})
    first_server = api([tool_turn,
                        {"content": [{"type": "thinking", "thinking": "It greets."},
                                     "It greets the world."]}])
    first = run_cli(["-p", "what does app.py do?", "--output-format", "json",
                     "--model", "claude-opus-5-5"], project)
    assert first.returncode == 0, first.stderr
    session = json.loads(first.stdout)["session_id"]
    sent_back = first_server.requests[1]["messages"][-2]["content"]
    assert [b["type"] for b in sent_back] == ["thinking", "redacted_thinking", "tool_use"]
    assert sent_back[0]["thinking"] == ""  # -p asks for the thinking to be omitted
    # A new server process (as after a restart) accepts the blocks: they came back unchanged.
    resumed = api(["Yes."])
    second = run_cli(["-p", "sure?", "-r", session, "--output-format", "json",
                      "--model", "claude-opus-5-5"], project)
    assert second.returncode == 0, second.stderr
    history = resumed.requests[0]["messages"]
    thinking = [b for m in history if m["role"] == "assistant" for b in m["content"]
                if b["type"] in ("thinking", "redacted_thinking")]
    assert len(thinking) == 3
    assert thinking[0]["signature"] == sent_back[0]["signature"]


def test_a_changed_thinking_block_would_be_refused(project: Path, api: Any) -> None:
    """The check the previous test relies on is real: the server refuses an edited block."""
    from claude_harness.testing.script import sign_thinking

    server = api(["never"])
    forged = [{"role": "user", "content": "hi"},
              {"role": "assistant", "content": [
                  {"type": "thinking", "thinking": "edited", "signature": sign_thinking("orig")},
                  {"type": "text", "text": "hello"}]},
              {"role": "user", "content": "again"}]
    client = anthropic.Anthropic(base_url=server.url, api_key="test-key", max_retries=0)
    with pytest.raises(anthropic.BadRequestError, match="Invalid `signature`"):
        client.messages.create(model="claude-opus-5-5", max_tokens=100, messages=forged)
    assert server.remaining_turns == 1
