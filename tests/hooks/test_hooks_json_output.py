"""Every JSON output field a hook may print on exit 0, and what malformed output does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hooks.hook_helpers import MakeRunner, group, write_script

TOOL = {
    "tool_name": "Write",
    "tool_input": {"file_path": "a.txt", "content": "x"},
    "tool_use_id": "t",
}


def json_hook(directory: Path, name: str, answer: object) -> str:
    """A hook script that prints `answer` as JSON and exits 0."""
    data = directory / f"{name}.json"
    data.write_text(json.dumps(answer))
    return str(write_script(directory, f"{name}.sh", f"cat > /dev/null\ncat '{data}'\n"))


async def run_json(
    make_runner: MakeRunner, tmp_path: Path, event: str, payload: dict, answer: object
):
    hook = json_hook(tmp_path, "answer", answer)
    return await make_runner({event: [group(hook)]}).run(event, payload)


async def test_continue_false_stops_with_reason(make_runner: MakeRunner, tmp_path: Path) -> None:
    outcome = await run_json(
        make_runner,
        tmp_path,
        "PostToolUse",
        {**TOOL, "tool_response": {}},
        {"continue": False, "stopReason": "Build broke; stopping for you to look"},
    )
    assert outcome.stop and outcome.stop_reason == "Build broke; stopping for you to look"
    assert not outcome.blocked


async def test_continue_true_does_not_stop(make_runner: MakeRunner, tmp_path: Path) -> None:
    outcome = await run_json(make_runner, tmp_path, "Stop", {}, {"continue": True})
    assert not outcome.stop and outcome.errors == []


async def test_system_message_is_for_the_user(make_runner: MakeRunner, tmp_path: Path) -> None:
    outcome = await run_json(
        make_runner, tmp_path, "PreToolUse", TOOL, {"systemMessage": "formatting with prettier"}
    )
    assert outcome.system_messages == ["formatting with prettier"]
    assert outcome.permission_decision is None and outcome.additional_context == []


@pytest.mark.parametrize(
    ("event", "payload"),
    [
        ("PostToolUse", {**TOOL, "tool_response": {}}),
        ("Stop", {"stop_hook_active": False}),
        ("SubagentStop", {"stop_hook_active": False}),
        ("UserPromptSubmit", {"prompt": "ship it"}),
        ("PreCompact", {"trigger": "manual"}),
    ],
)
async def test_decision_block_with_reason(
    event: str, payload: dict, make_runner: MakeRunner, tmp_path: Path
) -> None:
    outcome = await run_json(
        make_runner,
        tmp_path,
        event,
        payload,
        {"decision": "block", "reason": "run the tests first"},
    )
    assert outcome.blocked and outcome.block_reason == "run the tests first"
    assert outcome.errors == []


async def test_decision_block_is_refused_where_it_means_nothing(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    outcome = await run_json(
        make_runner,
        tmp_path,
        "Notification",
        {"notification_type": "idle_prompt"},
        {"decision": "block", "reason": "x"},
    )
    assert not outcome.blocked
    assert len(outcome.errors) == 1 and "decision" in outcome.errors[0]


@pytest.mark.parametrize(("legacy", "behavior"), [("approve", "allow"), ("block", "deny")])
async def test_legacy_pre_tool_use_decision(
    legacy: str, behavior: str, make_runner: MakeRunner, tmp_path: Path
) -> None:
    outcome = await run_json(
        make_runner, tmp_path, "PreToolUse", TOOL, {"decision": legacy, "reason": "legacy says so"}
    )
    decision = outcome.permission_decision
    assert decision is not None and decision.behavior == behavior
    assert decision.reason == "legacy says so"
    assert outcome.blocked is (legacy == "block")


@pytest.mark.parametrize("behavior", ["allow", "deny", "ask"])
async def test_permission_decision_and_reason(
    behavior: str, make_runner: MakeRunner, tmp_path: Path
) -> None:
    answer = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": behavior,
            "permissionDecisionReason": f"policy: {behavior}",
        }
    }
    outcome = await run_json(make_runner, tmp_path, "PreToolUse", TOOL, answer)
    decision = outcome.permission_decision
    assert decision is not None
    assert (decision.behavior, decision.reason, decision.decided_by) == (
        behavior,
        f"policy: {behavior}",
        "hook",
    )
    assert outcome.blocked is (behavior == "deny")


async def test_updated_input_and_additional_context(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    new_input = {"file_path": "a.txt", "content": "x\n"}
    answer = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": new_input,
            "additionalContext": "added a trailing newline",
        }
    }
    outcome = await run_json(make_runner, tmp_path, "PreToolUse", TOOL, answer)
    assert outcome.updated_input == new_input
    assert outcome.permission_decision is not None
    assert outcome.permission_decision.updated_input == new_input
    assert outcome.additional_context == ["added a trailing newline"]


async def test_updated_input_is_dropped_with_deny(make_runner: MakeRunner, tmp_path: Path) -> None:
    answer = {"hookSpecificOutput": {"permissionDecision": "deny", "updatedInput": {"a": 1}}}
    outcome = await run_json(make_runner, tmp_path, "PreToolUse", TOOL, answer)
    assert outcome.updated_input is None and outcome.blocked


async def test_additional_context_on_post_tool_use_and_session_start(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    post = await run_json(
        make_runner,
        tmp_path,
        "PostToolUse",
        {**TOOL, "tool_response": {}},
        {
            "hookSpecificOutput": {
                "hookEventName": "PostToolUse",
                "additionalContext": "lint: 0 issues",
            }
        },
    )
    assert post.additional_context == ["lint: 0 issues"]
    start = await run_json(
        make_runner,
        tmp_path,
        "SessionStart",
        {"source": "startup"},
        {
            "hookSpecificOutput": {
                "hookEventName": "SessionStart",
                "additionalContext": "branch main",
            }
        },
    )
    assert start.additional_context == ["branch main"]


async def test_permission_request_decision(make_runner: MakeRunner, tmp_path: Path) -> None:
    answer = {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "not on Fridays", "interrupt": True},
        }
    }
    outcome = await run_json(make_runner, tmp_path, "PermissionRequest", TOOL, answer)
    decision = outcome.permission_decision
    assert (
        decision is not None and decision.behavior == "deny" and decision.reason == "not on Fridays"
    )
    assert outcome.stop and outcome.stop_reason == "not on Fridays"


async def test_wrong_hook_event_name_is_reported_and_ignored(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    answer = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "allow"}}
    outcome = await run_json(make_runner, tmp_path, "PreToolUse", TOOL, answer)
    assert outcome.permission_decision is None
    assert len(outcome.errors) == 1 and "hookEventName" in outcome.errors[0]


async def test_bad_permission_decision_value_is_reported(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    answer = {"hookSpecificOutput": {"permissionDecision": "maybe"}, "systemMessage": "still shown"}
    outcome = await run_json(make_runner, tmp_path, "PreToolUse", TOOL, answer)
    assert outcome.permission_decision is None
    assert len(outcome.errors) == 1 and "maybe" in outcome.errors[0]
    assert outcome.system_messages == ["still shown"]


async def test_invalid_json_is_a_visible_error(make_runner: MakeRunner, tmp_path: Path) -> None:
    script = write_script(tmp_path, "bad.sh", "echo '{\"permissionDecision\": allow'\n")
    outcome = await make_runner({"PreToolUse": [group(str(script))]}).run("PreToolUse", TOOL)
    assert outcome.permission_decision is None and not outcome.blocked
    assert len(outcome.errors) == 1 and "invalid JSON" in outcome.errors[0]


async def test_json_on_prompt_submit_is_not_taken_as_context(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    outcome = await run_json(
        make_runner,
        tmp_path,
        "UserPromptSubmit",
        {"prompt": "x"},
        {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "ctx"}},
    )
    assert outcome.additional_context == ["ctx"]


async def test_long_reason_is_bounded(make_runner: MakeRunner, tmp_path: Path) -> None:
    outcome = await run_json(
        make_runner, tmp_path, "Stop", {}, {"decision": "block", "reason": "r" * 50_000}
    )
    assert outcome.blocked
    assert len(outcome.block_reason) < 10_200 and "truncated" in outcome.block_reason
