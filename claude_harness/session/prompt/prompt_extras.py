"""What rides along with a user's prompt: system reminders of state the model must know, and
the context SessionStart / UserPromptSubmit hooks add (or their veto)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_harness.hooks.events import (
    CONFIG_CHANGE,
    FILE_CHANGED,
    INSTRUCTIONS_LOADED,
    SESSION_START,
    USER_PROMPT_SUBMIT,
)
from claude_harness.protocol.events import AgentEvent, HookRan, Notice
from claude_harness.protocol.tool import Tool

if TYPE_CHECKING:
    from claude_harness.hooks.outcome import HookOutcome
    from claude_harness.hooks.runner import HookRunner

MODE_NOTES = {
    "plan": "Plan mode is active: research and plan only. Do not edit files or run commands "
            "that change anything; when the plan is ready, present it with ExitPlanMode.",
    "default": "The permission mode is now default: changes need the user's approval.",
    "acceptEdits": "The permission mode is now acceptEdits: file edits in the working "
                   "directories are allowed without asking.",
    "bypassPermissions": "The permission mode is now bypassPermissions.",
}


@dataclass
class Reminders:
    """State sent as messages, so the cached prefix (system prompt, tools) never changes: the
    deferred tools (once), and the permission mode whenever it changed."""

    announced_mode: str | None = "default"
    announced_deferred: bool = False
    notes: list[str] = field(default_factory=list)  # one-off news (tools added, a new dir)

    def note(self, text: str) -> None:
        """Tell the model `text` with the next prompt."""
        self.notes.append(text)

    @classmethod
    def for_history(cls, history: list[dict[str, Any]], mode: str) -> Reminders:
        """A continued conversation already heard about the tools and its mode."""
        return cls(mode, True) if history else cls()

    def blocks(self, tools: tuple[Tool, ...], mode: str) -> list[dict[str, Any]]:
        notes = []
        if not self.announced_deferred:
            self.announced_deferred = True
            deferred = [t.name for t in tools if t.should_defer]
            if deferred:
                notes.append("These deferred tools are available; load one with ToolSearch "
                             "before calling it: " + ", ".join(deferred))
        if mode != self.announced_mode:
            self.announced_mode = mode
            notes.append(MODE_NOTES.get(mode, f"The permission mode is now {mode}."))
        notes += self.notes
        self.notes = []
        return [{"type": "text", "text": f"<system-reminder>\n{n}\n</system-reminder>"}
                for n in notes]


def instructions_payload(path: Path, cwd: Path, load_reason: str, *,
                         parent_file_path: Path | None = None) -> dict[str, Any]:
    """InstructionsLoaded's fields for a memory file loaded at the start, by an import or
    again after a compaction."""
    payload: dict[str, Any] = {"file_path": str(path), "memory_type": memory_type(path),
                               "load_reason": load_reason, "cwd": str(cwd)}
    if parent_file_path is not None:
        payload["parent_file_path"] = str(parent_file_path)
    return payload


def memory_type(path: Path) -> str:
    """Claude Code's `memory_type` of a memory file: User, Local or Project."""
    from claude_harness.config.paths import user_config_dir

    if path.name == "CLAUDE.local.md":
        return "Local"
    try:
        path.relative_to(user_config_dir().resolve())
    except ValueError:
        return "Project"
    return "User"


async def watched_changes(hooks: HookRunner, cwd: Path) -> list[HookOutcome]:
    """ConfigChange for each settings file and FileChanged for each watched file changed
    since the last look (before a prompt, or while the session waits for one)."""
    outcomes: list[HookOutcome] = []
    if hooks.has_hooks(CONFIG_CHANGE):
        outcomes += [await hooks.run(CONFIG_CHANGE, {"source": source, "file_path": str(path),
                                                      "cwd": str(cwd)})
                     for source, path in hooks.config_changes()]
    if hooks.has_hooks(FILE_CHANGED):
        outcomes += await hooks.run_file_changed(cwd)
    return outcomes


async def prompt_hooks(hooks: Any, prompt: Any, cwd: Path, *,
                       session_start: str | None, memory_files: tuple[Path, ...] = (),
                       memory_imports: Mapping[Path, Path] | None = None,
                       ) -> tuple[list[dict[str, Any]] | None, list[AgentEvent]]:
    """SessionStart (when `session_start` names its source) and UserPromptSubmit hooks: (extra
    context blocks, or None when a hook blocks the prompt; events to show). At the start,
    InstructionsLoaded for each memory file: `session_start`, or `include` with
    `parent_file_path` for one another memory file @-imported (`memory_imports`)."""
    if hooks is None:
        return [], []
    context: list[str] = []
    outcomes = []
    if session_start is not None:
        outcomes.append(await hooks.run(SESSION_START, {"source": session_start,
                                                         "cwd": str(cwd)}))
    outcomes += await watched_changes(hooks, cwd)
    if session_start in ("startup", "resume") and hooks.has_hooks(INSTRUCTIONS_LOADED):
        imports = memory_imports or {}
        outcomes += [await hooks.run(INSTRUCTIONS_LOADED, instructions_payload(
            path, cwd, "include" if path in imports else "session_start",
            parent_file_path=imports.get(path))) for path in memory_files]
    text = prompt if isinstance(prompt, str) else ""
    outcomes.append(await hooks.run(USER_PROMPT_SUBMIT, {"prompt": text, "cwd": str(cwd)}))
    events: list[AgentEvent] = []
    for outcome in outcomes:
        if outcome.ran:
            events.append(HookRan(outcome.event, outcome))
        events += [Notice(m) for m in outcome.system_messages]
        events += [Notice(m, "warning") for m in outcome.errors]
        context += outcome.additional_context
    submitted = outcomes[-1]
    if submitted.blocked or submitted.stop:
        reason = submitted.block_reason or submitted.stop_reason
        if reason:
            events.append(Notice(reason, "warning"))
        return None, events
    return [{"type": "text", "text": c} for c in context if c.strip()], events
