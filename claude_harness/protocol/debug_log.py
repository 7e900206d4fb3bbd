"""The debug log of `-d/--debug [filter]` and `--debug-file PATH`.

Lines are written as Claude Code writes them: `2026-12-01T17:00:43.878Z [DEBUG] [hooks] ...`.
Each line has a category (`config`, `hooks`, `tools`, `api`, `git`...); the filter is Claude
Code's: a comma-separated list of categories to keep (`api,hooks`) or to drop (`!statsig,!git`),
compared without case. `--debug-file` names the file (and turns debugging on); without it the
log goes where the session puts it (its folder, `debug.log`), or nowhere when debugging is off.

Stdlib only and process-wide: every layer may write to it without carrying it around.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path


@dataclass(frozen=True)
class DebugFilter:
    """Which categories pass: `keep` empty means every one not in `drop`."""

    keep: frozenset[str] = field(default_factory=frozenset)
    drop: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def parse(cls, text: str | None) -> DebugFilter:
        keep, drop = set(), set()
        for item in (text or "").split(","):
            item = item.strip().casefold()
            if item.startswith("!") and item[1:].strip():
                drop.add(item[1:].strip())
            elif item:
                keep.add(item)
        return cls(frozenset(keep), frozenset(drop))

    def passes(self, category: str) -> bool:
        name = category.casefold()
        return name not in self.drop and (not self.keep or name in self.keep)


class _DebugLog:
    def __init__(self) -> None:
        self.path: Path | None = None
        self.filter = DebugFilter()
        self.lock = threading.Lock()

    def write(self, category: str, text: str) -> None:
        if self.path is None or not self.filter.passes(category):
            return
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        lines = "".join(f"{stamp} [DEBUG] [{category}] {line}\n"
                        for line in (text.splitlines() or [""]))
        with self.lock:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with self.path.open("a", encoding="utf-8") as out:
                    out.write(lines)
            except OSError:
                pass


_LOG = _DebugLog()


def configure_debug_log(path: Path | None, filter_text: str | None = None) -> None:
    """Where the log goes (None: nowhere) and which categories it keeps."""
    _LOG.path = path
    _LOG.filter = DebugFilter.parse(filter_text)


def debug_log_path() -> Path | None:
    return _LOG.path


def debug(category: str, text: str) -> None:
    """One entry, when debugging is on and the filter keeps `category`."""
    _LOG.write(category, text)
