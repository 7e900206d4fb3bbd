"""What the SDK front end relies on in the session itself, checked in-process through ops and
events: program hook callbacks beside command hooks, a rewritten permission answer, the budget,
the fallback model, StructuredOutput, and raw stream events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.hooks.config import HookConfig
from claude_harness.hooks.runner import HookRunner
from claude_harness.protocol import ops
from claude_harness.protocol.events import (
    AssistantMessage,
    DenialRecorded,
    HookCallbackRequest,
    ModelFallback,
    Notice,
    PermissionRequest,
    StreamEvent,
    ToolResultEvent,
    TurnEnd,
)
from claude_harness.tools.structured_output import structured_output_tool
from tests.e2e.support import iter_op, make_engine, run_op, run_prompt
from tests.sdk.sdk_helpers import tool_use


def command_hooks(project: Path, session: Any, hooks: dict[str, Any]) -> HookRunner:
    config = HookConfig.from_sources([("userSettings", None, hooks)])
    return HookRunner(config, project_dir=project, session_id=session.session_id,
                      transcript_path="", get_permission_mode=lambda: "default")


def ending(events: list[Any]) -> TurnEnd:
    return next(e for e in events if isinstance(e, TurnEnd))


def results(events: list[Any]) -> list[ToolResultEvent]:
    return [e for e in events if isinstance(e, ToolResultEvent)]


async def test_a_callback_deny_outranks_a_command_hook_allow(project: Path,
                                                             scripted: Any) -> None:
    server = scripted([tool_use("Bash", {"command": "touch x.txt"}, "toolu_h1"), "ok"])
    session = make_engine(server, project, mode="bypassPermissions")
    session.config.hooks = command_hooks(project, session, {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\""
                                       ": {\"hookEventName\": \"PreToolUse\", "
                                       "\"permissionDecision\": \"allow\"}}'"}]}]})
    await run_op(session, ops.RegisterHookCallbacks((
        ops.HookCallbackMatcher("PreToolUse", "Bash", ("cb1",)),)))

    def answer(event: Any) -> Any:
        assert isinstance(event, HookCallbackRequest) and event.callback_id == "cb1"
        assert event.input["tool_input"] == {"command": "touch x.txt"}
        return ops.AnswerHookCallback(event.request_id, {"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "callback says no"}})

    events = await _run_answering(session, "go", HookCallbackRequest, answer)
    assert not (project / "x.txt").exists()
    [result] = results(events)
    assert result.is_error and "callback says no" in str(result.content)


async def test_a_failed_callback_decides_nothing_and_says_so(project: Path,
                                                             scripted: Any) -> None:
    server = scripted([tool_use("Bash", {"command": "touch y.txt"}, "toolu_h2"), "ok"])
    session = make_engine(server, project, mode="bypassPermissions")
    await run_op(session, ops.RegisterHookCallbacks((
        ops.HookCallbackMatcher("PreToolUse", None, ("cb2",)),
        ops.HookCallbackMatcher("NoSuchEvent", None, ("cb3",)))))

    events = await _run_answering(session, "go", HookCallbackRequest,
                                  lambda e: ops.AnswerHookCallback(e.request_id, None, "boom"))
    assert (project / "y.txt").exists()
    assert any(isinstance(e, Notice) and "boom" in e.text for e in events)


async def test_a_rewritten_answer_that_breaks_the_schema_is_denied(project: Path,
                                                                   scripted: Any) -> None:
    server = scripted([tool_use("Write", {"file_path": str(project / "n.txt"),
                                          "content": "x"}, "toolu_w9"), "ok"])
    session = make_engine(server, project, interactive=True)
    events = await _run_answering(
        session, "write", PermissionRequest,
        lambda e: ops.AnswerPermission(e.request_id, "yes", updated_input={"nope": 1}))
    assert not (project / "n.txt").exists()
    [result] = results(events)
    assert result.is_error and "rewrote the input into an invalid one" in str(result.content)
    assert [d.tool_use_id for d in events if isinstance(d, DenialRecorded)] == ["toolu_w9"]


async def test_the_budget_stops_before_the_calls_of_an_expensive_answer(project: Path,
                                                                        scripted: Any) -> None:
    server = scripted([tool_use("Bash", {"command": "touch spent.txt"}, "toolu_b1"), "never"])
    session = make_engine(server, project, mode="bypassPermissions", max_budget_usd=0.00001)
    events = await run_prompt(session, "spend")
    assert ending(events).reason == "max_budget"
    assert not (project / "spent.txt").exists()
    assert len(server.requests) == 1
    [result] = results(events)  # the history stays valid: the call has a result
    assert result.is_error


async def test_the_fallback_model_answers_after_three_overloads(project: Path,
                                                                scripted: Any) -> None:
    busy = {"fault": {"status": 529}}
    server = scripted([busy, busy, busy, "from the fallback"])
    session = make_engine(server, project, fallback_model="claude-haiku-5-5")
    events = await run_prompt(session, "hi")
    [switch] = [e for e in events if isinstance(e, ModelFallback)]
    assert (switch.original_model, switch.fallback_model) == ("claude-sonnet-5-5",
                                                               "claude-haiku-5-5")
    [answer] = [e for e in events if isinstance(e, AssistantMessage)]
    assert answer.model == "claude-haiku-5-5" and answer.message_id.startswith("msg_")
    assert [r["model"] for r in server.requests] == ["claude-sonnet-5-5"] * 3 + [
        "claude-haiku-5-5"]


async def test_structured_output_checks_the_schema_then_ends_the_turn(project: Path,
                                                                      scripted: Any) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    server = scripted([tool_use("StructuredOutput", {"n": "seven"}, "toolu_s1"),
                       tool_use("StructuredOutput", {"n": 7}, "toolu_s2"), "never"])
    session = make_engine(server, project, extra_tools=(structured_output_tool(schema),))
    events = await run_prompt(session, "answer")
    first, second = results(events)
    assert first.is_error and "does not match the required schema" in str(first.content)
    assert not second.is_error and second.data == {"n": 7}
    assert ending(events).reason == "structured_output" and len(server.requests) == 2


async def test_raw_stream_events_only_when_asked(project: Path, scripted: Any) -> None:
    server = scripted(["streamed text", "quiet text"])
    loud = make_engine(server, project, stream_events=True)
    events = await run_prompt(loud, "hi")
    kinds = [e.event["type"] for e in events if isinstance(e, StreamEvent)]
    assert kinds[0] == "message_start" and kinds[-1] == "message_stop"
    assert json.dumps([e.event for e in events if isinstance(e, StreamEvent)])
    quiet = make_engine(server, project, persist=False)
    assert not [e for e in await run_prompt(quiet, "hi") if isinstance(e, StreamEvent)]


async def _run_answering(session: Any, prompt: str, kind: type, answer: Any) -> list[Any]:
    """Run a prompt, answering each `kind` request with the op `answer(request)` makes."""
    events: list[Any] = []
    async for event in iter_op(session, ops.UserPrompt(prompt)):
        events.append(event)
        if isinstance(event, kind):
            session.submit(answer(event))
    return events
