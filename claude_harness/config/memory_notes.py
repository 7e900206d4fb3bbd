"""`#` at the start of a prompt: a note appended to a CLAUDE.md memory file.

Claude Code asks where the memory goes: the project's `CLAUDE.md` (shared with the repository)
or the user's `~/.claude/CLAUDE.md` (every project). The note becomes a Markdown bullet at the
end of the file; the file is created when missing. Memory is read when a session starts, so the
note applies from the next session on (the front end says so).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from claude_harness.config.paths import user_config_dir
from claude_harness.fsutil import atomic_write_text

MemoryScope = Literal["project", "user"]


def memory_path(scope: MemoryScope, cwd: Path) -> Path:
    return (user_config_dir() if scope == "user" else cwd) / "CLAUDE.md"


def append_memory(scope: MemoryScope, cwd: Path, text: str) -> Path:
    """Append `text` as a bullet to the chosen CLAUDE.md; returns its path (OSError on failure)."""
    note = " ".join(text.split())
    if not note:
        raise ValueError("the note is empty")
    path = memory_path(scope, cwd)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        existing = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        existing = ""
    separator = "" if not existing or existing.endswith("\n") else "\n"
    atomic_write_text(path, f"{existing}{separator}- {note}\n")  # never a half-written note
    return path
