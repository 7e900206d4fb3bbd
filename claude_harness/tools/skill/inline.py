"""A skill's or custom command's !`cmd` spans, run as Claude Code 2.1.332 runs them, whoever
loaded it: the person typing `/name` (session/prompt/command_prompt.py) or the model calling
the Skill tool (tool.py). One path, so the policy and the checks cannot differ between them.

Each span asks PreSkillShellCommand first (tool_name Bash, tool_input.command, command_name,
command_source, invoked_by "user" or "claude"); a hook that refuses it keeps it from running
and its place says why (`[not run: blocked by hook: REASON]`). Then it runs through the Bash
tool's whole pipeline with the permission context given (the caller adds the command's
allowed-tools); one that is refused or fails ends the load with Claude Code's words
(`Shell command permission check failed for pattern ...`). With disableSkillShellExecution no
span runs: each becomes `[shell command execution disabled by policy]`.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

from claude_harness.commands.custom import COMMAND_SOURCES
from claude_harness.commands.expansion import inline_commands, run_inline_commands
from claude_harness.hooks.events import PRE_SKILL_SHELL_COMMAND
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.events import AgentEvent, HookRan, Notice
from claude_harness.tools.pipeline import (
    NESTED_CALL_EVENTS,
    ToolOutcome,
    check_permissions_and_call_tool,
)

_inline_ids = itertools.count(1)
SHELL_DISABLED = "[shell command execution disabled by policy]"  # Claude Code 2.1.332's words


@dataclass(frozen=True)
class ShellExpansion:
    """The text with every span replaced by its output, or why the load must stop."""

    text: str
    refusal: str | None = None


async def expand_shell(text: str, command: Any, ctx: ToolUseContext, *, disabled: bool,
                       invoked_by: str) -> AsyncIterator[AgentEvent | ShellExpansion]:
    """The events to show as the spans run (a permission prompt must reach the person while
    the call waits), then one ShellExpansion."""
    if disabled:
        yield ShellExpansion(await run_inline_commands(text, _placeholder))
        return
    outputs: list[str] = []
    for inline in inline_commands(text):
        refusal = None
        async for item in _pre_skill_shell_command(inline, command, ctx, invoked_by):
            if isinstance(item, str):
                refusal = item
            else:
                yield item
        if refusal is not None:
            outputs.append(refusal)
            continue
        outcome: ToolOutcome | None = None
        async for event in _run_inline(inline, ctx):
            if isinstance(event, ToolOutcome):
                outcome = event
            else:
                yield event
        assert outcome is not None
        output, failure = _inline_result(inline, outcome)
        if failure is not None:
            yield ShellExpansion("", failure)
            return
        outputs.append(output)
    replies = iter(outputs)
    yield ShellExpansion(await run_inline_commands(text, lambda _command: _next(replies)))


async def _pre_skill_shell_command(inline: str, command: Any, ctx: ToolUseContext,
                                   invoked_by: str) -> AsyncIterator[AgentEvent | str]:
    """PreSkillShellCommand for one !`cmd`: the events to show, then (when a hook refuses it)
    the text that takes its place."""
    hooks = ctx.hooks
    if hooks is None or not hooks.has_hooks(PRE_SKILL_SHELL_COMMAND):
        return
    outcome = await hooks.run(PRE_SKILL_SHELL_COMMAND, {
        "tool_name": "Bash", "tool_input": {"command": inline},
        "tool_use_id": f"skill_shell_{next(_inline_ids)}", "command_name": command.name,
        "command_source": COMMAND_SOURCES.get(command.scope, command.scope),
        "invoked_by": invoked_by, "cwd": str(ctx.cwd)})
    if outcome.ran:
        yield HookRan(outcome.event, outcome)
    for message in outcome.system_messages:
        yield Notice(f"PreSkillShellCommand says: {message}")
    for error in outcome.errors:
        yield Notice(error, "warning")
    decision = outcome.permission_decision
    refused = outcome.blocked or outcome.updated_input is not None or (
        decision is not None and decision.behavior != "allow")
    if not refused:
        return
    reason = outcome.block_reason or (decision.reason if decision is not None else "")
    said = f"blocked by hook: {reason}" if reason else "blocked by hook"
    yield Notice(f"Not run in /{command.name}: {inline} ({said})", "warning")
    yield f"[not run: {said}]"


async def _placeholder(_command: str) -> str:
    return SHELL_DISABLED


async def _run_inline(command: str, ctx: ToolUseContext) -> AsyncIterator[Any]:
    """Events of the inline Bash call as they happen, then its ToolOutcome."""
    queue: asyncio.Queue[AgentEvent] = asyncio.Queue()
    block = {"id": f"inline_{next(_inline_ids)}", "name": "Bash",
             "input": {"command": command, "description": "A custom command's !`command`"}}
    task = asyncio.create_task(check_permissions_and_call_tool(block, ctx, queue.put_nowait))
    try:
        while not task.done() or not queue.empty():
            getter = asyncio.ensure_future(queue.get())
            await asyncio.wait({task, getter}, return_when=asyncio.FIRST_COMPLETED)
            if getter.done():
                event = getter.result()
                if isinstance(event, NESTED_CALL_EVENTS):
                    yield event
            else:
                getter.cancel()
    finally:
        if not task.done():
            task.cancel()
    yield task.result()


def _inline_result(command: str, outcome: ToolOutcome) -> tuple[str, str | None]:
    """(the output that replaces the span, or the reason the command must stop)."""
    pattern = f'"!`{command}`"'
    if "execute" not in outcome.trace:
        reason = _text(outcome.content).removeprefix("<tool_use_error>")
        reason = reason.removesuffix("</tool_use_error>").strip()
        return "", f"Shell command permission check failed for pattern {pattern}: {reason}"
    run = outcome.data
    stdout = getattr(run, "stdout", None)
    stderr = getattr(run, "stderr", "") or ""
    if outcome.is_error:
        detail = f"[stderr]\n{stderr.rstrip()}" if stderr.strip() else _text(outcome.content)
        return "", f"Shell command failed for pattern {pattern}: {detail}"
    if stdout is None:
        return _text(outcome.content).rstrip("\n"), None
    output = stdout.rstrip("\n")
    if stderr.strip():
        output = f"{output}\n{stderr.rstrip()}" if output else stderr.rstrip()
    return output, None


async def _next(replies: Iterator[str]) -> str:
    return next(replies)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
