"""Slash commands in the plain REPL: the shared table (`commands/registry.py`) says what each
one is; ops go to the session, and the REPL's own actions (/help, /status, /todos...) print from
its SessionView. Nothing here reads or changes the session.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from claude_harness.commands.mcp_prompts import prompt_help_lines
from claude_harness.commands.registry import BUILTINS, NOT_HERE_HELP, custom_commands
from claude_harness.frontends.plain.previews import todo_lines
from claude_harness.frontends.shared.event_text import effort_status
from claude_harness.protocol.ops import Describe, Op, Resume
from claude_harness.protocol.view import SessionView

if TYPE_CHECKING:
    from claude_harness.frontends.plain.render import EventRenderer

SLASH_COMMANDS: dict[str, str] = {
    f"/{name}": c.description for c in BUILTINS for name in (c.name, *c.aliases)}

KEYS_HELP = [
    "Enter sends · \\+Enter, Alt+Enter (or Shift+Enter where the terminal reports it) = newline",
    "Shift+Tab cycles the permission mode · Up/Down browse history",
    "Ctrl+C interrupts a running turn; twice on an empty line exits",
    "!cmd runs a shell command and gives its output to the next prompt · @path mentions a file",
]
UNAVAILABLE = {"theme", "export"}  # the app's own: there is no screen to theme here


def _help(view: SessionView, out: EventRenderer, args: str) -> list[Op]:
    for name, text in all_commands(view).items():
        row = Text()
        row.append(f"{name:<14}", style="ch.tool")
        row.append(text)
        out.console.print(row)
    for line in prompt_help_lines(view.mcp_prompts):
        out.line(line)
    out.line(NOT_HERE_HELP, "ch.dim")
    for line in KEYS_HELP:
        out.line(line, "ch.dim")
    return []


def all_commands(view: SessionView | None = None) -> dict[str, str]:
    """Built-ins, then the custom commands and skills of the session's catalog."""
    cwd = Path(view.started.cwd) if view is not None and view.started else Path.cwd()
    customs = {f"/{c.name}": (c.description or "custom command")
               + (f" {c.argument_hint}" if c.argument_hint else "")
               for c in custom_commands(cwd)}
    return {**SLASH_COMMANDS, **{k: v for k, v in customs.items() if k not in SLASH_COMMANDS}}


def _agents(view: SessionView, out: EventRenderer, args: str) -> list[Op]:
    """`/agents create <name> <description>` / `/agents edit <name>`, then $EDITOR."""
    from claude_harness.commands.agent_files import agent_command  # a rare command

    cwd = Path(view.started.cwd) if view.started else Path.cwd()
    message, level, path = agent_command(cwd, args)
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if path is not None and editor:
        os.system(f"{editor} {shlex.quote(str(path))}")  # noqa: S605 - the user's editor
    out.line(message, "ch.error" if level == "error" else "")
    return []


def _model(view: SessionView, out: EventRenderer, args: str) -> list[Op]:
    out.line(f"Model: {view.model} (aliases: sonnet, opus, haiku)")
    return []


def _mode(view: SessionView, out: EventRenderer, args: str) -> list[Op]:
    out.line(f"Mode: {view.mode}")
    return []


def _status(view: SessionView, out: EventRenderer, args: str) -> list[Op]:
    started = view.started
    out.line(f"Model:        {view.model}")
    out.line(f"Mode:         {view.mode}")
    if started is not None:
        out.line(f"Folder:       {started.cwd}")
    out.line(f"Session:      {view.session_id}")
    if started is not None and started.transcript_path:
        out.line(f"Transcript:   {started.transcript_path}")
    if started is not None and started.unsupported_settings:
        out.line("Unsupported:  " + ", ".join(started.unsupported_settings) + " (ignored)")
    out.line(f"Context:      {view.totals.context_percent:.0f}% used")
    for line in effort_status(view.controls):
        label, _, value = line.partition(": ")
        out.line(f"{label + ':':<14}{value}")
    if view.directories:
        out.line(f"{'Directories:':<14}{', '.join(view.directories)}")
    return []


def _effort(view: SessionView, out: EventRenderer, args: str) -> list[Op]:
    current = effort_status(view.controls) or ["Effort: not known yet"]
    out.line(f"{current[0]} · /effort low|medium|high|xhigh|max|auto")
    return []


def _add_dir(view: SessionView, out: EventRenderer, args: str) -> list[Op]:
    out.line("Usage: /add-dir <directory>", "ch.error")
    return []


def _todos(view: SessionView, out: EventRenderer, args: str) -> list[Op]:
    out.console.print(todo_lines(list(view.todos)))
    return []


def _memory(view: SessionView, out: EventRenderer, args: str) -> list[Op]:
    return [Describe("memory")]


def _resume(view: SessionView, out: EventRenderer, args: str) -> list[Op]:
    if args:
        return [Resume(args)]
    out.line("Usage: /resume <session id> (or start with claude-harness -r to pick one)",
             "ch.dim")
    return []


Action = Callable[[SessionView, "EventRenderer", str], list[Op]]
ACTIONS: dict[str, Action] = {
    "help": _help, "model": _model, "mode": _mode, "status": _status,
    "todos": _todos, "memory": _memory, "resume": _resume, "agents": _agents,
    "effort": _effort, "add-dir": _add_dir,
}
