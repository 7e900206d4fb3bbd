"""The Bash tool: its checks, its call, and what the permission system sees of it."""

from __future__ import annotations

from pathlib import Path

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    VALID,
    Progress,
    ToolError,
    ToolResult,
    ValidationResult,
    build_tool,
    load_prompt,
)
from claude_harness.sandbox.bash import BashSandboxing, prepare_bash
from claude_harness.tools.bash.background import REGISTRY
from claude_harness.tools.bash.result import MAX_OUTPUT_CHARS, BashRun, render_bash_run
from claude_harness.tools.bash.run import run_foreground
from claude_harness.tools.bash.schema import MAX_TIMEOUT_MS, BashInput
from claude_harness.tools.bash.sed_edit import apply_sed_edit
from claude_harness.tools.bash.workdir import resolve_start_dir

KEY_ARGUMENT_CHARS = 80


async def _validate(inp: BashInput, ctx: ToolUseContext) -> ValidationResult:
    if not inp.command.strip():
        return ValidationResult.fail("The command is empty; give a shell command to run.")
    if inp.timeout is not None and not 0 < inp.timeout <= MAX_TIMEOUT_MS:
        return ValidationResult.fail(
            f"timeout must be between 1 and {MAX_TIMEOUT_MS} ms (10 minutes), got {inp.timeout}."
        )
    return VALID


def _is_read_only(inp: BashInput) -> bool:
    """Read-only by the permission checker's analysis of the command (the same one the Bash
    decision reads); anything it does not understand is a write."""
    if inp.simulated_sed_edit is not None:
        return False
    # deferred: the checker pulls in bashlex, which the tool pool should not pay for at start
    from claude_harness.permissions.bash.decision import is_read_only_command

    return is_read_only_command(inp.command)


def _is_concurrency_safe(inp: BashInput) -> bool:
    return not inp.run_in_background and _is_read_only(inp)


def _key_argument(inp: BashInput) -> str:
    lines = inp.command.strip().splitlines()
    first = lines[0] if lines else ""
    if len(first) > KEY_ARGUMENT_CHARS or len(lines) > 1:
        return first[: KEY_ARGUMENT_CHARS - 1] + "…"
    return first


def _start_background(inp: BashInput, ctx: ToolUseContext) -> ToolResult:
    start = resolve_start_dir(ctx.shell.cwd, ctx.permission.cwd)
    sandboxing = _sandboxing(inp, ctx, start.path)
    shell = REGISTRY.start(inp.command, start.path, sandboxing.argv_prefix)
    message = (
        f"Started in the background with id {shell.id} (in {start.path}). "
        f"Read its new output and status with BashOutput(bash_id={shell.id!r}); "
        f"stop it with KillShell(bash_id={shell.id!r})."
    )
    run = BashRun(stdout=message, background_id=shell.id)
    if start.note:
        run.notes.append(start.note)
    run.notes.extend(sandboxing.notes(None, "", ""))
    return ToolResult(data=run)


def _sandboxing(inp: BashInput, ctx: ToolUseContext, cwd: Path) -> BashSandboxing:
    """Where the command runs (sandbox/bash.py); a refusal when it must not run at all."""
    sandboxing = prepare_bash(inp.command, inp.dangerouslyDisableSandbox, ctx.permission, cwd)
    if sandboxing.decision.refusal:
        raise ToolError(sandboxing.decision.refusal, code="sandbox_refused")
    return sandboxing


async def _call(inp: BashInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    if inp.simulated_sed_edit is not None:
        apply_sed_edit(inp.simulated_sed_edit)
        return ToolResult(data=BashRun())
    if ctx.abort.aborted:  # interrupted before we started: run nothing
        return ToolResult(data=BashRun(interrupted=True), is_error=True)
    try:
        if inp.run_in_background:
            return _start_background(inp, ctx)
        start = resolve_start_dir(ctx.shell.cwd, ctx.permission.cwd)
        sandboxing = _sandboxing(inp, ctx, start.path)
        outcome = await run_foreground(
            inp.command, start.path, inp.timeout_ms, ctx.abort, progress,
            sandboxing.argv_prefix,
        )
    except (FileNotFoundError, PermissionError) as exc:
        raise ToolError(f"Could not start the shell: {exc}") from exc
    ctx.shell.cwd = outcome.final_dir.path
    run = outcome.run
    run.notes.extend(note for note in (start.note, outcome.final_dir.note) if note)
    run.notes.extend(sandboxing.notes(run.exit_code, run.stdout, run.stderr))
    return ToolResult(data=run, is_error=run.failed)


TOOL = build_tool(
    name="Bash",
    description=load_prompt(__file__),
    input_model=BashInput,
    call=_call,
    validate_input=_validate,
    is_read_only=_is_read_only,
    is_concurrency_safe=_is_concurrency_safe,
    permission_subject=lambda inp: inp.command,
    to_classifier_input=lambda inp: inp.command,
    key_argument=_key_argument,
    render_result=render_bash_run,
    # Output is already cut to about MAX_OUTPUT_CHARS at the source, notes included; the margin
    # keeps the pipeline's budgeting from persisting what we have already shortened.
    max_result_size_chars=MAX_OUTPUT_CHARS + 5_000,
    search_hint="run shell commands, tests, git, builds",
)
