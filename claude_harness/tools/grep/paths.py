"""Where a search runs and how its result paths read: relative to the cwd when under it.

Shared by Grep and Glob. rg prints paths the way it was given them, so handing it a path relative
to its own cwd yields relative output for free, with no per-result Python work.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import AnyStr

from claude_harness.protocol.tool import ToolError


def absolute(path: str | None, cwd: Path) -> Path:
    """The absolute, normalised form of a user-supplied path (relative ones are from cwd)."""
    if not path:
        return Path(os.path.normpath(cwd))
    expanded = Path(os.path.expanduser(path))
    if not expanded.is_absolute():
        expanded = cwd / expanded
    return Path(os.path.normpath(expanded))


def existing_search_root(path: str | None, cwd: Path) -> Path:
    """The absolute search root; a ToolError naming it when it does not exist."""
    if path and "\0" in path:
        raise ToolError("Path contains a NUL byte", code="invalid_path")
    root = absolute(path, cwd)
    if not root.exists():
        raise ToolError(f"Path does not exist: {root}", code="path_not_found")
    return root


def rg_path_arg(root: Path, cwd: Path) -> str | None:
    """What to pass rg (run in cwd): None for cwd itself, relative under cwd, else absolute."""
    if root == cwd:
        return None
    try:
        return str(root.relative_to(cwd))
    except ValueError:
        return str(root)


def newest_first(paths: list[AnyStr], cwd: Path) -> list[AnyStr]:
    """Sort paths (relative to cwd, or absolute) by modification time, newest first, ties by
    path. One stat per file is the whole cost of the ordering, so each is made relative to an
    open descriptor of cwd (the kernel then walks only the relative part; absolute paths ignore
    the descriptor)."""
    if not paths:
        return paths
    stat = os.stat
    try:
        dir_fd = os.open(cwd, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return sorted(paths)

    def key(p: AnyStr) -> tuple[int, AnyStr]:
        try:
            return (-stat(p, dir_fd=dir_fd).st_mtime_ns, p)
        except OSError:
            return (0, p)

    try:
        return sorted(paths, key=key)
    finally:
        os.close(dir_fd)
