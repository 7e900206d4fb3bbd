"""The one table of slash commands, shared by the Textual app and the plain REPL.

Each built-in has a name, a description, an argument hint, and either a handler that turns its
arguments into ops for the session, or the name of a front-end action (something only the
screen can do: /help, /theme, /export, /exit...). Any other `/name args` becomes a RunCommand
op: the session expands a custom command from `.claude/commands` or `~/.claude/commands`, or
says it does not know it. `-p` reads the same table (frontends/headless.py): a built-in with
ops runs there without a request, one that only a screen can do says it is not available there,
a custom command is expanded by the session, any other `/word` goes to the model as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_harness.commands.command_spec import Command
from claude_harness.commands.more_builtins import MORE_BUILTINS, NOT_HERE
from claude_harness.commands.panel_commands import PANEL_COMMANDS
from claude_harness.protocol import ops

INIT_PROMPT = (
    "Please analyse this codebase and create a CLAUDE.md file in the repository root with the "
    "guidance a coding assistant needs here: how to build, lint and run the tests (including a "
    "single test), the high-level architecture, and conventions that are not obvious from a "
    "single file. Keep it short and specific to this project; if a CLAUDE.md exists, improve it."
)
_COMMAND = re.compile(r"/([A-Za-z0-9_][A-Za-z0-9_:.-]*)(?:\s+(.*))?", re.DOTALL)


@dataclass(frozen=True)
class Invocation:
    """What a `/command args` line asks for: ops to submit and/or a front-end action."""

    name: str
    args: str
    ops: tuple[ops.Op, ...] = ()
    action: str | None = None


def _optional(make: Callable[[str], ops.Op]) -> Callable[[str], list[ops.Op]]:
    """With arguments: the op; without: nothing (the front end shows the current value)."""
    return lambda args: [make(args)] if args else []


def _agents(args: str) -> list[ops.Op]:
    """`/agents`: the list (the app opens its panel instead: frontends/tui/commands.PANELS); `view NAME`
    one agent; `create` and `edit` are the front end's (a form, an editor)."""
    verb, _, name = args.partition(" ")
    if verb == "view" and name.strip():
        return [ops.SessionCommand("agent-view", name.strip())]
    if verb in ("create", "new", "edit"):
        return []
    return [ops.Describe("agents")]


def _mcp(args: str) -> list[ops.Op]:
    """`/mcp`: the status list (the app opens its panel instead); a verb acts on a server."""
    verb, _, name = args.partition(" ")
    if verb in ("approve", "reconnect", "enable", "disable") and name.strip():
        return [ops.McpServer(verb, name.strip())]  # type: ignore[arg-type]
    if verb == "authenticate" and name.strip():
        return [ops.McpAuthenticate(name.strip())]
    return [ops.Describe("mcp")]


