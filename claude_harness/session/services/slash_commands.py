"""The built-in slash commands the session answers itself: /usage, /release-notes,
/diff, /copy, /fork, /btw, /skills, /keybindings, /statusline, /login, /logout, /vim and the
one-line answers of commands that cannot apply here. Each arrives as a SessionCommand op and
leaves as events (Report, Notice, ClipboardText), so every front end shows the same thing."""

from __future__ import annotations

import asyncio
import difflib
import json
import os
import shlex
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness import __version__
from claude_harness.commands.more_builtins import PROMPTS, UNAVAILABLE
from claude_harness.config.paths import user_config_dir, user_settings_path
from claude_harness.config.settings_write import update_json_file
from claude_harness.protocol import ops
from claude_harness.protocol.events import (
    ClipboardText,
    EditorModeChanged,
    Notice,
    Report,
    SideQuestionsPending,
)

if TYPE_CHECKING:
    from claude_harness.agent.loop import QueryParams
    from claude_harness.api.client import ApiClient
    from claude_harness.commands.catalog import Catalog
    from claude_harness.protocol.events import AgentEvent, SessionEvent
    from claude_harness.session.checkpointing.rewind import SessionCheckpoints
    from claude_harness.session.services.totals import Totals
    from claude_harness.session.store.transcript import Transcript

KEY_FILE = "harness-api-key"  # beside the user settings, read by the apiKeyHelper /login sets
STATUSLINE_PROMPT = (
    "Set up a status line command for claude-harness: {ask}\n\nWrite a small shell script to "
    "~/.claude/statusline.sh that reads the session's JSON from stdin (model.display_name, "
    "workspace.current_dir, cost.total_cost_usd...) and prints one line; make it executable "
    "and set \"statusLine\": {{\"type\": \"command\", \"command\": \"~/.claude/statusline.sh\"}} "
    "in ~/.claude/settings.json, keeping the file's other settings."
)
KEY_BINDINGS = (
    ("Enter", "send the prompt"),
    ("Shift+Enter, Alt+Enter, \\+Enter", "insert a newline"),
    ("Shift+Tab", "cycle the permission mode"), ("Esc", "interrupt the turn"),
    ("Esc Esc", "rewind"), ("Ctrl+C", "interrupt; twice on an empty prompt quits"),
    ("Ctrl+D", "quit on an empty prompt"), ("Ctrl+R", "search the prompt history"),
    ("Ctrl+B", "send the running command to the background"),
    ("Ctrl+V", "paste an image from the clipboard"), ("Up/Down", "browse the prompt history"),
    ("Ctrl+O", "details (the app)"), ("Ctrl+T", "the todo list (the app)"),
    ("Alt+P", "choose the model"), ("Alt+T", "toggle extended thinking"),
    ("Ctrl+S", "stash the prompt (back after the next one, or Ctrl+S again)"),
    ("Esc (vim mode)", "INSERT to NORMAL; /vim switches vim mode"),
)


class SlashServices(Protocol):
    """What the built-in commands reach of the session (handlers.services.OpServices)."""

    def emit(self, event: SessionEvent) -> None: ...

    @property
    def cwd(self) -> Path: ...
    @property
    def catalog(self) -> Catalog: ...
    @property
    def totals(self) -> Totals: ...
    @property
    def checkpoints(self) -> SessionCheckpoints: ...
    @property
    def transcript(self) -> Transcript | None: ...
    @property
    def session_id(self) -> str: ...
    @property
    def running(self) -> bool: ...
    def prompt(self, op: ops.UserPrompt) -> None: ...
    def run_command(self, name: str, args: str) -> None: ...
    def continue_in_fork(self, ending_before: str | None, reason: str) -> str: ...
    # /btw's side request: the turn's own parameters, its cost counted in the totals
    @property
    def api(self) -> ApiClient: ...
    @property
    def messages(self) -> list[dict[str, Any]]: ...
    def params(self) -> QueryParams: ...
    def apply(self, event: AgentEvent) -> None: ...


def run(services: SlashServices, op: ops.SessionCommand) -> None:
    """Answer `op`; an unknown name is a bug in the table, said as a notice."""
    handler = HANDLERS.get(op.name)
    if handler is None:
        services.emit(Notice(f"Unknown command: /{op.name}", "error"))
        return
    handler(services, op.args.strip())


