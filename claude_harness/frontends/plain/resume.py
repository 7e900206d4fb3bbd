"""`-r` without an id: list this folder's recent conversations and let the user pick one.

Runs before the session is built (the choice becomes `opts.resume`), with plain numbered lines
so it works the same on a terminal, TERM=dumb or a pipe.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import IO

from claude_harness.session.store.titles import SessionSummary, search, summarize
from claude_harness.session.store.transcript import history_roots, list_sessions
from claude_harness.text.terminal_safety import strip_unsafe

MAX_LISTED = 20


def pick_session(store: Path, cwd: Path, out: IO[str],
                 read_line: Callable[[], str]) -> str | None:
    """The chosen session id, or None (nothing to resume, or the user chose none).

    A number picks from the list shown; words search the titles and first prompts (every
    word must match, as the app's picker searches) and list what matched, with the words
    typed shown above it."""
    everything = [summarize(path)
                  for path in list_sessions(history_roots(store), cwd)[:MAX_LISTED]]
    if not everything:
        out.write("No conversations to resume in this folder; starting a new one.\n")
        return None
    shown = everything
    out.write("Resume which conversation?\n")
    _list(out, shown)
    while True:
        out.write(f"Number (1-{len(shown)}), words to search, Enter for a new conversation: ")
        out.flush()
        try:
            answer = read_line().strip()
        except (EOFError, KeyboardInterrupt):
            out.write("\n")
            return None
        if not answer:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(shown):
            return shown[int(answer) - 1].session_id
        if answer.isdigit():
            out.write(f"Not a number from the list: {answer!r}\n")
            continue
        found = search(everything, answer)
        if not found:
            out.write(f"Nothing matches {strip_unsafe(answer)!r}; the list is unchanged.\n")
            continue
        shown = found
        out.write(f"Search: {strip_unsafe(answer)} ({len(shown)} of {len(everything)})\n")
        _list(out, shown)


def _list(out: IO[str], sessions: list[SessionSummary]) -> None:
    for number, summary in enumerate(sessions, 1):
        out.write(f"  {number:>2}. {strip_unsafe(summary.label())}\n")
