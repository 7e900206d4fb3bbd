"""The 14-step pipeline: every stage runs, in order, and each can end a call cleanly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claude_harness.permissions.rules import parse_rule
from claude_harness.protocol.context import (
    AbortSignal,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.protocol.events import DenialRecorded
from claude_harness.protocol.permission_data import PermissionContext, PermissionRule
from claude_harness.protocol.tool import ToolInput, ToolResult, ValidationResult, build_tool
from claude_harness.tools.pipeline import STAGES, check_permissions_and_call_tool

ALL_STAGES = [name for name, _ in STAGES]


class EchoInput(ToolInput):
    text: str
    times: int = 1


async def _echo(inp: EchoInput, ctx: ToolUseContext, progress: Any) -> ToolResult:
    progress({"step": 1})
    if inp.text == "boom":
        raise RuntimeError("tool bug")
    return ToolResult(inp.text * inp.times)


async def _validate(inp: EchoInput, ctx: ToolUseContext) -> ValidationResult:
    if inp.times > 3:
        return ValidationResult.fail("times must be at most 3")
    return ValidationResult()


ECHO = build_tool(name="Echo", description="Echo text back.", input_model=EchoInput,
                  call=_echo, validate_input=_validate, is_read_only=lambda inp: True,
                  max_result_size_chars=50)
WRITER = build_tool(name="Writer", description="Pretends to write.", input_model=EchoInput,
                    call=_echo)


def make_ctx(tmp_path: Path, *, rules: tuple[str, ...] = (), hooks: Any = None,
             mode: str = "default") -> ToolUseContext:
    perm = PermissionContext(
        mode=mode, cwd=tmp_path, interactive=False,  # type: ignore[arg-type]
        rules=tuple(PermissionRule("cliArg", b, parse_rule(r))
                    for b, r in (x.split(":", 1) for x in rules)))
    return ToolUseContext(options=ToolUseOptions(tools=(ECHO, WRITER), session_dir=tmp_path),
                          permission=perm, abort=AbortSignal(), read_file_state=FileStateCache(),
                          shell=ShellState(tmp_path), hooks=hooks)


async def call(ctx: ToolUseContext, name: str, inp: dict[str, Any]) -> Any:
    events: list[Any] = []
    outcome = await check_permissions_and_call_tool({"id": "t1", "name": name, "input": inp},
                                                    ctx, events.append)
    return outcome, events


async def test_a_successful_call_passes_every_stage_in_order(tmp_path: Path) -> None:
    outcome, events = await call(make_ctx(tmp_path), "Echo", {"text": "hi", "times": 2})
    assert outcome.trace == ALL_STAGES
    assert len(ALL_STAGES) == 14  # the seeds' fourteen steps, each a named stage
    assert ALL_STAGES[-4:] == ["result_budgeting", "post_tool_use_hooks", "new_messages",
                               "error_classification"]
    assert outcome.content == "hihi" and not outcome.is_error
    assert [type(e).__name__ for e in events] == ["ToolProgress"]


@pytest.mark.parametrize(
    ("name", "inp", "last_stage", "needle"),
    [
        ("Nope", {}, "lookup", "No such tool available: Nope"),
        ("Echo", {"text": 5}, "schema_validation", "`text` is invalid"),
        ("Echo", {}, "schema_validation", "required parameter `text` is missing"),
        ("Echo", {"text": "a", "times": 9}, "semantic_validation", "at most 3"),
        ("Writer", {"text": "a"}, "permission_denied", "not granted"),
    ],
)
async def test_each_stage_can_end_a_call(tmp_path: Path, name: str, inp: dict[str, Any],
                                         last_stage: str, needle: str) -> None:
    outcome, _ = await call(make_ctx(tmp_path), name, inp)
    assert outcome.is_error and outcome.trace[-1] == last_stage
    assert needle in outcome.content
    assert outcome.content.startswith("<tool_use_error>")


async def test_abort_check_stops_queued_calls(tmp_path: Path) -> None:
    ctx = make_ctx(tmp_path)
    ctx.abort.abort()
    outcome, _ = await call(ctx, "Echo", {"text": "hi"})
    assert outcome.trace == ["lookup", "abort_check"] and outcome.is_error


async def test_denied_calls_are_recorded(tmp_path: Path) -> None:
    ctx = make_ctx(tmp_path, rules=("deny:Echo",))
    outcome, events = await call(ctx, "Echo", {"text": "hi"})
    assert outcome.is_error and "Echo" in outcome.content
    assert [e.as_json() for e in events if isinstance(e, DenialRecorded)] == [
        {"tool_name": "Echo", "tool_use_id": "t1", "tool_input": {"text": "hi"}}]


async def test_a_tool_bug_becomes_an_error_result_with_a_safe_class(tmp_path: Path) -> None:
    outcome, _ = await call(make_ctx(tmp_path), "Echo", {"text": "boom"})
    assert outcome.is_error and "RuntimeError: tool bug" in outcome.content
    assert outcome.error_class == "RuntimeError" and outcome.trace == ALL_STAGES


async def test_large_results_are_persisted_with_a_preview(tmp_path: Path) -> None:
    outcome, _ = await call(make_ctx(tmp_path), "Echo", {"text": "x" * 40, "times": 3})
    assert "<persisted-output>" in outcome.content
    path = next(p for p in (tmp_path / "tool-results").iterdir())
    assert path.read_text() == "x" * 120 and str(path) in outcome.content


async def test_pre_tool_use_hook_runs_between_backfill_and_permissions(tmp_path: Path) -> None:
    from claude_harness.hooks.config import HookConfig
    from claude_harness.hooks.runner import HookRunner

    script = tmp_path / "hook.sh"
    seen = tmp_path / "seen.json"
    script.write_text(f"#!/bin/sh\ncat > {seen}\necho 'no echo today' >&2\nexit 2\n")
    script.chmod(0o755)
    config = HookConfig.from_sources(
        [("userSettings", None, {"PreToolUse": [{"matcher": "Echo",
                                                  "hooks": [{"type": "command",
                                                             "command": str(script)}]}]})])
    runner = HookRunner(config, project_dir=tmp_path, session_id="s", transcript_path="",
                        get_permission_mode=lambda: "default")
    outcome, _ = await call(make_ctx(tmp_path, hooks=runner), "Echo", {"text": "hi"})
    assert outcome.trace[-1] == "pre_tool_use_hooks" and outcome.is_error
    assert "no echo today" in outcome.content
    payload = json.loads(seen.read_text())
    assert payload["tool_name"] == "Echo" and payload["tool_input"] == {"text": "hi"}


async def test_the_model_cannot_send_internal_fields(tmp_path: Path) -> None:
    """An approved sed edit travels in `_simulated_sed_edit`; only the harness may set it."""
    from claude_harness.tools.registry import find_base_tool

    bash = find_base_tool("Bash")
    assert bash is not None
    target = tmp_path / "victim.txt"
    target.write_text("safe\n")
    ctx = make_ctx(tmp_path, rules=("allow:Bash",))
    ctx = ToolUseContext(**{**ctx.__dict__, "options": ToolUseOptions(tools=(bash,))})
    inp = {"command": "true", "_simulated_sed_edit": {"file_path": str(target),
                                                      "new_content": "pwned\n"}}
    outcome, _ = await call(ctx, "Bash", inp)
    assert outcome.is_error and "_simulated_sed_edit" in outcome.content
    assert outcome.trace[-1] == "schema_validation"
    assert target.read_text() == "safe\n"