def _prompt_command(services: SlashServices, name: str, args: str) -> None:
    """/review, /security-review: a project's or user's own command of that name wins (it is
    run as custom commands are); else our prompt goes out in the message shape a custom
    command's expansion has (`<command-name>` block, then the text)."""
    if services.catalog.find_command(name) is not None:
        services.run_command(name, args)
        return
    from claude_harness.commands.expansion import ExpandedPrompt

    expanded = ExpandedPrompt(text=PROMPTS[name](args), name=name, args=args)
    services.prompt(ops.UserPrompt(tuple(expanded.blocks())))


def _report(services: SlashServices, topic: str, lines: list[str]) -> None:
    services.emit(Report(topic, tuple(lines)))


def _usage(services: SlashServices, _args: str) -> None:
    t = services.totals
    _report(services, "usage", [
        f"Total cost:             ${t.cost_usd:.4f}",
        f"API calls:              {t.api_turns} ({t.api_seconds:.1f}s)",
        f"Input tokens:           {t.input_tokens:,}",
        f"Output tokens:          {t.output_tokens:,}",
        f"Cache read tokens:      {t.cache_read_tokens:,}",
        f"Cache write tokens:     {t.cache_write_tokens:,}",
        f"Context (last request): {t.last_context_tokens:,} tokens",
        "Billed to the API key; there are no subscription plan limits to show here."])


def release_notes(version: str = __version__) -> list[str]:
    """This version's section of the release notes shipped in the package."""
    text = files("claude_harness.data").joinpath("release_notes.md").read_text(encoding="utf-8")
    section: list[str] = []
    for line in text.splitlines():
        if line.startswith("## "):
            if section:
                break
            if line[3:].strip() == version:
                section.append(f"Version {version}:")
        elif section and line.startswith("  ") and len(section) > 1:
            section[-1] += " " + line.strip()  # a wrapped bullet: one line, the screen wraps it
        elif section and line.strip():
            section.append(line)
    return section or [f"No release notes for version {version}."]


def _release_notes(services: SlashServices, _args: str) -> None:
    _report(services, "release-notes", release_notes())


def _unavailable(services: SlashServices, name: str) -> None:
    services.emit(Notice(f"/{name} is not available in claude-harness: {UNAVAILABLE[name]}"))


def last_answer(messages: list[dict[str, Any]], nth: int = 1) -> str:
    """The text of the `nth` latest assistant message that has any (1: the last)."""
    for message in reversed(messages):
        if message.get("role") != "assistant":
            continue
        content = message.get("content")
        text = content if isinstance(content, str) else "\n".join(
            b.get("text", "") for b in content or [] if b.get("type") == "text")
        if text.strip():
            nth -= 1
            if nth == 0:
                return text.strip()
    return ""


def _copy(services: SlashServices, args: str) -> None:
    if args and not (args.isdigit() and int(args) > 0):
        services.emit(Notice("Usage: /copy [n] (n: the nth latest answer, 1 by default)",
                             "warning"))
        return
    text = last_answer(services.messages, int(args or 1))
    if not text:
        services.emit(Notice("Nothing to copy: no such answer in this conversation.",
                             "warning"))
        return
    from claude_harness.session.services.clipboard_text import copy_with_program

    program = copy_with_program(text)
    if program is None:
        services.emit(ClipboardText(text))
        how = "through the terminal (OSC 52)"
    else:
        how = f"with {program}"
    which = "the last answer" if args in ("", "1") else f"answer {args} from the end"
    services.emit(Notice(f"Copied {which} ({len(text)} characters) {how}."))


def session_diff(store: Any, cwd: Path) -> list[str]:
    """Each file this session changed, from its content before the first change to now."""
    first: dict[str, Any] = {}
    for prompt in reversed(store.prompts()):  # oldest first
        if prompt.rewound:
            continue
        for path, change in prompt.changes.items():
            first.setdefault(path, change)
    lines: list[str] = []
    for path, change in sorted(first.items()):
        if change.skipped:
            lines.append(f"{path}: not kept ({change.skipped})")
            continue
        before = store.blobs.get(change.before).decode("utf-8", "replace") if change.before \
            else ""
        try:
            after = Path(path).read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            after = ""
        root = os.path.realpath(cwd)
        label = os.path.relpath(path, root) if path.startswith(root + os.sep) else path
        lines += [line.rstrip("\n") for line in difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True),
            f"a/{label}" if change.before else "/dev/null",
            f"b/{label}" if os.path.exists(path) else "/dev/null")]
    return lines


