"""A custom command or skill typed as `/name args`, turned into the user message Claude Code
2.1.332 sends for it (observed against the scripted server):

    <system-reminder>Called the Read tool ... {"file_path": "<an @path of the body>"}</...>
    <system-reminder>Result of calling the Read tool: ...</...>
    <command-message>fix</command-message>\\n<command-name>/fix</command-name>\\n
    <command-args>42 high</command-args>\\n
    Fix issue high ...                     (the body, arguments filled, !`cmd` spans replaced)

Every `!`cmd`` span runs through the Bash tool's whole pipeline (rules, hooks, mode, the
prompt in the app and the REPL), with the command's `allowed-tools` as allow rules for that
call only; one that is refused or fails ends the command before anything is sent, with Claude
Code's words (`Shell command permission check failed for pattern ...`). In a folder the person
has not trusted, a project command's `allowed-tools` grant nothing (as the project's settings
grant nothing there): its inline commands meet the ordinary rules. `@path` references are
attached as Read results (a file a deny rule protects is not). Before each inline command,
PreSkillShellCommand hooks are asked (tool_name Bash, tool_input.command, command_name,
command_source, invoked_by "user"): one that refuses it (exit 2, `decision: "block"`, a deny,
ask or updatedInput answer, as in Claude Code) keeps it from running; its place in the text
becomes `[not run: blocked by hook: REASON]` and the person is told. A command marked
`user-invocable: false` cannot be typed; it stays available to the model's Skill tool.
With `disableSkillShellExecution` no span runs: each becomes Claude Code's placeholder
(`SHELL_DISABLED`) in the message sent.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace
from typing import Any

from claude_harness.agent.hook_points import prompt_expansion
from claude_harness.agent.subagent import PASSED_TO_SESSION
from claude_harness.commands.catalog import Catalog
from claude_harness.commands.custom import COMMAND_SOURCES
from claude_harness.commands.expansion import (
    ExpandedPrompt,
    expand,
    inline_commands,
    run_inline_commands,
)
from claude_harness.commands.registry import parse
from claude_harness.hooks.events import PRE_SKILL_SHELL_COMMAND
from claude_harness.permissions.rules import allow_rules
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.events import AgentEvent, HookRan, Notice
from claude_harness.session.prompt.mentions import attach_mentions
from claude_harness.tools.pipeline import ToolOutcome, check_permissions_and_call_tool

_inline_ids = itertools.count(1)
SHELL_DISABLED = "[shell command execution disabled by policy]"  # Claude Code 2.1.332's words
SHOWN_EVENTS = PASSED_TO_SESSION  # a prompt, a denial, a hook's report, a notice


@dataclass
class PreparedCommand:
    """What a typed command sends (or, with `refusal`, why nothing is sent)."""

    content: list[dict[str, Any]]
    allowed_tools: tuple[str, ...] = ()
    model: str | None = None
    refusal: str | None = None


def typed_command(catalog: Catalog, text: str) -> tuple[Any, str] | None:
    """(command, args) when `text` is `/name args` naming a custom command or skill."""
    parsed = parse(text) if text.startswith("/") else None
    if parsed is None:
        return None
    command = catalog.find_command(parsed[0])
    return (command, parsed[1]) if command is not None else None


class AsIs:
    """A prompt that names no command: its content goes as it is (the same interface as
    CommandPreparation, so the session has one path)."""

    def __init__(self, content: list[dict[str, Any]]) -> None:
        self.result = PreparedCommand(content)

    async def run(self) -> AsyncIterator[AgentEvent]:
        return
        yield  # an async generator that yields nothing


class CommandPreparation:
    """Prepare one typed command: iterate `run()` for the events to show (a permission prompt
    for an inline command), then read `result`."""

    def __init__(self, command: Any, args: str, ctx: ToolUseContext, *, session_id: str,
                 trusted: bool = True, shell_disabled: bool = False) -> None:
        self.command = command
        self.shell_disabled = shell_disabled  # disableSkillShellExecution
        self.args = args
        self.ctx = ctx
        self.session_id = session_id
        self.trusted = trusted
        self.result = PreparedCommand([])  # replaced by run()

    async def run(self) -> AsyncIterator[AgentEvent]:
        command = self.command
        if not command.user_invocable:
            self.result = PreparedCommand([], refusal=(
                "This skill can only be invoked by Claude, not directly by users. Ask Claude to "
                f'use the "{command.name}" skill for you.'))
            return
        expanded = expand(command, self.args, session_id=self.session_id,
                          project_dir=self.ctx.permission.cwd)
        blocked, context, shown = await prompt_expansion(
            self.ctx, command, self.args, f"/{command.name} {self.args}".strip())
        for event in shown:
            yield event
        if blocked is not None:
            self.result = PreparedCommand([], refusal=blocked)
            return
        if expanded.allowed_tools and command.scope == "project" and not self.trusted:
            yield Notice(f"/{command.name}: its allowed-tools are not applied: this folder has "
                         "not been trusted (ordinary permission rules decide).", "warning")
            expanded = replace(expanded, allowed_tools=())
        ctx = replace(self.ctx, permission=replace(
            self.ctx.permission,
            rules=(*self.ctx.permission.rules, *allow_rules(expanded.allowed_tools))))
        outputs: list[str] = []
        for inline in [] if self.shell_disabled else inline_commands(expanded.text):
            refusal = None
            async for item in _pre_skill_shell_command(inline, command, ctx):
                if isinstance(item, str):
                    refusal = item
                else:
                    yield item
            if refusal is not None:
                outputs.append(refusal)
                continue
            outcome: ToolOutcome | None = None
            async for item in _run_inline(inline, ctx):
                if isinstance(item, ToolOutcome):
                    outcome = item
                else:
                    yield item
            assert outcome is not None
            output, failure = _inline_result(inline, outcome)
            if failure is not None:
                self.result = PreparedCommand([], refusal=failure)
                return
            outputs.append(output)
        replies = iter(outputs)
        text = await run_inline_commands(expanded.text, _placeholder if self.shell_disabled
                                         else lambda _command: _next(replies))
        attachments = await asyncio.to_thread(attach_mentions, text, ctx.cwd, ctx.permission)
        attachments.mark_read(ctx)
        for problem in attachments.problems:
            yield Notice(f"Not attached: {problem}", "warning")
        expanded = replace(expanded, text=text)
        self.result = PreparedCommand([*attachments.blocks, *expanded.blocks(), *context],
                                      expanded.allowed_tools, expanded.model)


async def _pre_skill_shell_command(inline: str, command: Any, ctx: ToolUseContext
                                   ) -> AsyncIterator[AgentEvent | str]:
    """PreSkillShellCommand for one !`cmd`: the events to show, then (when a hook refuses it)
    the text that takes its place."""
    hooks = ctx.hooks
    if hooks is None or not hooks.has_hooks(PRE_SKILL_SHELL_COMMAND):
        return
    outcome = await hooks.run(PRE_SKILL_SHELL_COMMAND, {
        "tool_name": "Bash", "tool_input": {"command": inline},
        "tool_use_id": f"skill_shell_{next(_inline_ids)}", "command_name": command.name,
        "command_source": COMMAND_SOURCES.get(command.scope, command.scope),
        "invoked_by": "user", "cwd": str(ctx.cwd)})
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
    """Events of the inline Bash call as they happen (a permission prompt must reach the person
    while the call waits), then its ToolOutcome."""
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
                if isinstance(event, SHOWN_EVENTS):
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


__all__ = ["AsIs", "CommandPreparation", "ExpandedPrompt", "PreparedCommand", "typed_command"]
