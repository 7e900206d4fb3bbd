"""Slash commands in the app: the shared table (`commands/registry.py`) says what each one is;
ops go to the session, and the app's own actions (/help, /theme, /export, /resume's picker...)
are here. This module does not import the app: it works on the small `Host` it is given.
"""

from __future__ import annotations

import datetime as _dt
import os
import shlex
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from claude_harness.commands.mcp_prompts import prompt_help_lines
from claude_harness.commands.registry import BUILTINS, NOT_HERE_HELP, custom_commands, invoke
from claude_harness.config.paths import data_dir
from claude_harness.frontends.shared.event_text import effort_status
from claude_harness.frontends.tui.export import conversation_markdown
from claude_harness.frontends.tui.themes import save_user_theme
from claude_harness.fsutil import atomic_write_text
from claude_harness.protocol.ops import Describe, Op, Resume
from claude_harness.protocol.view import SessionView
from claude_harness.session.store.titles import search, summarize
from claude_harness.session.store.transcript import history_roots, list_sessions

KEYS_HELP = (
    "Keys: Enter send · Shift+Enter or \\+Enter newline · Up/Down history · Tab completes "
    "/commands and @paths · Shift+Tab mode · Esc interrupt · Ctrl+C interrupt (twice on an "
    "empty prompt exits) · Ctrl+D exit · Ctrl+O tool details and thinking · Ctrl+T todos · "
    "Alt+T thinking on/off · !cmd runs a shell command and gives its output to the model · "
    "Esc Esc rewind · Ctrl+B running command to the background · Alt+P model · Ctrl+R search "
    "history · Ctrl+G edit in $EDITOR · Ctrl+V paste an image · #note saves to memory"
)


class Host(Protocol):
    """What the commands need of the app."""

    cwd: Path
    theme: str

    @property
    def view(self) -> SessionView | None: ...  # None until the session has started
    @property
    def available_themes(self) -> dict[str, Any]: ...

    @property
    def has_session(self) -> bool: ...
    def submit(self, op: Op) -> None: ...
    async def post_notice(self, text: str, level: str = "info", *, boxed: bool = False) -> None: ...
    def apply_theme(self, name: str, errors: list[str] | None = None) -> bool: ...
    def exit(self) -> None: ...
    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...
    def suspend(self) -> Any: ...
    def toggle_todos(self) -> None: ...

    @property
    def dock(self) -> Any: ...  # frontends/tui/picker_dock.PickerDock once the session is ready


Action = Callable[[Host, str], Awaitable[None]]
NEEDS_SESSION = {"model", "mode", "resume", "todos", "export", "memory", "rewind",
                 "tasks", "output-style", "effort", "config", "permissions", "hooks"}


def session_view(host: Host) -> SessionView:
    """The session's view, for a command of NEEDS_SESSION (run_command runs those only once
    the session has started)."""
    view = host.view
    assert view is not None, "a command that needs the session ran before it started"
    return view


async def run_command(host: Host, line: str) -> bool:
    """Run `line` if it is a `/command`; False when it is a prompt for the model."""
    invocation = invoke(line)
    if invocation is None:
        return False
    if (invocation.ops or invocation.action in NEEDS_SESSION) and host.view is None:
        await host.post_notice(f"/{invocation.name} needs the agent, which is still starting.",
                               "warning")
        return True
    panel = PANELS.get(invocation.name) if not invocation.args else None
    if panel is not None:  # the list the other front ends print: a panel here
        await panel(host, "")
        return True
    for op in invocation.ops:
        host.submit(op)
    if invocation.action is not None:
        await ACTIONS[invocation.action](host, invocation.args)
    return True


async def _help(host: Host, _args: str) -> None:
    lines = [f"/{c.name} — {c.description}" for c in BUILTINS]
    lines += [f"/{c.name} — {c.description or 'custom command'} ({c.path})"
              for c in custom_commands(host.cwd)]
    if host.view is not None:
        lines += prompt_help_lines(host.view.mcp_prompts)
    await host.post_notice("\n".join([*lines, NOT_HERE_HELP, "", KEYS_HELP]), boxed=True)


async def _model(host: Host, _args: str) -> None:
    """No argument: the models table to pick from (also Alt+P)."""
    host.dock.open_models()


async def _mode(host: Host, _args: str) -> None:
    await host.post_notice(f"Mode: {session_view(host).mode}. Use /mode <mode> or Shift+Tab to switch.")


async def _resume(host: Host, args: str) -> None:
    """No argument: a picker; `/resume <n or id>`: that session directly."""
    if not host.has_session:
        await host.post_notice("/resume needs the agent, which is still starting.", "warning")
        return
    sessions = [p for p in list_sessions(history_roots(data_dir()), host.cwd) if p.stem != session_view(host).session_id]
    choice = args.strip()
    if choice.isdigit() and 1 <= int(choice) <= len(sessions):
        host.submit(Resume(sessions[int(choice) - 1].stem))
        return
    if choice and (path := next((p for p in sessions if p.stem.startswith(choice)), None)):
        host.submit(Resume(path.stem))
        return
    # No argument, or words to search the titles and first prompts for: the picker.
    summaries = [summarize(path) for path in sessions[:200]]
    if not summaries:
        await host.post_notice("No earlier sessions in this project.")
        return
    if choice and not search(summaries, choice):
        await host.post_notice(f"No session matches {choice!r}.", "error")
        return
    from claude_harness.frontends.tui.screens.session_picker import SessionPicker  # a rare screen

    def chosen(path: Path | None) -> None:
        if path is not None:
            host.submit(Resume(path.stem))

    host.push_screen(SessionPicker(summaries, query=choice), chosen)


