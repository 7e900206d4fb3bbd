"""The Bash tool: its checks, its call, and what the permission system sees of it."""

from __future__ import annotations

from pathlib import Path

from claude_harness.protocol.client_terminal import client_terminals
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
from claude_harness.tools.bash.client_run import run_in_client_terminal
from claude_harness.tools.bash.command_facts import changes_directory, write_targets
from claude_harness.tools.bash.limits import MAX_OUTPUT_CHARS_CAP, BashLimits
from claude_harness.tools.bash.presentation import PRESENTATION
from claude_harness.tools.bash.result import BashRun, render_bash_run
from claude_harness.tools.bash.run import run_foreground
from claude_harness.tools.bash.schema import BashInput
from claude_harness.tools.bash.sed_edit import apply_sed_edit, sed_edit_in_editor
from claude_harness.tools.bash.workdir import resolve_start_dir
from claude_harness.tools.budget import tool_results_dir
from claude_harness.tools.editor_files import editor_writer

KEY_ARGUMENT_CHARS = 80


async def _validate(inp: BashInput, ctx: ToolUseContext) -> ValidationResult:
    if not inp.command.strip():
        return ValidationResult.fail("The command is empty; give a shell command to run.")
    limits = BashLimits.from_env()
    if inp.run_in_background and not limits.background_enabled:
        return ValidationResult.fail(
            "Background tasks are disabled in this session (CLAUDE_CODE_DISABLE_BACKGROUND_TASKS); "
            "run the command in the foreground.")
    cap = limits.background_max_ms if inp.run_in_background else limits.max_timeout_ms
    if inp.timeout is not None and not 0 < inp.timeout <= cap:
        what = "a background command's lifetime" if inp.run_in_background else "timeout"
        return ValidationResult.fail(
            f"{what} must be between 1 and {cap} ms, got {inp.timeout}.")
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
    """Only read-only foreground commands that stay in their directory may run alongside others:
    a `cd` moves the one shell directory every later command starts from."""
    return (not inp.run_in_background and _is_read_only(inp)
            and not changes_directory(inp.command, Path.cwd()))


def _key_argument(inp: BashInput) -> str:
    lines = inp.command.strip().splitlines()
    first = lines[0] if lines else ""
    if len(first) > KEY_ARGUMENT_CHARS or len(lines) > 1:
        return first[: KEY_ARGUMENT_CHARS - 1] + "…"
    return first


def _checkpoint_targets(command: str, cwd: Path, ctx: ToolUseContext) -> None:
    """Files the command will write through a redirect or `tee`: keep their content first."""
    if ctx.checkpoints.enabled:
        ctx.checkpoints.before_changes(write_targets(command, cwd))


def _start_background(inp: BashInput, ctx: ToolUseContext, limits: BashLimits,
                      output_dir: Path) -> ToolResult:
    start = resolve_start_dir(ctx.shell.cwd, ctx.permission.cwd)
    lifetime = limits.lifetime_for(inp.timeout)
    sandboxing = _sandboxing(inp, ctx, start.path)
    shell = REGISTRY.start(inp.command, start.path, lifetime_ms=lifetime, output_dir=output_dir,
                           spill_at=limits.max_output_chars, argv_prefix=sandboxing.argv_prefix)
    run = BashRun(background_id=shell.id, started_in_background=True, lifetime_ms=lifetime,
                  output_path=str(shell.output.path))
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
        writer = editor_writer()
        if writer is not None:  # the editor holds the file: it writes the approved result
            await sed_edit_in_editor(inp.simulated_sed_edit, writer, ctx.checkpoints.before_change)
            return ToolResult(data=BashRun())
        ctx.checkpoints.before_change(inp.simulated_sed_edit.file_path)
        apply_sed_edit(inp.simulated_sed_edit)
        return ToolResult(data=BashRun())
    if ctx.abort.aborted:  # interrupted before we started: run nothing
        return ToolResult(data=BashRun(interrupted=True), is_error=True)
    limits = BashLimits.from_env()
    output_dir = tool_results_dir(ctx.options.session_dir) / "tasks"
    try:
        start = resolve_start_dir(ctx.shell.cwd, ctx.permission.cwd)
        _checkpoint_targets(inp.command, start.path, ctx)
        if inp.run_in_background:
            return _start_background(inp, ctx, limits, output_dir)
        sandboxing = _sandboxing(inp, ctx, start.path)
        terminals = client_terminals.get()
        if terminals is not None:  # the editor runs it, wrapped as we would run it
            outcome = await run_in_client_terminal(
                terminals, inp.command, start.path, limits.timeout_for(inp.timeout), ctx.abort,
                progress, limits=limits, argv_prefix=sandboxing.argv_prefix)
        else:
            outcome = await run_foreground(
                inp.command, start.path, limits.timeout_for(inp.timeout), ctx.abort, progress,
                limits=limits, output_dir=output_dir, argv_prefix=sandboxing.argv_prefix)
    except (FileNotFoundError, PermissionError) as exc:
        raise ToolError(f"Could not start the shell: {exc}") from exc
    if outcome.final_dir is not None:
        ctx.shell.cwd = outcome.final_dir.path
    run = outcome.run
    run.notes.extend(note for note in (start.note, outcome.final_dir and outcome.final_dir.note)
                     if note)
    run.notes.extend(sandboxing.notes(run.exit_code, run.stdout, run.stderr))
    return ToolResult(data=run, is_error=run.failed)


TOOL = build_tool(
    name="Bash",
    presentation=PRESENTATION,
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
    # Output is limited at the source (BASH_MAX_OUTPUT_LENGTH, at most the cap; the rest goes to
    # a file the result names); the margin keeps the pipeline from persisting it a second time.
    max_result_size_chars=MAX_OUTPUT_CHARS_CAP + 10_000,
    search_hint="run shell commands, tests, git, builds",
)