def _diff(services: SlashServices, _args: str) -> None:
    store = services.checkpoints.store
    lines = session_diff(store, services.cwd) if store is not None else []
    _report(services, "diff", lines or ["No file changes in this session."])


def _fork(services: SlashServices, title: str) -> None:
    from claude_harness.session.store.fork import ForkError, fork_transcript

    if services.transcript is None or not services.messages:
        services.emit(Notice("Nothing to fork yet: the conversation is empty.", "warning"))
        return
    services.transcript.sync()  # what is pending goes into the fork too
    try:
        fork = fork_transcript(services.transcript.path)
    except (ForkError, OSError) as exc:
        services.emit(Notice(f"Could not fork: {exc}", "error"))
        return
    if title:
        entry = {"type": "custom-title", "customTitle": " ".join(title.split()),
                 "sessionId": fork.session_id}
        with fork.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
    services.emit(Notice(f"Forked this conversation ({fork.entries} messages) into session "
                         f"{fork.session_id}; continue it with "
                         f"`claude-harness --resume {fork.session_id}` (this one goes on)."))


def _branch(services: SlashServices, _args: str) -> None:
    from claude_harness.session.store.fork import ForkError

    if services.transcript is None or not services.messages:
        services.emit(Notice("Nothing to branch yet: the conversation is empty.", "warning"))
        return
    if services.running:
        services.emit(Notice("Wait for the current job to finish (or Esc) before /branch.",
                             "warning"))
        return
    old_id = services.session_id
    try:
        new_id = services.continue_in_fork(None, "branch")
    except (ForkError, OSError) as exc:
        services.emit(Notice(f"Could not branch: {exc}", "error"))
        return
    services.emit(Notice(f"Now on a branch of this conversation (session {new_id}); the "
                         f"conversation so far stays as session {old_id} "
                         f"(`claude-harness --resume {old_id}`)."))


def _skills(services: SlashServices, _args: str) -> None:
    skills = [c for c in services.catalog.command_list() if c.kind == "skill"]
    lines = [f"/{s.name}  [{s.plugin + ' plugin' if s.plugin else s.scope}] {s.path}"
             + (f"\n    {s.description}" if s.description else "") for s in skills]
    _report(services, "skills", lines or ["No skills: add one in .claude/skills/<name>/SKILL.md "
                                         "or ~/.claude/skills/<name>/SKILL.md."])


def _keybindings(services: SlashServices, _args: str) -> None:
    """Claude Code's /keybindings: the file is created when missing; the interactive front ends
    then open it in the editor (the Report carries its path) and read it again."""
    from claude_harness.config.keybindings import create_keybindings_file, load_keybindings

    path = user_config_dir() / "keybindings.json"
    try:
        created = create_keybindings_file(path)
    except OSError as exc:
        services.emit(Notice(f"Could not create {path}: {exc}", "error"))
        return
    bindings = load_keybindings(path)
    count = sum(len(table) for table in bindings.actions.values())
    lines = [f"{keys:34} {what}" for keys, what in KEY_BINDINGS]
    state = "created" if created else f"{count} custom binding{'s' if count != 1 else ''}"
    lines += ["", f"Custom bindings file: {path} ({state}; Claude Code's format)."]
    lines += [f"  {p.severity}: {p.message}" for p in bindings.problems]
    services.emit(Report("keybindings", tuple(lines), str(path)))


def _user_settings(services: SlashServices, change: Callable[[dict[str, Any]], None]) -> bool:
    try:
        update_json_file(user_settings_path(), change)
    except (OSError, ValueError) as exc:
        services.emit(Notice(f"Could not update {user_settings_path()}: {exc}", "error"))
        return False
    return True


def _statusline(services: SlashServices, args: str) -> None:
    path = user_settings_path()
    if not args:
        services.emit(Notice("Usage: /statusline <command> sets it, /statusline off removes "
                             "it, /statusline <description> asks the model to write one."))
        return
    if args == "off":
        if _user_settings(services, lambda s: s.pop("statusLine", None)):
            services.emit(Notice(f"Status line removed from {path}."))
        return
    words = args.split()
    if len(words) > 1 and not _looks_like_command(words[0]):  # a description, not a command
        services.prompt(ops.UserPrompt(STATUSLINE_PROMPT.format(ask=args)))
        return
    setting = {"type": "command", "command": args}
    if _user_settings(services, lambda s: s.__setitem__("statusLine", setting)):
        services.emit(Notice(f"Status line set to `{args}` in {path} (from the next start)."))


