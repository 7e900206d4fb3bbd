"""Apply a set of file writes and deletions all-or-nothing, even across a crash.

A rewind changes many files; a crash half-way must not leave some files rewound and others not.
The protocol:

1. `restore.pending` lists the temp files about to be created (so a crash now can clean them).
2. Each new content is written to a temp file beside its target, fsynced, with the target's
   mode and owner (fsutil.prepare_beside, the one atomic writer's first half).
3. COMMIT: `restore.pending` is renamed to `restore.journal` (one atomic rename).
4. Each temp file is renamed over its target; deletions are done.
5. `restore.journal` is removed.

`recover()` (run when the checkpoint store opens) finishes a committed journal (step 4 is
idempotent: a temp that is gone was already renamed) and undoes an uncommitted one (removes the
temps). So after a crash the files hold either every old content or every new one.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from claude_harness.fsutil import atomic_write_text, fsync_dir, prepare_beside, write_target

PENDING = "restore.pending"
JOURNAL = "restore.journal"
DEFAULT_FILE_MODE = 0o644
PREPARE_THREADS = 8

Progress = Callable[[str, int, int], None]  # (phase, done, total): "prepared" / "applied"


@dataclass(frozen=True)
class FileOp:
    """Write `content` to `path` (with `mode`), or delete `path` when content is None."""

    path: str
    content: bytes | None
    mode: int | None = None


def _write_json_atomically(path: Path, value: object) -> None:
    atomic_write_text(path, json.dumps(value), follow_symlinks=False)


def _temp_name(target: str) -> str:
    folder, name = os.path.split(target)
    return os.path.join(folder, f".{name}.rewind-{secrets.token_hex(4)}.tmp")


class RestoreJournal:
    """The all-or-nothing applier for one checkpoint folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @property
    def pending_path(self) -> Path:
        return self.folder / PENDING

    @property
    def journal_path(self) -> Path:
        return self.folder / JOURNAL

    def apply(self, ops: list[FileOp], progress: Progress | None = None) -> None:
        """Apply every op, or (if we die before the commit) none of them."""
        self.recover()
        self.folder.mkdir(parents=True, exist_ok=True)
        # A write goes through a symlink (the link stays), as Edit and Write do.
        ops = [op if op.content is None else FileOp(write_target(op.path), op.content, op.mode)
               for op in ops]
        entries = [
            {"path": op.path, "tmp": _temp_name(op.path) if op.content is not None else None}
            for op in ops
        ]
        _write_json_atomically(self.pending_path, entries)
        writes = [(op, entry["tmp"]) for op, entry in zip(ops, entries, strict=True)
                  if op.content is not None]
        # fsync dominates; several in flight let the file system commit them together
        with ThreadPoolExecutor(max_workers=PREPARE_THREADS) as pool:
            futures = [pool.submit(self._prepare, op, tmp) for op, tmp in writes]
            for index, future in enumerate(as_completed(futures)):
                future.result()
                if progress is not None:
                    progress("prepared", index + 1, len(futures))
        os.replace(self.pending_path, self.journal_path)  # the commit point
        fsync_dir(self.folder)
        self._roll_forward(entries, progress)

    def recover(self) -> bool:
        """Finish a committed restore or drop an uncommitted one. True if there was one."""
        if self.journal_path.exists():
            self._roll_forward(self._load(self.journal_path), None)
            return True
        if self.pending_path.exists():
            for entry in self._load(self.pending_path):
                if tmp := entry.get("tmp"):
                    Path(tmp).unlink(missing_ok=True)
            self.pending_path.unlink(missing_ok=True)
            return True
        return False

    # ── steps ──────────────────────────────────────────────────────────────────────────────

    def _prepare(self, op: FileOp, tmp: str) -> None:
        """The new content in its temp file, fsynced, with the file's mode and owner (fsutil)."""
        assert op.content is not None
        os.makedirs(os.path.dirname(op.path), exist_ok=True)
        mode = op.mode if op.mode is not None or os.path.exists(op.path) else DEFAULT_FILE_MODE
        prepare_beside(op.path, op.content, mode=mode, tmp=tmp)

    def _roll_forward(self, entries: list[dict[str, str | None]], progress: Progress | None) -> None:
        for index, entry in enumerate(entries):
            path, tmp = str(entry["path"]), entry.get("tmp")
            if tmp is None:
                Path(path).unlink(missing_ok=True)
            elif os.path.exists(tmp):
                os.makedirs(os.path.dirname(path), exist_ok=True)
                os.replace(tmp, path)
            if progress is not None:
                progress("applied", index + 1, len(entries))
        for folder in {os.path.dirname(str(e["path"])) for e in entries}:
            fsync_dir(Path(folder))
        self.journal_path.unlink(missing_ok=True)

    @staticmethod
    def _load(path: Path) -> list[dict[str, str | None]]:
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        return [e for e in value if isinstance(e, dict) and isinstance(e.get("path"), str)]