async def _status(host: Host, _args: str) -> None:
    view = host.view
    if view is None or view.started is None:
        await host.post_notice(f"Starting… cwd {host.cwd} · theme {host.theme}")
        return
    started = view.started
    lines = [
        f"Model: {view.model}", f"Mode: {view.mode}", f"cwd: {started.cwd}",
        f"Session: {view.session_id}",
        f"Transcript: {started.transcript_path or '(none)'}",
        f"API: {started.api_base_url or 'https://api.anthropic.com'} · credentials "
        f"{'set' if started.has_credentials else 'MISSING'}",
        f"Tools: {', '.join(started.tools)}",
        f"Context: {view.totals.context_percent:.1f}% · theme {host.theme}",
        "Memory files: " + (", ".join(started.memory_files) or "none"),
        *effort_status(view.controls),
    ]
    if started.unsupported_settings:
        lines.append("Settings not supported (ignored): " + ", ".join(started.unsupported_settings))
    if view.directories:
        lines.append("Additional working directories: " + ", ".join(view.directories))
    await host.post_notice("\n".join(lines), boxed=True)


async def _effort(host: Host, _args: str) -> None:
    """/effort without a level: what is in force, and the words that change it."""
    current = effort_status(session_view(host).controls) or ["Effort: not known yet"]
    await host.post_notice(f"{current[0]} · /effort low|medium|high|xhigh|max|auto")


async def _add_dir(host: Host, _args: str) -> None:
    await host.post_notice("Usage: /add-dir <directory>", "error")


async def _todos(host: Host, _args: str) -> None:
    host.toggle_todos()


async def _theme(host: Host, args: str) -> None:
    name = args.strip()
    if not name:
        names = ", ".join(sorted(host.available_themes))
        await host.post_notice(f"Theme: {host.theme}. Available: {names}. Use /theme <name>.")
        return
    if host.apply_theme(name):
        error = save_user_theme(name)
        await host.post_notice(f"Theme set to {name}." + (
            f" (Not saved: {error})" if error else " Saved to your user settings."))


async def _exit(host: Host, _args: str) -> None:
    host.exit()


async def _export(host: Host, args: str) -> None:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    target = Path(args.strip() or f"conversation-{stamp}.md").expanduser()
    if not target.is_absolute():
        target = host.cwd / target
    try:
        atomic_write_text(target, conversation_markdown(session_view(host).messages))
    except OSError as exc:
        await host.post_notice(f"Could not export: {exc}", "error")
        return
    await host.post_notice(f"Conversation exported to {target}.")


async def _memory(host: Host, _args: str) -> None:
    started = session_view(host).started
    files = list(started.memory_files) if started is not None else []
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    target = files[-1] if files else str(host.cwd / "CLAUDE.md")
    if editor:
        with host.suspend():
            os.system(f"{editor} {shlex.quote(target)}")  # noqa: S605 - the user's editor
    if host.has_session:
        host.submit(Describe("memory"))
    if not editor:
        await host.post_notice("Set $EDITOR to edit them from here.")


async def _mcp(host: Host, _args: str) -> None:
    """`/mcp` alone: the servers panel (its actions are ops, as `/mcp reconnect NAME` is)."""
    from claude_harness.frontends.tui.panels.mcp import McpPanel  # a rare screen

    host.push_screen(McpPanel(host.submit))


async def _agents_panel(host: Host, _args: str) -> None:
    """`/agents` alone: the agents panel (view, create, delete)."""
    from claude_harness.frontends.tui.panels.agents import AgentsPanel  # a rare screen

    host.push_screen(AgentsPanel(host.submit))


async def _agents(host: Host, args: str) -> None:
    """`/agents create <name> <description>` / `/agents edit <name>`, then $EDITOR."""
    from claude_harness.commands.agent_files import agent_command  # a rare command

    message, level, path = agent_command(host.cwd, args)
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if path is not None and editor:
        with host.suspend():
            os.system(f"{editor} {shlex.quote(str(path))}")  # noqa: S605 - the user's editor
    await host.post_notice(message, level)


async def _rewind(host: Host, _args: str) -> None:
    host.dock.open_rewind()


async def _tasks(host: Host, _args: str) -> None:
    host.dock.open_tasks()


async def _output_style(host: Host, _args: str) -> None:
    host.dock.open_styles()


async def _rename(host: Host, _args: str) -> None:
    await host.post_notice("Usage: /rename <title>")


async def _panel(host: Host, name: str) -> None:
    from claude_harness.frontends.tui.panels.opener import (
        opener_for,  # the panels load on first use
    )

    opener_for(host).open(name)


ACTIONS: dict[str, Action] = {
    "config": lambda h, _a: _panel(h, "config"),
    "permissions": lambda h, _a: _panel(h, "permissions"),
    "hooks": lambda h, _a: _panel(h, "hooks"),
    "help": _help, "model": _model, "mode": _mode, "resume": _resume,
    "status": _status, "todos": _todos, "theme": _theme, "exit": _exit, "export": _export,
    "memory": _memory, "agents": _agents, "rewind": _rewind, "tasks": _tasks,
    "output-style": _output_style, "rename": _rename, "effort": _effort, "add-dir": _add_dir,
}
PANELS: dict[str, Action] = {"mcp": _mcp, "agents": _agents_panel}  # the bare command opens one
