"""`-r` without an id: list this folder's recent conversations and let the user pick one.

Runs before the session is built (the choice becomes `opts.resume`), with plain numbered lines
so it works the same on a terminal, TERM=dumb or a pipe.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import IO

from claude_harness.session.titles import summarize
from claude_harness.session.transcript import history_roots, list_sessions
from claude_harness.terminal_safety import strip_unsafe

MAX_LISTED = 20


def pick_session(store: Path, cwd: Path, out: IO[str],
                 read_line: Callable[[], str]) -> str | None:
    """The chosen session id, or None (nothing to resume, or the user chose none)."""
    sessions = list_sessions(history_roots(store), cwd)[:MAX_LISTED]
    if not sessions:
        out.write("No conversations to resume in this folder; starting a new one.\n")
        return None
    out.write("Resume which conversation?\n")
    for number, path in enumerate(sessions, 1):
        out.write(f"  {number:>2}. {strip_unsafe(summarize(path).label())}\n")
    while True:
        out.write(f"Number (1-{len(sessions)}, Enter for a new conversation): ")
        out.flush()
        try:
            answer = read_line()
        except (EOFError, KeyboardInterrupt):
            out.write("\n")
            return None
        answer = answer.strip()
        if not answer:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(sessions):
            return sessions[int(answer) - 1].stem
        out.write(f"Not a number from the list: {answer!r}\n")
