"""`cleanupPeriodDays`: transcripts older than this are removed at start-up (default 30 days).

Cheap by design: one directory walk of the session store comparing modification times, done
once per start (a few hundred stat calls). 0 removes every session that has ended, except the
most recent one and any active within the margin below of it.

Two things make removal safe when other harnesses run at the same time:

- A live session is never removed. Before deleting a transcript we take its session lock
  (session/store/lock.py, handed in as `claim` because the session layer sits above this one); a
  session whose lock a live process holds is skipped, and while we hold the lock nobody can
  resume it half-deleted. A session left open for days in another terminal is live, however
  old its file looks.
- Age cannot be faked by a clock jump. A session's last activity is the newest modification
  time among its transcript, its lock file and its folder (`<id>/`: tool results, debug log).
  Its age is measured from `reference = min(now, the newest activity of the stored sessions)`:
  when the wall clock jumps ahead, every file written before the jump looks old to `now`, but
  not to the newest of them, so nothing that was fresh before the jump goes (the cost: cleanup
  waits until a session has been written under the new clock). A session is removed only when
  it is older than `days` plus a margin (MARGIN_S) by both measures; the margin also absorbs
  small clock steps and a session that has just ended in another process.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

DAY_S = 86_400
MARGIN_S = 3_600.0  # nothing active within the last hour is removed, whatever `days` says


class Claimed(Protocol):
    """A session lock we hold: `release()` lets it go (and removes the lock file)."""

    def release(self) -> None: ...


# The session's lock if we could take it, None when a live process holds it.
Claim = Callable[[Path], Claimed | None]


def last_activity(transcript: Path) -> float:
    """The newest modification time of a session's files (its transcript must exist)."""
    newest = transcript.stat().st_mtime
    for companion in (transcript.with_suffix(".lock"), transcript.with_suffix("")):
        try:
            newest = max(newest, companion.stat().st_mtime)
        except OSError:
            continue
    return newest


def remove_old_transcripts(data_dirs: Path | Sequence[Path], days: int, *, claim: Claim,
                           now: float | None = None, keep: Path | None = None) -> list[Path]:
    """Delete session transcripts (`<data dir>/projects/*/<id>.jsonl`, in each of `data_dirs`)
    inactive for more than `days` days (see the module docstring for how age is judged);
    returns what was removed. Age is judged across all the stores at once, so the newest
    session in one (Claude Code's folder) dates the others too. `keep` (the current session)
    and sessions a live process holds are never removed; nothing outside the transcripts
    folders (prompt history, approvals) is touched."""
    if days < 0:
        return []
    roots = [data_dirs] if isinstance(data_dirs, Path) else list(data_dirs)
    kept = Path(keep).resolve() if keep is not None else None
    activity: dict[Path, float] = {}
    for path in (p for root in roots for p in (Path(root) / "projects").glob("*/*.jsonl")):
        try:
            if kept is None or path.resolve() != kept:
                activity[path] = last_activity(path)
        except OSError:
            continue
    if not activity:
        return []
    wall = now if now is not None else time.time()
    reference = min(wall, max(activity.values()))
    cutoff = reference - days * DAY_S - MARGIN_S
    return [path for path, active in activity.items()
            if active < cutoff and _remove_unless_live(path, claim)]


def _remove_unless_live(transcript: Path, claim: Claim) -> bool:
    """Take the session's lock and delete its transcript; False when a live process holds
    it or the file cannot be removed."""
    try:
        held = claim(transcript)
    except OSError:
        return False
    if held is None:
        return False
    try:
        transcript.unlink()
        return True
    except OSError:
        return False
    finally:
        held.release()
