"""The sandbox in the permission decision: what would ask runs sandboxed without a prompt under
autoAllowBashIfSandboxed; deny rules, explicit ask rules and safety checks still apply;
dangerouslyDisableSandbox always asks; a command the sandbox refuses is denied."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from claude_harness.permissions.resolver import resolve_permission
from claude_harness.permissions.rules import parse_rule
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.permission_data import PermissionDecision, PermissionRule
from claude_harness.tools.bash import TOOL
from tests.sandbox.conftest import SandboxFactory, needs_bwrap

WOULD_ASK = "rm -rf build && touch made.txt"


def with_rules(ctx: ToolUseContext, mode: str = "default", **rules: tuple[str, ...]
               ) -> ToolUseContext:
    made = tuple(PermissionRule("localSettings", behavior, parse_rule(rule))  # type: ignore[arg-type]
                 for behavior, values in rules.items() for rule in values)
    return replace(ctx, permission=replace(ctx.permission, mode=mode, rules=made))  # type: ignore[arg-type]


async def decide(ctx: ToolUseContext, command: str, **extra: Any) -> PermissionDecision:
    return await resolve_permission(TOOL, TOOL.input_model.model_validate(
        {"command": command, **extra}), ctx)


@needs_bwrap
async def test_what_would_ask_runs_sandboxed_without_a_prompt(sandbox: SandboxFactory) -> None:
    _runtime, ctx = sandbox()
    decision = await decide(ctx, WOULD_ASK)
    assert (decision.behavior, decision.decided_by) == ("allow", "sandbox")
    _runtime.set_enabled(False)
    assert (await decide(ctx, WOULD_ASK)).behavior == "ask"


@needs_bwrap
@pytest.mark.parametrize(("rules", "behavior"), [
    ({"deny": ("Bash(rm:*)",)}, "deny"),
    ({"ask": ("Bash(rm:*)",)}, "ask"),
    ({"allow": ("Bash(rm:*)",), "ask": ("Bash(touch:*)",)}, "ask"),
])
async def test_deny_and_explicit_ask_rules_still_apply(sandbox: SandboxFactory,
                                                       rules: dict[str, tuple[str, ...]],
                                                       behavior: str) -> None:
    _runtime, ctx = sandbox()
    assert (await decide(with_rules(ctx, **rules), WOULD_ASK)).behavior == behavior


@needs_bwrap
async def test_safety_checks_and_plan_mode_still_apply(sandbox: SandboxFactory,
                                                       project: Path) -> None:
    _runtime, ctx = sandbox()
    protected = await decide(ctx, "echo x > .git/hooks/pre-commit")
    assert protected.behavior == "ask" and protected.decided_by != "sandbox"
    assert (await decide(with_rules(ctx, "plan"), WOULD_ASK)).behavior == "deny"


@needs_bwrap
async def test_without_auto_allow_sandboxed_commands_still_ask(sandbox: SandboxFactory) -> None:
    _runtime, ctx = sandbox(auto_allow_bash=False)
    assert (await decide(ctx, WOULD_ASK)).behavior == "ask"


@needs_bwrap
async def test_excluded_commands_are_not_sandboxed_so_they_ask(sandbox: SandboxFactory) -> None:
    _runtime, ctx = sandbox(excluded_commands=["rm"])
    assert (await decide(ctx, WOULD_ASK)).behavior == "ask"


@needs_bwrap
async def test_dangerously_disable_sandbox_always_asks(sandbox: SandboxFactory) -> None:
    _runtime, ctx = sandbox()
    allowed = with_rules(ctx, allow=("Bash(rm:*)", "Bash(touch:*)"))
    assert (await decide(allowed, WOULD_ASK)).behavior == "allow"
    unsandboxed = await decide(allowed, WOULD_ASK, dangerouslyDisableSandbox=True)
    assert (unsandboxed.behavior, unsandboxed.decided_by) == ("ask", "sandbox")
    read_only = await decide(ctx, "ls", dangerouslyDisableSandbox=True)
    assert read_only.behavior == "ask"
    headless = replace(ctx, permission=replace(ctx.permission, mode="dontAsk"))
    assert (await decide(headless, "ls", dangerouslyDisableSandbox=True)).behavior == "deny"


@needs_bwrap
async def test_a_command_the_sandbox_refuses_is_denied(sandbox: SandboxFactory) -> None:
    _runtime, ctx = sandbox(allow_unsandboxed_commands=False)
    allowed = with_rules(ctx, allow=("Bash(ls:*)",))
    refused = await decide(allowed, "ls", dangerouslyDisableSandbox=True)
    assert (refused.behavior, refused.decided_by) == ("deny", "sandbox")
    assert "allowUnsandboxedCommands" in refused.reason


async def test_a_required_sandbox_that_cannot_run_denies_everything(
        sandbox: SandboxFactory) -> None:
    """bwrap missing (here: a path that does not exist), sandbox.failIfUnavailable: even `ls`
    is denied, with the reason; without failIfUnavailable, commands ask as usual."""
    _runtime, ctx = sandbox(fail_if_unavailable=True, bwrap_path="/nonexistent/bwrap")
    refused = await decide(with_rules(ctx, "bypassPermissions"), "ls")
    assert refused.behavior == "deny" and "/nonexistent/bwrap" in refused.reason
    _runtime, ctx = sandbox(bwrap_path="/nonexistent/bwrap")
    assert (await decide(ctx, WOULD_ASK)).behavior == "ask"
    assert (await decide(ctx, "ls")).behavior == "allow"


@needs_bwrap
async def test_an_in_place_sed_allowed_by_the_sandbox_runs_in_it(sandbox: SandboxFactory,
                                                                 project: Path) -> None:
    """The sed preview is applied by the harness itself, outside any sandbox: a sed allowed
    only because it is sandboxed runs as a command, in the sandbox, and can only change what
    the sandbox lets it."""
    _runtime, ctx = sandbox()
    outside = project.parent / "outside" / "notes.txt"
    for target in (project / "notes.txt", outside):
        target.write_text("keep\n")
        command = f"sed -i s/keep/gone/ {target}"
        decision = await decide(ctx, command)
        assert (decision.behavior, decision.decided_by, decision.updated_input) == (
            "allow", "sandbox", None)
        await TOOL.call(TOOL.input_model.model_validate({"command": command}), ctx,
                        lambda _: None)
    assert (project / "notes.txt").read_text() == "gone\n"
    assert outside.read_text() == "keep\n"