BUILTINS: tuple[Command, ...] = (
    Command("help", "commands and keys", action="help"),
    Command("clear", "start a fresh conversation", to_ops=lambda a: [ops.Clear()]),
    Command("compact", "summarise the conversation to free context", "[focus]",
            to_ops=lambda a: [ops.Compact(a)]),
    Command("model", "show or switch the model (sonnet, opus, haiku or an id)", "[model]",
            to_ops=_optional(ops.SetModel), action="model"),
    Command("mode", "show or set the permission mode", "[mode]",
            to_ops=_optional(ops.SetMode), action="mode"),
    *PANEL_COMMANDS[:2],  # /config, /permissions (commands/panel_commands.py)
    Command("resume", "list earlier sessions; /resume <n> continues one", "[n|id]",
            action="resume"),
    Command("usage", "cost and token usage of this session (also /cost)", aliases=("cost",),
            to_ops=lambda a: [ops.SessionCommand("usage")]),
    Command("status", "model, mode, session, API endpoint, tools", action="status"),
    Command("todos", "the model's current task checklist", action="todos"),
    Command("theme", "show or switch the theme", "[name]", action="theme"),
    Command("export", "write the conversation as Markdown", "[file]", action="export"),
    PANEL_COMMANDS[2],  # /hooks
    Command("mcp", "MCP servers: status, tools; reconnect|enable|disable|approve|"
            "authenticate <name>", "[reconnect|enable|disable|approve|authenticate <name>]",
            to_ops=_mcp),
    Command("memory", "list (and with $EDITOR, edit) the CLAUDE.md memory files",
            action="memory"),
    Command("init", "ask the model to write a CLAUDE.md for this project",
            to_ops=lambda a: [ops.UserPrompt(INIT_PROMPT)]),
    Command("exit", "quit (also /quit)", action="exit", aliases=("quit",)),
    Command("sandbox", "the Bash sandbox; on|off switches it for this project", "[on|off]",
            to_ops=lambda a: [ops.SetSandbox(a == "on")] if a in ("on", "off")
            else [ops.Describe("sandbox")]),
    # the configuration: load report, agents, plugins
    Command("doctor", "what the configuration loaded, skipped or does not support, and why",
            to_ops=lambda a: [ops.Describe("doctor")]),
    Command("agents", "agent types: view, create, delete; view <name>, create <name> "
            "<description>, edit <name> ($EDITOR)",
            "[view <name> | create <name> <description> | edit <name>]",
            to_ops=lambda a: _agents(a),
            action="agents"),
    Command("plugin", "plugins and what each one contributes", aliases=("plugins",),
            to_ops=lambda a: [ops.Describe("plugins")]),
    # rewind, tasks, models, styles, memory, context
    Command("rewind", "restore the code and/or the conversation to before a prompt "
            "(also Esc Esc)", action="rewind"),
    Command("tasks", "background commands: list them, kill one (also /bashes)", "[kill <id>]",
            to_ops=lambda a: _tasks(a), action="tasks", aliases=("bashes",)),
    Command("context", "what fills the context window", to_ops=lambda a: [ops.MeasureContext()]),
    Command("output-style", "how the assistant talks: Default, Explanatory, Learning, yours",
            "[style]", to_ops=_optional(ops.SetOutputStyle), action="output-style"),
    Command("rename", "give this conversation a title (shown by /resume)", "<title>",
            to_ops=lambda a: [ops.RenameSession(a)] if a else [], action="rename"),
    Command("effort", "show or set the effort level (low, medium, high, xhigh, max, auto)",
            "[low|medium|high|xhigh|max|auto]", to_ops=_optional(ops.SetEffort),
            action="effort"),
    Command("add-dir", "add a working directory for this session", "<directory>",
            to_ops=_optional(ops.AddDirectory), action="add-dir"),
)


def _tasks(args: str) -> list[ops.Op]:
    verb, _, task_id = args.partition(" ")
    return [ops.StopTask(task_id.strip())] if verb == "kill" and task_id.strip() else []


BUILTINS += MORE_BUILTINS
NOT_HERE_HELP = ("Not available here (each says why): "
                 + " ".join(f"/{c.name}" for c in NOT_HERE))
_BY_NAME = {name: c for c in (*BUILTINS, *NOT_HERE) for name in (c.name, *c.aliases)}


def parse(line: str) -> tuple[str, str] | None:
    """`/name args` -> (name, args); None for text (`//x`, `/usr/bin/env ...`, no slash)."""
    match = _COMMAND.fullmatch(line.strip())
    if not line.startswith("/") or match is None:
        return None
    return match.group(1), (match.group(2) or "").strip()


def invoke(line: str) -> Invocation | None:
    """What `line` asks for, or None when it is a prompt for the model."""
    parsed = parse(line)
    if parsed is None:
        return None
    name, args = parsed
    command = _BY_NAME.get(name)
    if command is None:
        return Invocation(name, args, (ops.RunCommand(name, args),))
    made = tuple(command.to_ops(args)) if command.to_ops is not None else ()
    return Invocation(command.name, args, made, None if made else command.action)


def custom_commands(cwd: Path) -> list[Any]:
    """The custom commands and skills a person may type, plugins' included: the session's
    catalog (loaded at start-up), or this folder's when no session has started yet."""
    from claude_harness.commands.catalog import catalog_for  # YAML and files: on first use

    return [c for c in catalog_for(cwd).command_list() if c.user_invocable]


def describe_commands(cwd: Path, prefix: str = "") -> list[tuple[str, str]]:
    """(`/name`, description) of every command starting with `prefix`, built-ins first."""
    rows = [(f"/{c.name}", c.description) for c in BUILTINS if c.name.startswith(prefix)]
    rows += [(f"/{c.name}", c.description or "custom command") for c in custom_commands(cwd)
             if c.name.startswith(prefix) and c.name not in _BY_NAME]
    return rows


def command_names(cwd: Path) -> list[str]:
    listed = {name for c in BUILTINS for name in (c.name, *c.aliases)}  # not NOT_HERE's
    return sorted({*listed, *(c.name for c in custom_commands(cwd))})
