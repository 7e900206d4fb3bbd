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
(`SHELL_DISABLED`) in the message sent. The spans run in tools/skill/inline.py, which the
model's Skill tool shares (there with invoked_by "claude").
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from typing import Any

from claude_harness.agent.hook_points import prompt_expansion
from claude_harness.commands.catalog import Catalog
from claude_harness.commands.expansion import ExpandedPrompt, expand
from claude_harness.commands.registry import parse
from claude_harness.permissions.rules import allow_rules
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.events import AgentEvent, Notice
from claude_harness.session.prompt.mentions import attach_mentions
from claude_harness.tools.skill.inline import SHELL_DISABLED, ShellExpansion, expand_shell


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
        text = expanded.text
        async for item in expand_shell(expanded.text, command, ctx, disabled=self.shell_disabled,
                                       invoked_by="user"):
            if isinstance(item, ShellExpansion):
                if item.refusal is not None:
                    self.result = PreparedCommand([], refusal=item.refusal)
                    return
                text = item.text
            else:
                yield item
        attachments = await asyncio.to_thread(attach_mentions, text, ctx.cwd, ctx.permission)
        attachments.mark_read(ctx)
        for problem in attachments.problems:
            yield Notice(f"Not attached: {problem}", "warning")
        expanded = replace(expanded, text=text)
        self.result = PreparedCommand([*attachments.blocks, *expanded.blocks(), *context],
                                      expanded.allowed_tools, expanded.model)


__all__ = ["SHELL_DISABLED", "AsIs", "CommandPreparation", "ExpandedPrompt", "PreparedCommand",
           "typed_command"]
