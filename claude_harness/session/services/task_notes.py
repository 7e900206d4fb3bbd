"""Tell the model when one of its background shells ends, as Claude Code does.

Claude Code 2.1.332 adds a `role: system` message after the next tool batch (or at the next
prompt) holding a `<task-notification>` (task id, output file, status, summary); the model reads
the output file if it wants the rest. The registry of background shells is process-wide and
reports from reader threads, so ended shells are collected under a lock and handed over by
`take_message()` on the session's own loop. Only shells whose output lives in one of this
session's folders are this session's (a test process may run several sessions).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from claude_harness.tools.bash.background import BackgroundRegistry, BackgroundShell

REGISTRY_MODULE = "claude_harness.tools.bash.background"
PREAMBLE = ("Automated notice from the harness (not a message from the user, and not an answer "
            "to anything you asked): a background command you started has ended.")


def _registry() -> BackgroundRegistry | None:
    """Bash's registry of background shells, if Bash has been loaded (no Bash, no shells)."""
    module = sys.modules.get(REGISTRY_MODULE)
    return getattr(module, "REGISTRY", None)


def _summary(shell: BackgroundShell) -> str:
    command = shell.command.strip().splitlines()[0] if shell.command.strip() else ""
    if len(command) > 80:
        command = command[:79] + "…"
    state = shell.state
    if state == "completed":
        what = f"completed (exit code {shell.exit_code})"
    elif state == "failed":
        what = f"failed (exit code {shell.exit_code})"
    elif state == "killed":
        what = "was killed"
    else:
        what = f"was stopped after its lifetime of {shell.lifetime_s:g} s"
    return f'Background command "{command}" {what}'


def notification_text(shell: BackgroundShell) -> str:
    return "\n".join([
        "<task-notification>",
        f"<task-id>{shell.id}</task-id>",
        f"<output-file>{shell.output.path}</output-file>",
        f"<status>{shell.state}</status>",
        f"<summary>{_summary(shell)}</summary>",
        "</task-notification>",
    ])


class TaskNotes:
    """Ended background shells of one session, waiting to be told to the model.

    Shells are found two ways: a listener on the registry hears them end (for the person's
    notice, at once), and each `take_message` looks through the registry for ended ones not yet
    told (nothing is missed if a shell ended before the listener was in place). The listener is
    added once Bash is loaded: the registry lives with the tool."""

    def __init__(self, on_end: Callable[[BackgroundShell], None] | None = None) -> None:
        self._lock = threading.Lock()
        self._told: set[str] = set()  # shell ids already in a notification
        self._noticed: set[str] = set()  # shell ids the person heard about
        self._folders: set[Path] = set()
        self._on_end = on_end
        self._unsubscribe: Callable[[], None] | None = None

    def watch(self, session_dir: Path | None) -> None:
        """Shells whose output goes under `session_dir` belong to this session."""
        if session_dir is not None:
            with self._lock:
                self._folders.add(session_dir.resolve())

    def _mine(self, shell: BackgroundShell) -> bool:
        path = Path(shell.output.path).resolve()
        return any(folder in path.parents for folder in self._folders)

    def _listen(self) -> BackgroundRegistry | None:
        registry = _registry()
        if registry is not None and self._unsubscribe is None:
            self._unsubscribe = registry.subscribe(self._heard)
        return registry

    def _heard(self, kind: str, shell: BackgroundShell) -> None:
        """From whatever thread the shell ended on."""
        if kind == "ended":
            self._notice(shell)

    def _notice(self, shell: BackgroundShell) -> None:
        with self._lock:
            if shell.id in self._noticed or not self._mine(shell):
                return
            self._noticed.add(shell.id)
        if self._on_end is not None:
            self._on_end(shell)

    def take_message(self) -> dict[str, Any] | None:
        """The system message for every shell that ended since the last call, or None."""
        registry = self._listen()
        if registry is None:
            return None
        ended = []
        for shell in reversed(registry.shells()):  # oldest first
            if shell.running or shell.id in self._told or not self._mine(shell):
                continue
            self._notice(shell)
            self._told.add(shell.id)
            ended.append(shell)
        if not ended:
            return None
        body = "\n\n".join(notification_text(shell) for shell in ended)
        return {"role": "system", "content": [{"type": "text", "text": f"{PREAMBLE}\n\n{body}"}]}

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
