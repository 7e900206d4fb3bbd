"""Slash commands: built-ins that act on the app and engine, plus custom prompts from
`.claude/commands/*.md` (project and user; loaded and expanded by `claude_harness.commands`).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from claude_harness.tui.app import HarnessApp

Handler = Callable[["HarnessApp", str], Awaitable[None]]


@dataclass(frozen=True)
class Command:
    name: str
    description: str
    handler: Handler
    needs_engine: bool = False


KEYS_HELP = (
    "Keys: Enter send · Shift+Enter or \\+Enter newline · Up/Down history · Tab completes "
    "/commands and @paths · Shift+Tab mode · Esc interrupt · Ctrl+C interrupt (twice on an "
    "empty prompt exits) · Ctrl+D exit · Ctrl+O tool details · Ctrl+T todos · !cmd runs a "
    "shell command and gives its output to the model"
)


async def _help(app: HarnessApp, _args: str) -> None:
    lines = [f"/{c.name} — {c.description}" for c in BUILTINS.values()]
    lines += [f"/{c.name} — {c.description or 'custom command'} ({c.path})"
              for c in custom_commands(app.cwd)]
    await app.post_notice("\n".join([*lines, "", KEYS_HELP]), boxed=True)


async def _clear(app: HarnessApp, _args: str) -> None:
    assert app.engine is not None
    app.engine.messages.clear()
    app.pending_context = []
    await app.conversation.clear()
    await app.post_notice("Conversation cleared: the model starts from a fresh context.")


async def _compact(app: HarnessApp, args: str) -> None:
    assert app.engine is not None
    compact = getattr(app.engine, "compact", None)
    if compact is None:
        await app.post_notice("/compact is not available in this build.", "warning")
        return
    if app.busy:
        await app.post_notice("Wait for the current turn to finish (or Esc) before /compact.",
                              "warning")
        return
    app.run_events(compact(args.strip()), label="Compacting")


async def _model(app: HarnessApp, args: str) -> None:
    assert app.engine is not None
    name = args.strip()
    if not name:
        await app.post_notice(f"Current model: {app.engine.model}. Use /model <name> to switch.")
        return
    app.engine.model = name
    app.refresh_status()
    await app.post_notice(f"Model set to {name}.")


async def _permissions(app: HarnessApp, args: str) -> None:
    assert app.engine is not None
    parts = args.split(None, 1)
    if len(parts) == 2 and parts[0] in ("allow", "deny", "ask"):
        await _add_rule(app, parts[0], parts[1].strip())
        return
    if len(parts) == 2 and parts[0] == "remove":
        await _remove_rule(app, parts[1].strip())
        return
    rules = [f"{r.behavior:5} {r.value}  [{r.source}]" for r in app.engine.permission.rules]
    rules += [f"{r.behavior:5} {r.value}  [{r.source}, this session]"
              for r in getattr(app.engine, "session_rules", [])]
    text = "\n".join(rules) if rules else "No permission rules."
    await app.post_notice(f"Mode: {app.engine.mode}\n{text}\n\nAdd one with "
                          "/permissions allow|deny|ask <rule>, e.g. /permissions allow Bash(npm test:*);\n"
                          "remove one saved in .claude/settings.local.json with "
                          "/permissions remove <rule>",
                          boxed=True)


async def _add_rule(app: HarnessApp, behavior: str, rule: str) -> None:
    try:
        from claude_harness.permissions import rules as rules_module
    except ImportError:
        await app.post_notice("Editing rules is not available yet in this build.", "warning")
        return
    saver = getattr(rules_module, "save_local_rule", None)
    if saver is None:
        await app.post_notice("Editing rules is not available yet in this build.", "warning")
        return
    try:
        if behavior == "allow":
            saver(app.cwd, rule)
        else:
            saver(app.cwd, rule, behavior=behavior)
    except (OSError, TypeError, ValueError) as exc:
        await app.post_notice(f"Could not save the rule: {exc}", "error")
        return
    from claude_harness.permissions.types import PermissionRule

    value = rules_module.parse_rule(rule)
    app.engine.session_rules.append(PermissionRule("localSettings", behavior, value))  # type: ignore[union-attr,arg-type]
    await app.post_notice(f"Saved {behavior} rule {rule} to .claude/settings.local.json.")


async def _remove_rule(app: HarnessApp, rule: str) -> None:
    """Drop a rule from .claude/settings.local.json and from this session's rules."""
    import json
    from dataclasses import replace

    assert app.engine is not None
    path = app.cwd / ".claude" / "settings.local.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        await app.post_notice(f"Could not read {path}: {exc}", "error")
        return
    perms = data.get("permissions") if isinstance(data, dict) else None
    removed = False
    if isinstance(perms, dict):
        for kind in ("allow", "deny", "ask"):
            items = perms.get(kind)
            if isinstance(items, list) and rule in items:
                perms[kind] = [r for r in items if r != rule]
                removed = True
    if not removed:
        await app.post_notice(f"{rule} is not in {path}.", "warning")
        return
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    engine = app.engine
    keep = tuple(r for r in engine.permission.rules
                 if not (r.source == "localSettings" and str(r.value) == rule))
    engine.permission = replace(engine.permission, rules=keep)
    engine.session_rules[:] = [r for r in engine.session_rules if str(r.value) != rule]
    await app.post_notice(f"Removed {rule} from .claude/settings.local.json.")


