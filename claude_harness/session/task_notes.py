"""Tell the model when one of its background shells ends, as Claude Code does.

Claude Code 2.1.332 adds a `role: system` message after the next tool batch (or at the next
prompt) holding a `<task-notification>` (task id, output file, status, summary); the model reads
the output file if it wants the rest. The registry of background shells is process-wide and
reports from reader threads, so ended shells are collected under a lock and handed over by
`take_message()` on the session's own loop. Only shells whose output lives in one of this
session's folders are this session's (a test process may run several sessions).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from claude_harness.tools.bash.background import REGISTRY, BackgroundShell

PREAMBLE = ("Automated notice from the harness (not a message from the user, and not an answer "
            "to anything you asked): a background command you started has ended.")


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
    """Ended background shells of one session, waiting to be told to the model."""

    def __init__(self, on_end: Callable[[BackgroundShell], None] | None = None) -> None:
        self._lock = threading.Lock()
        self._ended: list[BackgroundShell] = []
        self._folders: set[Path] = set()
        self._on_end = on_end
        self._unsubscribe = REGISTRY.subscribe(self._heard)

    def watch(self, session_dir: Path | None) -> None:
        """Shells whose output goes under `session_dir` belong to this session."""
        if session_dir is not None:
            with self._lock:
                self._folders.add(session_dir.resolve())

    def _mine(self, shell: BackgroundShell) -> bool:
        path = Path(shell.output.path).resolve()
        return any(folder in path.parents for folder in self._folders)

    def _heard(self, kind: str, shell: BackgroundShell) -> None:
        """From whatever thread the shell ended on."""
        if kind != "ended":
            return
        with self._lock:
            if not self._mine(shell):
                return
            self._ended.append(shell)
        if self._on_end is not None:
            self._on_end(shell)

    def take_message(self) -> dict[str, Any] | None:
        """The system message for every shell that ended since the last call, or None."""
        with self._lock:
            ended, self._ended = self._ended, []
        if not ended:
            return None
        body = "\n\n".join(notification_text(shell) for shell in ended)
        return {"role": "system", "content": [{"type": "text", "text": f"{PREAMBLE}\n\n{body}"}]}

    def close(self) -> None:
        self._unsubscribe()
