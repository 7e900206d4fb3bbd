"""Several hooks on one event: they run in parallel and their answers combine deny > ask > allow."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.hooks.hook_helpers import MakeRunner, group, write_script

TOOL = {"tool_name": "Bash", "tool_input": {"command": "make"}, "tool_use_id": "t"}


def decide(directory: Path, name: str, behavior: str, **extra: object) -> str:
    answer = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": behavior,
            "permissionDecisionReason": f"{name} says {behavior}",
            **extra,
        }
    }
    data = directory / f"{name}.json"
    data.write_text(json.dumps(answer))
    return str(write_script(directory, f"{name}.sh", f"cat '{data}'\n"))


@pytest.mark.parametrize(
    ("behaviors", "winner"),
    [
        (["allow", "deny"], "deny"),
        (["deny", "allow"], "deny"),
        (["ask", "allow"], "ask"),
        (["allow", "ask", "allow"], "ask"),
        (["ask", "deny", "allow"], "deny"),
        (["allow", "allow"], "allow"),
    ],
)
async def test_conflicting_decisions(
    behaviors: list[str], winner: str, make_runner: MakeRunner, tmp_path: Path
) -> None:
    hooks = [decide(tmp_path, f"h{i}", b) for i, b in enumerate(behaviors)]
    outcome = await make_runner({"PreToolUse": [group(hooks)]}).run("PreToolUse", TOOL)
    decision = outcome.permission_decision
    assert decision is not None and decision.behavior == winner
    expected = [f"h{i} says {b}" for i, b in enumerate(behaviors) if b == winner]
    assert decision.reason == "\n".join(expected)
    assert outcome.blocked is (winner == "deny")


async def test_exit_2_wins_over_json_allow_from_another_hook(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    allow = decide(tmp_path, "ok", "allow")
    block = str(write_script(tmp_path, "block.sh", "echo 'no deploys' >&2\nexit 2\n"))
    outcome = await make_runner({"PreToolUse": [group([allow, block])]}).run("PreToolUse", TOOL)
    assert outcome.permission_decision is not None
    assert outcome.permission_decision.behavior == "deny"
    assert outcome.permission_decision.reason == "no deploys"


async def test_hooks_from_several_groups_and_sources_combine(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    ask = decide(tmp_path, "asker", "ask")
    allow = decide(tmp_path, "allower", "allow")
    runner = make_runner({"PreToolUse": [group(allow, matcher="*"), group(ask, matcher="Bash")]})
    outcome = await runner.run("PreToolUse", TOOL)
    assert outcome.permission_decision is not None
    assert outcome.permission_decision.behavior == "ask"
    assert len(outcome.results) == 2


async def test_hooks_really_run_in_parallel(make_runner: MakeRunner, tmp_path: Path) -> None:
    a = str(write_script(tmp_path, "slow_a.sh", "sleep 1\n"))
    b = str(write_script(tmp_path, "slow_b.sh", "sleep 1\n"))
    runner = make_runner({"PreToolUse": [group([a, b])]})
    started = time.monotonic()
    outcome = await runner.run("PreToolUse", TOOL)
    elapsed = time.monotonic() - started
    assert [r.exit_code for r in outcome.results] == [0, 0]
    assert all(r.duration_s >= 0.95 for r in outcome.results)
    assert elapsed < 1.8


async def test_updated_input_comes_from_first_decisive_hook(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    asks_plain = decide(tmp_path, "plain_ask", "ask")
    allow_rewrite = decide(tmp_path, "allow_rw", "allow", updatedInput={"command": "make -n"})
    ask_rewrite = decide(tmp_path, "ask_rw", "ask", updatedInput={"command": "make test"})
    ask_other = decide(tmp_path, "ask_rw2", "ask", updatedInput={"command": "make all"})
    hooks = [asks_plain, allow_rewrite, ask_rewrite, ask_other]
    outcome = await make_runner({"PreToolUse": [group(hooks)]}).run("PreToolUse", TOOL)
    # ask wins; the first ask hook carrying a rewrite decides; the allow hook's rewrite is ignored.
    assert outcome.updated_input == {"command": "make test"}
    assert outcome.permission_decision is not None
    assert outcome.permission_decision.updated_input == {"command": "make test"}
    assert len(outcome.errors) == 1 and "ask_rw2.sh" in outcome.errors[0]


async def test_context_messages_and_errors_concatenate_in_order(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    first = write_script(
        tmp_path,
        "first.sh",
        'echo \'{"systemMessage": "one", "hookSpecificOutput": {"additionalContext": "ctx-1"}}\'\n',
    )
    second = write_script(
        tmp_path,
        "second.sh",
        'sleep 0.2; echo \'{"systemMessage": "two", "hookSpecificOutput": {"additionalContext": "ctx-2"}}\'\n',
    )
    broken = write_script(tmp_path, "broken.sh", "echo oops >&2; exit 3\n")
    runner = make_runner({"PreToolUse": [group([str(first), str(second), str(broken)])]})
    outcome = await runner.run("PreToolUse", TOOL)
    assert outcome.additional_context == ["ctx-1", "ctx-2"]
    assert outcome.system_messages == ["one", "two"]
    assert len(outcome.errors) == 1 and "oops" in outcome.errors[0]
    assert [r.command for r in outcome.results] == [str(first), str(second), str(broken)]


async def test_any_continue_false_stops(make_runner: MakeRunner, tmp_path: Path) -> None:
    go = write_script(tmp_path, "go.sh", "echo '{}'\n")
    halt = write_script(tmp_path, "halt.sh", 'echo \'{"continue": false, "stopReason": "halt"}\'\n')
    runner = make_runner({"Stop": [group([str(go), str(halt)])]})
    outcome = await runner.run("Stop", {"stop_hook_active": False})
    assert outcome.stop and outcome.stop_reason == "halt"
