"""CLAUDE.md files in folders below the working directory, loaded the first time a file below
them is read, as Claude Code loads them: a `<system-reminder>` after the Read result holding
`Contents of <path>:` and the text (the start-up memory covers the cwd and its parents only;
see memory.py).

Each file is told once a conversation (a compaction or /clear tells it again), never when
`claudeMdExcludes` names it, and its text is a `MemoryReminder`: a `str` that also says which
file it is and what brought it in, so the loop can fire `InstructionsLoaded` for it.
"""

from __future__ import annotations

from pathlib import Path

from claude_harness.config.memory import MAX_FILE_BYTES, is_excluded

NAMES = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")


class MemoryReminder(str):
    """A reminder's text, with the memory file it holds and the file whose read loaded it:
    what InstructionsLoaded says of it (`load_reason` nested_traversal for a nested CLAUDE.md,
    path_glob_match with the `globs` that matched for a path-scoped rule)."""

    file_path: Path
    trigger: Path
    memory_type: str
    load_reason: str
    globs: tuple[str, ...]

    def __new__(cls, text: str, file_path: Path, trigger: Path, *,
                load_reason: str = "nested_traversal", globs: tuple[str, ...] = (),
                memory_type: str | None = None) -> MemoryReminder:
        made = super().__new__(cls, text)
        made.file_path = file_path
        made.trigger = trigger
        made.memory_type = memory_type or (
            "Local" if file_path.name == "CLAUDE.local.md" else "Project")
        made.load_reason = load_reason
        made.globs = globs
        return made


class NestedMemory:
    """Which nested memory files this conversation was told."""

    def __init__(self, cwd: Path, already_loaded: tuple[Path, ...] = (),
                 excludes: tuple[str, ...] = ()) -> None:
        self.cwd = cwd.resolve()
        self.told: set[Path] = set()
        self.start_files = {p.resolve() for p in already_loaded}
        self.excludes = excludes

    def _folders(self, file: Path) -> list[Path]:
        """The folders strictly below the cwd down to the file's own, outermost first."""
        try:
            relative = file.parent.relative_to(self.cwd)
        except ValueError:
            return []
        folders, folder = [], self.cwd
        for part in relative.parts:
            folder = folder / part
            folders.append(folder)
        return folders

    def for_files(self, files: list[Path]) -> list[str]:
        texts: list[str] = []
        for file in files:
            resolved = file.resolve()
            for folder in self._folders(resolved):
                for name in NAMES:
                    text = self._new_text(folder / name)
                    if text is not None:
                        path = (folder / name)
                        texts.append(MemoryReminder(f"Contents of {path}:\n\n{text}\n", path,
                                                    resolved))
        return texts

    def _new_text(self, path: Path) -> str | None:
        real = path.resolve()
        if real in self.told or real in self.start_files or is_excluded(path, self.excludes):
            return None
        try:
            if not real.is_file() or real.stat().st_size > MAX_FILE_BYTES:
                return None
            text = real.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        self.told.add(real)
        return text.strip() or None

    def forget(self) -> None:
        """A fresh conversation (/clear, compaction): tell them again when read again."""
        self.told.clear()
