"""The exit-code contract: 0 (JSON or plain), 2 (block, stderr is the reason), other (visible error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hooks.hook_helpers import MakeRunner, group, write_script

TOOL = {"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}, "tool_use_id": "tu_1"}


async def test_exit_0_json_is_parsed(make_runner: MakeRunner, tmp_path: Path) -> None:
    script = write_script(
        tmp_path,
        "allow.sh",
        'echo \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
        '"permissionDecision": "allow", "permissionDecisionReason": "safe build dir"}}\'\n',
    )
    outcome = await make_runner({"PreToolUse": [group(str(script))]}).run("PreToolUse", TOOL)
    decision = outcome.permission_decision
    assert decision is not None
    assert (decision.behavior, decision.reason, decision.decided_by) == (
        "allow",
        "safe build dir",
        "hook",
    )
    assert not outcome.blocked and outcome.errors == []


async def test_exit_0_plain_stdout_is_context_for_prompt_submit_only(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    script = write_script(tmp_path, "ctx.sh", "echo 'Current sprint: auth refactor'\n")
    runner = make_runner(
        {
            "UserPromptSubmit": [group(str(script))],
            "SessionStart": [group(str(script))],
            "PreToolUse": [group(str(script))],
        }
    )
    prompt = await runner.run("UserPromptSubmit", {"prompt": "hi"})
    assert prompt.additional_context == ["Current sprint: auth refactor"]
    start = await runner.run("SessionStart", {"source": "startup"})
    assert start.additional_context == ["Current sprint: auth refactor"]
    tool = await runner.run("PreToolUse", TOOL)
    assert tool.additional_context == []
    assert (
        tool.results[0].stdout.strip() == "Current sprint: auth refactor"
    )  # kept for the transcript
    assert tool.permission_decision is None and not tool.blocked


async def test_exit_2_on_pre_tool_use_denies_with_stderr_reason(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    script = write_script(tmp_path, "guard.sh", "echo 'rm -rf is not allowed here' >&2\nexit 2\n")
    outcome = await make_runner({"PreToolUse": [group(str(script))]}).run("PreToolUse", TOOL)
    assert outcome.blocked
    assert outcome.block_reason == "rm -rf is not allowed here"
    decision = outcome.permission_decision
    assert decision is not None and decision.behavior == "deny"
    assert decision.reason == "rm -rf is not allowed here" and decision.decided_by == "hook"
    assert outcome.results[0].exit_code == 2


async def test_exit_2_beats_a_json_allow_printed_by_the_same_hook(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    script = write_script(
        tmp_path,
        "mixed.sh",
        'echo \'{"hookSpecificOutput": {"permissionDecision": "allow"}}\'\necho nope >&2\nexit 2\n',
    )
    outcome = await make_runner({"PreToolUse": [group(str(script))]}).run("PreToolUse", TOOL)
    assert outcome.permission_decision is not None
    assert outcome.permission_decision.behavior == "deny"


async def test_exit_2_without_stderr_still_gives_a_reason(make_runner: MakeRunner) -> None:
    outcome = await make_runner({"PreToolUse": [group("exit 2")]}).run("PreToolUse", TOOL)
    assert outcome.blocked and "exit 2" in outcome.block_reason


@pytest.mark.parametrize(
    ("event", "payload"),
    [
        ("UserPromptSubmit", {"prompt": "deploy prod"}),
        ("Stop", {"stop_hook_active": False}),
        ("SubagentStop", {"stop_hook_active": False}),
        ("PreCompact", {"trigger": "auto"}),
        ("PostToolUse", {**TOOL, "tool_response": "ok"}),
        ("PostToolUseFailure", {**TOOL, "error": "boom"}),
    ],
)
async def test_exit_2_blocks_blockable_events(
    event: str, payload: dict, make_runner: MakeRunner, tmp_path: Path
) -> None:
    script = write_script(tmp_path, "block.sh", "echo 'tests are failing' >&2\nexit 2\n")
    outcome = await make_runner({event: [group(str(script))]}).run(event, payload)
    assert outcome.blocked and outcome.block_reason == "tests are failing"
    assert outcome.permission_decision is None  # only permission events carry a decision
    assert outcome.errors == []


@pytest.mark.parametrize(
    ("event", "payload"),
    [
        ("SessionStart", {"source": "startup"}),
        ("SessionEnd", {"reason": "other"}),
        ("Notification", {"notification_type": "idle_prompt"}),
        ("PermissionDenied", TOOL),
    ],
)
async def test_exit_2_on_unblockable_events_is_a_visible_error(
    event: str, payload: dict, make_runner: MakeRunner
) -> None:
    outcome = await make_runner({event: [group("echo cannot >&2; exit 2")]}).run(event, payload)
    assert not outcome.blocked
    assert len(outcome.errors) == 1 and "cannot" in outcome.errors[0]


async def test_exit_1_is_a_non_blocking_visible_error(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    script = write_script(tmp_path, "lint.sh", "echo 'linter crashed' >&2\nexit 1\n")
    outcome = await make_runner({"PreToolUse": [group(str(script))]}).run("PreToolUse", TOOL)
    assert not outcome.blocked and outcome.permission_decision is None
    assert len(outcome.errors) == 1
    assert str(script) in outcome.errors[0] and "linter crashed" in outcome.errors[0]
    assert "exit code 1" in outcome.errors[0]


async def test_missing_script_is_visible_and_does_not_block(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    missing = tmp_path / "hooks" / "does-not-exist.sh"
    outcome = await make_runner({"PreToolUse": [group(str(missing))]}).run("PreToolUse", TOOL)
    assert not outcome.blocked and outcome.permission_decision is None
    assert len(outcome.errors) == 1
    assert str(missing) in outcome.errors[0] and "command not found" in outcome.errors[0]
    assert outcome.results[0].exit_code == 127


async def test_non_executable_script_is_visible_and_does_not_block(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    script = tmp_path / "noexec.sh"
    script.write_text("#!/bin/sh\nexit 2\n")
    outcome = await make_runner({"PreToolUse": [group(str(script))]}).run("PreToolUse", TOOL)
    assert not outcome.blocked
    assert outcome.results[0].exit_code == 126
    assert len(outcome.errors) == 1 and "exit code 126" in outcome.errors[0]


async def test_other_hooks_still_decide_when_one_is_missing(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    guard = write_script(tmp_path, "guard.sh", "echo denied >&2\nexit 2\n")
    outcome = await make_runner(
        {"PreToolUse": [group([str(tmp_path / "missing.sh"), str(guard)])]}
    ).run("PreToolUse", TOOL)
    assert outcome.blocked and outcome.block_reason == "denied"
    assert len(outcome.errors) == 1
