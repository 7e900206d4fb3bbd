"""FileChanged: files named by the hooks' matchers, watched for changes on disk.

Claude Code watches the literal file names of a FileChanged matcher (`".envrc|.env"`: those
files in the session's folder) and fires `FileChanged` with `file_path` (absolute) and `event`
(`add`, `change` or `unlink`) when one appears, changes or goes; the matcher is compared with
the file's name. We look with a cheap poll (a stat per file, no watcher thread) at the points
where a change can matter: before each prompt and after each batch of tool calls, so a file a
command rewrote is reported before the model's next request. Each change is reported once.

A SessionStart, CwdChanged or FileChanged hook may name more files to watch, as in Claude Code
(`hookSpecificOutput.watchPaths`, absolute or relative to the project folder). A change made
while the session waits for a prompt is reported when the prompt comes, not at once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

_LITERAL_NAME = re.compile(r"^[A-Za-z0-9._-]+$")
_Stamp = tuple[int, int] | None


def _stamp(path: Path) -> _Stamp:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


def watched_names(matchers: Iterable[str]) -> list[str]:
    """The literal file names FileChanged matchers name (regexes, globs and paths name none)."""
    names: dict[str, None] = {}
    for raw in matchers:
        for part in (raw or "").split("|"):
            part = part.strip()
            if part not in ("", ".", "..") and _LITERAL_NAME.match(part):
                names[part] = None
    return list(names)


class FileWatch:
    """The watched files and how each looked at the last look."""

    def __init__(self, files: Iterable[Path]) -> None:
        self.files = [Path(f) for f in dict.fromkeys(files)]
        self.seen: dict[Path, _Stamp] = {f: _stamp(f) for f in self.files}

    @classmethod
    def for_matchers(cls, matchers: Iterable[str], cwd: Path) -> FileWatch:
        return cls(Path(cwd).resolve() / name for name in watched_names(matchers))

    def add(self, files: Iterable[Path]) -> None:
        """Watch more files (a hook's `watchPaths`), from how they look now."""
        for path in files:
            if path not in self.seen:
                self.files.append(path)
                self.seen[path] = _stamp(path)

    def changes(self) -> list[tuple[Path, str]]:
        """(file, "add" | "change" | "unlink") for each file changed since the last look."""
        changed = []
        for path in self.files:
            now, before = _stamp(path), self.seen[path]
            if now == before:
                continue
            self.seen[path] = now
            event = "add" if before is None else "unlink" if now is None else "change"
            changed.append((path, event))
        return changed
