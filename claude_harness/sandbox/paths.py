"""Which paths a sandboxed command may write, must not write, and must not see.

Writable: the working directories (the project and --add-dir / additionalDirectories), the
session's temp dir, `sandbox.filesystem.allowWrite` and the paths of `Edit(...)` allow rules.
Everything else is read-only.

Read-only even inside a writable directory (protected): everything that runs later, outside
the sandbox, or changes the harness's own rules: all of `.git` (a hook, `core.fsmonitor`, a
planted `commondir` or `config.worktree` would run on the next git command; a `.git` file that
points elsewhere is protected too), `.claude/` (settings, hooks, commands, agents), `.mcp.json`,
`.gitmodules`, the editor and git-hook folders (`.vscode/tasks.json` runs on opening the folder,
`.husky/` on commit), shell start-up files, and the project's virtualenvs whole (a `.pth` file
in site-packages runs at the next python start; `bin/` holds what the next `pytest` runs), and the
harness's own cache folder when it lies inside (it holds compiled code the next start runs:
fsutil/code_cache.py; missing, it cannot be created either). So a
sandboxed `git commit` or `pip install` into an existing venv fails with "Read-only file
system": those run outside the sandbox, with a prompt. Plus `sandbox.filesystem.denyWrite` and
the paths of `Edit(...)` deny rules.

Missing ones that something would pick up later (`.claude`, `.mcp.json`, `.vscode`, `.idea`,
`.husky`) cannot be created either: an empty read-only folder is mounted in their place, which
leaves that empty folder behind (git does not see empty folders; `.mcp.json` is read only when
it is a file). A missing `.git` is not blocked: an empty `.git` would change which folder git
and the harness take for the repository's root.

Hidden (an empty, read-only folder or file in their place): `sandbox.filesystem.denyRead` and the
paths of `Read(...)` deny rules. A mount hides one concrete path, so a rule whose pattern has
wildcards before its last part (`**/*.pem`) cannot be enforced inside the sandbox: such rules
are reported as `unenforced`, never silently dropped.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_harness.sandbox.sockets import SocketPlan
from claude_harness.warm.place import cache_dir

PROTECTED_DIRS = (".git", ".claude", ".vscode", ".idea", ".husky")
PROTECTED_FILES = (
    ".gitmodules", ".gitconfig", ".mcp.json", ".ripgreprc",
    ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
    ".zshrc", ".zshenv", ".zprofile", ".zlogin",
)
# Protected even before they exist: a command must not create them either. An empty read-only
# folder is mounted in their place, which leaves that empty folder behind in the project.
BLOCK_CREATION = (".claude", ".mcp.json", ".vscode", ".idea", ".husky")
VENV_MARKER = "pyvenv.cfg"
_GLOB_CHARS = frozenset("*?[")


@dataclass
class FilesystemPlan:
    writable: list[Path] = field(default_factory=list)
    read_only: list[Path] = field(default_factory=list)  # existing paths inside writable ones
    blocked_dirs: list[Path] = field(default_factory=list)  # missing names to keep uncreatable
    hidden: list[Path] = field(default_factory=list)
    sockets: SocketPlan = field(default_factory=SocketPlan)  # the host's servers, out of reach
    readable: list[Path] = field(default_factory=list)  # allowRead: visible again when hidden
    unenforced: list[str] = field(default_factory=list)  # rule patterns no mount can express

    def readable_inside(self, hidden: Path) -> list[Path]:
        return [p for p in self.readable if hidden in p.parents and p.exists()]


def protected_under(root: Path) -> tuple[list[Path], list[Path]]:
    """(existing protected paths, missing ones to block) inside one writable root."""
    existing: list[Path] = []
    blocked: list[Path] = []
    for name in (*PROTECTED_DIRS, *PROTECTED_FILES):
        path = root / name
        if os.path.lexists(path):
            existing.append(path)
        elif name in BLOCK_CREATION:
            blocked.append(path)
    existing += virtualenvs_in(root)
    cache = cache_dir()
    if root in cache.parents:
        (existing if os.path.lexists(cache) else blocked).append(cache)
    return existing, blocked


def virtualenvs_in(root: Path) -> list[Path]:
    """The virtualenvs at the top of `root` (folders holding a `pyvenv.cfg`), `.venv` included."""
    return [sub for sub in _subdirs(root) if (sub / VENV_MARKER).is_file()]


def _subdirs(folder: Path) -> list[Path]:
    try:
        return [Path(entry.path) for entry in os.scandir(folder) if entry.is_dir()]
    except OSError:
        return []


def rule_paths(rules: Iterable[Any], tool: str, behavior: str, cwd: Path
               ) -> tuple[list[Path], list[str]]:
    """The concrete paths of `tool(...)` rules with `behavior`, and the patterns that have none.

    Rules are PermissionRule objects (protocol/permission_data.py): `.behavior`, `.value.tool_name`,
    `.value.rule_content`, `.root` (the settings file's project, for `/x` patterns).
    """
    paths: list[Path] = []
    unenforced: list[str] = []
    for rule in rules:
        value = rule.value
        if rule.behavior != behavior or value.tool_name != tool or not value.rule_content:
            continue
        path = pattern_path(value.rule_content, Path(rule.root) if rule.root else cwd, cwd)
        if path is None:
            unenforced.append(f"{tool}({value.rule_content})")
        elif path not in paths:
            paths.append(path)
    return paths, unenforced


def pattern_path(pattern: str, root: Path, cwd: Path) -> Path | None:
    """The one path a gitignore-style rule pattern names, or None when it names many.

    `//abs`, `~/home`, `/settings-root`, `./cwd` and bare names (taken at the cwd); a trailing
    `/**` or `/*` means the folder itself.
    """
    text = pattern
    for suffix in ("/**", "/*"):
        if text.endswith(suffix):
            text = text[: -len(suffix)]
    text = text.rstrip("/") or "/"
    if any(char in _GLOB_CHARS for char in text):
        return None
    if text.startswith("//"):
        return Path("/" + text.lstrip("/"))
    if text == "~" or text.startswith("~/"):
        return Path(text).expanduser()
    if text.startswith("/"):
        return root / text.lstrip("/")
    return cwd / text.removeprefix("./")


def within(path: Path, roots: Iterable[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)