def _looks_like_command(word: str) -> bool:
    """A program name, path or script rather than the first word of a description."""
    import shutil

    return "/" in word or word.startswith(("~", ".")) or shutil.which(word) is not None


def _login(services: SlashServices, key: str) -> None:
    key_path = user_config_dir() / KEY_FILE
    if not key:
        services.emit(Notice("Usage: /login <API key>: stores it in " f"{key_path} (read through "
                             "apiKeyHelper). Subscription sign-in (claude.ai) is not offered."))
        return
    if not key.startswith("sk-") or any(c.isspace() for c in key):
        services.emit(Notice("That does not look like an API key (sk-...); nothing stored.",
                             "error"))
        return
    key_path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key + "\n")
    helper = f"cat {shlex.quote(str(key_path))}"
    if _user_settings(services, lambda s: s.__setitem__("apiKeyHelper", helper)):
        now = " It is in use from now on." if _use_now(services, key) else ""
        services.emit(Notice(f"API key stored in {key_path} (read at start-up through "
                             f"apiKeyHelper in {user_settings_path()}; ANTHROPIC_API_KEY still "
                             f"wins).{now} Subscription sign-in is not offered."))


def _use_now(services: SlashServices, key: str) -> bool:
    """A session that started without credentials takes the key at once (no connection is
    made without credentials, and headers are built per request from the settings)."""
    from dataclasses import replace

    api = services.api
    if api.settings.has_credentials or api.settings.provider != "anthropic":
        return False
    api.settings = replace(api.settings, api_key=key)
    return True


def _logout(services: SlashServices, _args: str) -> None:
    key_path = user_config_dir() / KEY_FILE
    helper = f"cat {shlex.quote(str(key_path))}"
    existed = key_path.exists()
    key_path.unlink(missing_ok=True)

    def drop(settings: dict[str, Any]) -> None:
        if settings.get("apiKeyHelper") == helper:
            del settings["apiKeyHelper"]

    if _user_settings(services, drop):
        services.emit(Notice(f"Removed the API key /login stored ({key_path})." if existed else
                             "No API key stored by /login; ANTHROPIC_API_KEY and your own "
                             "apiKeyHelper are left alone."))


def _vim(services: SlashServices, _args: str) -> None:
    chosen: list[str] = []

    def toggle(settings: dict[str, Any]) -> None:
        chosen.append("normal" if settings.get("editorMode") == "vim" else "vim")
        settings["editorMode"] = chosen[0]

    if _user_settings(services, toggle):
        services.emit(EditorModeChanged(chosen[0]))
        services.emit(Notice(f"Editor mode set to {chosen[0]} in {user_settings_path()}."))


def _btw(services: SlashServices, question: str) -> None:
    if not question:
        services.emit(Notice("Usage: /btw <question>", "warning"))
        return
    from claude_harness.session.services.side_question import answer_side_question

    # not a job: a side question may be asked while a turn runs, without interrupting it
    task = asyncio.get_running_loop().create_task(answer_side_question(services, question),
                                                  name="session-btw")
    pending = _SIDE_TASKS.setdefault(id(services), set())
    pending.add(task)
    services.emit(SideQuestionsPending(len(pending)))

    def settled(done: asyncio.Task[None]) -> None:
        pending.discard(done)
        if not pending:
            _SIDE_TASKS.pop(id(services), None)
        services.emit(SideQuestionsPending(len(pending)))

    task.add_done_callback(settled)


# running /btw answers, per session (a task nobody holds may be collected)
_SIDE_TASKS: dict[int, set[asyncio.Task[None]]] = {}


def _agent_view(services: SlashServices, name: str) -> None:
    """`/agents view NAME`: one agent's fields and system prompt."""
    from claude_harness.session.services.agent_panel import view_lines  # a rare command

    services.emit(Report("agents", tuple(view_lines(services.catalog, services.cwd, name))))


HANDLERS: dict[str, Callable[[SlashServices, str], None]] = {
    "usage": _usage, "release-notes": _release_notes, "unavailable": _unavailable,
    "copy": _copy, "diff": _diff, "fork": _fork, "branch": _branch, "skills": _skills,
    "keybindings": _keybindings, "statusline": _statusline, "login": _login,
    "logout": _logout, "vim": _vim, "btw": _btw, "agent-view": _agent_view,
    "review": lambda s, a: _prompt_command(s, "review", a),
    "security-review": lambda s, a: _prompt_command(s, "security-review", a),
}
