"""`cleanupPeriodDays`: transcripts older than this are removed at start-up (default 30 days).

Cheap by design: one directory walk of the session store comparing modification times, done
once per start in the background of nothing else (a few hundred stat calls). 0 keeps nothing
old: every transcript not touched today-minus-zero is removed, as Claude Code does.
"""

from __future__ import annotations

import time
from pathlib import Path

DAY_S = 86_400


def remove_old_transcripts(data_dir: Path, days: int, *, now: float | None = None,
                           keep: Path | None = None) -> list[Path]:
    """Delete session transcripts (`<data dir>/projects/*/<id>.jsonl`) last modified more than
    `days` days ago; returns what was removed. `keep` (the current session) is never removed;
    nothing outside the transcripts folder (prompt history, approvals) is touched."""
    store = Path(data_dir) / "projects"
    if days < 0 or not store.is_dir():
        return []
    cutoff = (now if now is not None else time.time()) - days * DAY_S
    removed: list[Path] = []
    for path in store.glob("*/*.jsonl"):
        try:
            if keep is not None and path.resolve() == Path(keep).resolve():
                continue
            if path.stat().st_mtime < cutoff:
                path.unlink()
                removed.append(path)
        except OSError:
            continue
    return removed