async def _resume(app: HarnessApp, args: str) -> None:
    """No argument: a picker; `/resume <n or id>`: that session directly."""
    from claude_harness.session.transcript import list_sessions

    assert app.engine is not None
    sessions = [p for p in list_sessions(app.engine.config.data_dir, app.cwd)
                if p.stem != app.engine.session_id]
    choice = args.strip()
    if not choice:
        if not sessions:
            await app.post_notice("No earlier sessions in this project.")
            return
        from claude_harness.tui.screens.session_picker import SessionPicker

        items = []
        for path in sessions[:50]:
            when = _dt.datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
            items.append((path, f"{when}  {_first_prompt(path) or path.stem}"))

        async def chosen(path: Path | None) -> None:
            if path is not None:
                await load_session(app, path)

        app.push_screen(SessionPicker(items), chosen)
        return
    path = None
    if choice.isdigit() and 1 <= int(choice) <= len(sessions):
        path = sessions[int(choice) - 1]
    else:
        path = next((p for p in sessions if p.stem.startswith(choice)), None)
    if path is None:
        await app.post_notice(f"No session {choice!r}.", "error")
        return
    await load_session(app, path)


async def load_session(app: HarnessApp, path: Path) -> None:
    """Continue an earlier conversation: its messages become the engine's history, and the
    tail is drawn (older blocks stay in the history and in /export)."""
    from claude_harness.session.transcript import load_messages
    from claude_harness.tui.router import history_widgets

    assert app.engine is not None
    if app.busy:
        await app.post_notice("Wait for the current turn to finish before resuming.", "warning")
        return
    messages = load_messages(path)
    app.engine.messages[:] = messages
    await app.conversation.clear()
    await app.conversation.add_many(history_widgets(messages[-60:]))
    await app.post_notice(f"Resumed {path.stem} ({len(messages)} messages).")


def _first_prompt(path: Path) -> str:
    from claude_harness.session.transcript import read_entries

    for entry in read_entries(path):
        message = entry.get("message")
        if entry.get("type") == "user" and isinstance(message, dict):
            content = message.get("content")
            if isinstance(content, list):
                content = next((b.get("text") for b in content if b.get("type") == "text"), "")
            if isinstance(content, str) and content.strip():
                return " ".join(content.split())[:60]
    return ""


