"""/add-dir: one more working directory for the session.

A working directory is where file tools may work as in the cwd (permission checks read
`PermissionContext.additional_dirs`) and what MCP servers see as a root. The directory must
exist and be a directory; the cwd and directories already added are refused with a line that
says so, as Claude Code does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from claude_harness.protocol.permission_data import PermissionContext


@dataclass(frozen=True)
class DirectoryAnswer:
    """The directory to add (None: nothing to add) and the line to show either way."""

    path: Path | None
    message: str
    level: str = "info"


def check_directory(permission: PermissionContext, raw: str, base: Path) -> DirectoryAnswer:
    """Whether `raw` (absolute, `~/...` or relative to `base`) can be added, and why not."""
    text = raw.strip()
    if not text:
        return DirectoryAnswer(None, "Usage: /add-dir <directory>", "error")
    path = Path(text).expanduser()
    path = (path if path.is_absolute() else base / path).resolve()
    if not path.exists():
        return DirectoryAnswer(None, f"Path {path} was not found.", "error")
    if not path.is_dir():
        return DirectoryAnswer(None, f"{path} is not a directory. Did you mean to add the "
                                     f"parent directory {path.parent}?", "error")
    if path == permission.cwd.resolve():
        return DirectoryAnswer(None, f"{path} is already the current working directory.")
    if path in (d.resolve() for d in permission.additional_dirs):
        return DirectoryAnswer(None, f"{path} is already added as a working directory.")
    return DirectoryAnswer(path, f"Added {path} as a working directory for this session · "
                                 "/permissions to manage")


def directory_reminder(path: Path) -> str:
    """What the model is told with the next prompt."""
    return (f"The user added {path} as a working directory for this session: files there may "
            "be read and edited as in the current working directory.")
