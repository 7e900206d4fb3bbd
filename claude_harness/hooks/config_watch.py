"""ConfigChange: the settings files a session read, watched for changes made while it runs.

Claude Code fires `ConfigChange` (source `user_settings`, `project_settings`,
`local_settings`, `policy_settings`; with `file_path`) when one of them changes during a
session. We look before each prompt (a stat per file, no watcher thread): a file whose
modification time or size changed, or that appeared or went, is reported once per change.
The session keeps the settings it started with, so a hook's block has nothing to undo.
"""

from __future__ import annotations

import os
from pathlib import Path

_Stamp = tuple[int, int] | None


def _stamp(path: Path) -> _Stamp:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


class ConfigWatch:
    """The settings files by Claude Code's source name, and how each looked last time."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = dict(files)
        self.seen: dict[str, _Stamp] = {name: _stamp(p) for name, p in self.files.items()}

    @classmethod
    def for_project(cls, cwd: Path, user_dir: Path, policy: Path | None) -> ConfigWatch:
        files = {"user_settings": user_dir / "settings.json",
                 "project_settings": cwd / ".claude" / "settings.json",
                 "local_settings": cwd / ".claude" / "settings.local.json"}
        if policy is not None:
            files["policy_settings"] = policy
        return cls(files)

    def changes(self) -> list[tuple[str, Path]]:
        """(source, file) for each file changed since the last look."""
        changed = []
        for name, path in self.files.items():
            now = _stamp(path)
            if now != self.seen[name]:
                self.seen[name] = now
                changed.append((name, path))
        return changed