async def _cost(app: HarnessApp, _args: str) -> None:
    assert app.engine is not None
    t = app.engine.totals
    await app.post_notice(
        f"Session cost: ${t.cost_usd:.4f} · {t.api_turns} API calls · input {t.input_tokens:,} "
        f"· output {t.output_tokens:,} · cache read {t.cache_read_tokens:,} · cache write "
        f"{t.cache_write_tokens:,} tokens")


async def _status(app: HarnessApp, _args: str) -> None:
    engine = app.engine
    if engine is None:
        await app.post_notice(f"Starting… cwd {app.cwd} · theme {app.theme}")
        return
    settings = engine.api.settings
    lines = [
        f"Model: {engine.model}", f"Mode: {engine.mode}", f"cwd: {engine.shell.cwd}",
        f"Session: {engine.session_id}", f"Transcript: {engine.transcript_path or '(none)'}",
        f"API: {settings.base_url or 'https://api.anthropic.com'} · credentials "
        f"{'set' if settings.has_credentials else 'MISSING'}",
        f"Tools: {', '.join(engine.tool_names())}",
        f"Context: {engine.context_percent:.1f}% · theme {app.theme}",
        "Memory files: " + (", ".join(str(p) for p in getattr(engine, "memory_files", []))
                            or "none"),
    ]
    await app.post_notice("\n".join(lines), boxed=True)


async def _theme(app: HarnessApp, args: str) -> None:
    name = args.strip()
    if not name:
        names = ", ".join(sorted(app.available_themes))
        await app.post_notice(f"Theme: {app.theme}. Available: {names}. Use /theme <name>.")
        return
    if app.apply_theme(name):
        from claude_harness.tui.themes import save_user_theme

        error = save_user_theme(name)
        await app.post_notice(f"Theme set to {name}." + (
            f" (Not saved: {error})" if error else " Saved to your user settings."))


async def _exit(app: HarnessApp, _args: str) -> None:
    app.exit()


async def _export(app: HarnessApp, args: str) -> None:
    from claude_harness.tui.export import conversation_markdown

    assert app.engine is not None
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    target = Path(args.strip() or f"conversation-{stamp}.md").expanduser()
    if not target.is_absolute():
        target = app.cwd / target
    try:
        target.write_text(conversation_markdown(app.engine.messages), encoding="utf-8")
    except OSError as exc:
        await app.post_notice(f"Could not export: {exc}", "error")
        return
    await app.post_notice(f"Conversation exported to {target}.")


async def _hooks(app: HarnessApp, _args: str) -> None:
    hooks = app.engine.config.hooks if app.engine is not None else None
    lines = [str(line) for line in hooks.describe()] if hooks is not None else []
    await app.post_notice("\n".join(["Configured hooks:", *lines]) if lines
                          else "No hooks are configured.", boxed=bool(lines))


async def _mcp(app: HarnessApp, args: str) -> None:
    assert app.engine is not None
    manager = app.engine.mcp
    if manager is None:
        await app.post_notice("No MCP servers are configured (.mcp.json, ~/.claude.json or "
                              "--mcp-config).")
        return
    verb, _, name = args.strip().partition(" ")
    if verb == "approve" and name:
        from claude_harness.mcp.approvals import approval_project, record_approval

        config = next((c for c in manager.pending_approvals() if c.name == name), None)
        if config is None:
            await app.post_notice(f"No project server {name!r} is waiting for approval.",
                                  "warning")
            return
        record_approval(approval_project(config, app.cwd), name, True)
        manager.approve(name)
        await app.post_notice(f"Approved {name}; it starts now. Its tools are offered from the "
                              "next session on (the tool list is fixed per session).")
        return
    if verb == "reconnect" and name:
        ok = manager.reconnect(name)
        await app.post_notice(f"Reconnecting {name}…" if ok else f"Cannot reconnect {name}.")
        return
    await app.post_notice(manager.format_status(), boxed=True)


