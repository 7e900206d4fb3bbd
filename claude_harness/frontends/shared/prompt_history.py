"""Prompt history for Up/Down, persisted per project as JSON lines, shared by the Textual app
and the plain REPL (a prompt typed in one is offered by the other).

One file per project so that Up in one repository never offers prompts typed in another.
Appends are one short write each; the file is trimmed when it grows far past the limit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from claude_harness.config.paths import data_dir
from claude_harness.fsutil import atomic_write_text

MAX_ENTRIES = 500


def project_key(cwd: Path) -> str:
    """A short, filesystem-safe name for one project, stable across runs."""
    resolved = str(cwd.resolve())
    tail = "".join(c if c.isalnum() else "-" for c in Path(resolved).name)[:40] or "root"
    digest = hashlib.sha1(resolved.encode()).hexdigest()[:10]
    return f"{tail}-{digest}"


def history_path(cwd: Path) -> Path:
    return data_dir() / "history" / f"{project_key(cwd)}.jsonl"


class PromptHistory:
    """Entries oldest first, and a browsing cursor that Up/Down move."""

    def __init__(self, path: Path | None, entries: list[str] | None = None) -> None:
        self.path = path
        self.entries: list[str] = entries or []
        self._cursor: int | None = None
        self._draft = ""

    @classmethod
    def for_project(cls, cwd: Path) -> PromptHistory:
        path = history_path(cwd)
        return cls(path, _read(path))

    def add(self, text: str) -> None:
        self._cursor = None
        if not text.strip() or (self.entries and self.entries[-1] == text):
            return
        if text.lstrip().startswith("/login "):
            return  # it holds an API key: never kept, on disk or for Up
        self.entries.append(text)
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps({"prompt": text}) + "\n")
            if len(self.entries) > 2 * MAX_ENTRIES:
                self.entries = self.entries[-MAX_ENTRIES:]
                atomic_write_text(
                    self.path, "".join(json.dumps({"prompt": e}) + "\n" for e in self.entries))
        except OSError:
            pass  # history is a convenience; never fail a prompt over it

    def older(self, current: str) -> str | None:
        """The previous entry (Up), remembering the unsent draft; None at the oldest."""
        if not self.entries:
            return None
        if self._cursor is None:
            self._draft = current
            self._cursor = len(self.entries)
        if self._cursor == 0:
            return None
        self._cursor -= 1
        return self.entries[self._cursor]

    def newer(self) -> str | None:
        """The next entry (Down), the draft after the newest; None when not browsing."""
        if self._cursor is None:
            return None
        self._cursor += 1
        if self._cursor >= len(self.entries):
            self._cursor = None
            return self._draft
        return self.entries[self._cursor]

    def reset(self) -> None:
        self._cursor = None


def _read(path: Path) -> list[str]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    entries: list[str] = []
    for line in lines[-MAX_ENTRIES:]:
        try:
            value = json.loads(line).get("prompt")
        except (ValueError, AttributeError):
            continue
        if isinstance(value, str):
            entries.append(value)
    return entries
