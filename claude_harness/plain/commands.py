"""Slash commands of the plain REPL: the list completion offers and what each one does.

Commands act on engine state the engine exposes (model, mode, totals, messages) and print
through the renderer; they never run the loop.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text

from claude_harness.api.models import MODEL_ALIASES, resolve_alias
from claude_harness.permissions.types import PermissionMode
from claude_harness.plain.previews import todo_lines
from claude_harness.protocol.context import FileStateCache

if TYPE_CHECKING:
    from claude_harness.plain.render import EventRenderer
    from claude_harness.session.core import Engine

SLASH_COMMANDS: dict[str, str] = {
    "/help": "show commands and keys",
    "/clear": "start a fresh conversation (the history is forgotten)",
    "/model": "show or set the model: /model sonnet",
    "/compact": "summarise the conversation to free context: /compact [focus]",
    "/cost": "tokens and cost of this session",
    "/status": "model, permission mode, folder, session",
    "/permissions": "the permission rules in effect",
    "/mode": "show or set the permission mode: /mode acceptEdits",
    "/todos": "the model's current task checklist",
    "/exit": "leave (also /quit, Ctrl+D, Ctrl+C twice)",
    "/quit": "leave",
}

MODES: tuple[PermissionMode, ...] = ("default", "acceptEdits", "plan", "bypassPermissions",
                                     "dontAsk")

KEYS_HELP = [
    "Enter sends · \\+Enter, Alt+Enter (or Shift+Enter where the terminal reports it) = newline",
    "Shift+Tab cycles the permission mode · Up/Down browse history",
    "Ctrl+C interrupts a running turn; twice on an empty line exits",
    "!cmd runs a shell command and gives its output to the next prompt · @path mentions a file",
]


@dataclass
class CommandOutcome:
    exit: bool = False
    handled: bool = True


async def run_command(line: str, engine: Engine, out: EventRenderer) -> CommandOutcome:
    """Run one `/command args` line."""
    name, _, arg = line.strip().partition(" ")
    arg = arg.strip()
    handler = HANDLERS.get(name)
    if handler is None:
        out.line(f"Unknown command {name}. Type /help for the list.", "ch.error")
        return CommandOutcome(handled=False)
    result = handler(arg, engine, out)
    if inspect.isawaitable(result):
        result = await result
    return result or CommandOutcome()


def _help(arg: str, engine: Engine, out: EventRenderer) -> None:
    for name, text in SLASH_COMMANDS.items():
        row = Text()
        row.append(f"{name:<14}", style="ch.tool")
        row.append(text)
        out.console.print(row)
    for line in KEYS_HELP:
        out.line(line, "ch.dim")


def _clear(arg: str, engine: Engine, out: EventRenderer) -> None:
    engine.messages.clear()
    engine.read_file_state = FileStateCache()  # re-read before editing in the new conversation
    out.line("Conversation cleared.", "ch.dim")


def _model(arg: str, engine: Engine, out: EventRenderer) -> None:
    if arg:
        engine.model = resolve_alias(arg)
        out.line(f"Model set to {engine.model}.", "ch.dim")
    else:
        out.line(f"Model: {engine.model} (aliases: {', '.join(MODEL_ALIASES)})")


def _cost(arg: str, engine: Engine, out: EventRenderer) -> None:
    t = engine.totals
    out.line(f"Total cost:   ${t.cost_usd:.4f}")
    out.line(f"API time:     {engine.api_time:.1f}s over {t.api_turns} request(s)")
    out.line(f"Tokens:       {t.input_tokens} in, {t.output_tokens} out, "
             f"{t.cache_read_tokens} cache read, {t.cache_write_tokens} cache write")


def _status(arg: str, engine: Engine, out: EventRenderer) -> None:
    out.line(f"Model:        {engine.model}")
    out.line(f"Mode:         {engine.mode}")
    out.line(f"Folder:       {engine.config.cwd}")
    out.line(f"Session:      {engine.session_id}")
    if engine.transcript_path:
        out.line(f"Transcript:   {engine.transcript_path}")
    out.line(f"Context:      {engine.context_percent:.0f}% used")


def _permissions(arg: str, engine: Engine, out: EventRenderer) -> None:
    rules = list(engine.permission.rules) + list(engine.session_rules)
    if not rules:
        out.line("No permission rules; every write or command asks.", "ch.dim")
        return
    for rule in rules:
        value = getattr(rule, "value", rule)
        source = getattr(rule, "source", "session")
        behavior = getattr(rule, "behavior", "allow")
        out.line(f"{behavior:<6} {value}  ({source})")


def _mode(arg: str, engine: Engine, out: EventRenderer) -> None:
    if not arg:
        out.line(f"Mode: {engine.mode}")
        return
    if arg not in MODES or (arg == "bypassPermissions" and not engine.permission.bypass_available):
        out.line(f"Cannot switch to mode {arg!r}.", "ch.error")
        return
    engine.set_mode(arg)  # type: ignore[arg-type]
    out.line(f"Mode set to {arg}.", "ch.dim")


def _todos(arg: str, engine: Engine, out: EventRenderer) -> None:
    from claude_harness.tools.todo_write import get_todos

    out.console.print(todo_lines(list(get_todos())))


async def _compact(arg: str, engine: Engine, out: EventRenderer) -> None:
    compact = getattr(engine, "compact", None)
    if compact is None:
        out.line("/compact is not available in this build.", "ch.warning")
        return
    out.line("Compacting the conversation…", "ch.dim")
    async for event in compact(arg):
        out.render(event)
    out.settle()


def _exit(arg: str, engine: Engine, out: EventRenderer) -> CommandOutcome:
    return CommandOutcome(exit=True)


HANDLERS: dict[str, Callable[[str, Engine, EventRenderer], Any]] = {
    "/help": _help, "/clear": _clear, "/model": _model, "/cost": _cost, "/status": _status,
    "/permissions": _permissions, "/mode": _mode, "/compact": _compact, "/todos": _todos, "/exit": _exit,
    "/quit": _exit,
}