async def _memory(app: HarnessApp, _args: str) -> None:
    import os
    import shlex

    assert app.engine is not None
    files = getattr(app.engine, "memory_files", [])
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    target = files[-1] if files else app.cwd / "CLAUDE.md"
    if editor:
        with app.suspend():
            os.system(f"{editor} {shlex.quote(str(target))}")  # noqa: S605 - the user's editor
    listing = "\n".join(str(f) for f in files) or "(none yet)"
    await app.post_notice(f"Memory files (changes apply from the next session):\n{listing}"
                          + ("" if editor else "\nSet $EDITOR to edit them from here."),
                          boxed=True)


INIT_PROMPT = (
    "Please analyse this codebase and create a CLAUDE.md file in the repository root with the "
    "guidance a coding assistant needs here: how to build, lint and run the tests (including a "
    "single test), the high-level architecture, and conventions that are not obvious from a "
    "single file. Keep it short and specific to this project; if a CLAUDE.md exists, improve it."
)


async def _init(app: HarnessApp, _args: str) -> None:
    await app.send_prompt(INIT_PROMPT)


BUILTINS: dict[str, Command] = {c.name: c for c in (
    Command("help", "commands and keys", _help),
    Command("clear", "start a fresh conversation", _clear, True),
    Command("compact", "summarise the conversation to free context", _compact, True),
    Command("model", "show or switch the model", _model, True),
    Command("permissions", "view rules; allow|deny|ask <rule> adds, remove <rule> drops",
            _permissions, True),
    Command("resume", "list earlier sessions; /resume <n> continues one", _resume, True),
    Command("cost", "tokens and cost of this session", _cost, True),
    Command("status", "model, mode, session, API endpoint, tools", _status),
    Command("theme", "show or switch the theme", _theme),
    Command("export", "write the conversation as Markdown", _export, True),
    Command("hooks", "list configured hooks and where they come from", _hooks, True),
    Command("mcp", "MCP servers and their status; approve|reconnect <name>", _mcp, True),
    Command("memory", "list (and with $EDITOR, edit) the CLAUDE.md memory files", _memory,
            True),
    Command("init", "ask the model to write a CLAUDE.md for this project", _init, True),
    Command("exit", "quit", _exit),
)}

def custom_commands(cwd: Path) -> list[Any]:
    """Custom commands of this project and the user, project ones winning a name clash."""
    from claude_harness.commands import load_commands

    return load_commands(cwd, [])


def describe_commands(cwd: Path, prefix: str) -> list[str]:
    """`/name  description` lines for the commands starting with `prefix`."""
    lines = [f"/{c.name:<12} {c.description}" for c in BUILTINS.values()
             if c.name.startswith(prefix)]
    lines += [f"/{c.name:<12} {c.description or 'custom command'}" for c in custom_commands(cwd)
              if c.name.startswith(prefix)]
    return lines


def command_names(cwd: Path) -> list[str]:
    return sorted({*BUILTINS, *(c.name for c in custom_commands(cwd))})


async def run_command(app: HarnessApp, text: str) -> None:
    name, _, args = text[1:].partition(" ")
    command = BUILTINS.get(name)
    if command is not None:
        if command.needs_engine and app.engine is None:
            await app.post_notice(f"/{name} needs the agent, which is still starting.", "warning")
            return
        await command.handler(app, args)
        return
    if app.engine is None:
        await app.post_notice(f"/{name} needs the agent, which is still starting.", "warning")
        return
    expanded = app.engine.expand_command(text)
    if expanded is None:
        await app.post_notice(f"Unknown command /{name}. Type /help for the list.", "error")
        return
    if app.busy:
        await app.post_notice(f"Wait for the current job to finish (or Esc) before /{name}.",
                              "warning")
        return
    prompt, allowed_tools = expanded
    await app.send_prompt(prompt.strip(), allowed_tools=allowed_tools)
