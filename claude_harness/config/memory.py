"""Memory files (CLAUDE.md): the user's standing instructions, loaded into the system prompt.

Order (later files are read last, none overrides another): ~/.claude/CLAUDE.md, then from the
repository root down to the cwd each folder's CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md,
then the `.claude/rules/*.md` files without `paths` (see rules.py).
`@path` lines import another file (relative to the importing file, `~/` or absolute), up to four
levels deep; imports inside code fences or code spans are ignored.

An import puts a file into every request, so it is decided as a Read of that file would be
(import_policy.py): never a file a Read deny or ask rule covers, only files the Read tool would
open without asking (inside the working directories or under a Read allow rule), plus, for the
user's own memory files, their own config folder. Before the folder is trusted, an import in
one of the repository's memory files never leaves the repository (`@~/.ssh/id_rsa` in a
cloned CLAUDE.md reads nothing).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from claude_harness.config.import_policy import ImportPolicy
from claude_harness.config.paths import user_config_dir

if TYPE_CHECKING:
    from claude_harness.protocol.permission_data import PermissionContext

MAX_IMPORT_DEPTH = 4
MAX_FILE_BYTES = 4 * 1024 * 1024
_IMPORT = re.compile(r"(?:^|\s)@((?:~/|/|\./|\.\./)?[\w./~-]+)")


@dataclass
class Memory:
    text: str = ""
    files: list[Path] = field(default_factory=list)
    # An @-imported file -> the memory file that imported it (InstructionsLoaded's `include`).
    parents: dict[Path, Path] = field(default_factory=dict)


def _repo_root(cwd: Path) -> Path:
    for folder in (cwd, *cwd.parents):
        if (folder / ".git").exists():
            return folder
    return cwd


def memory_paths(cwd: Path) -> list[Path]:
    paths = [user_config_dir() / "CLAUDE.md"]
    root = _repo_root(cwd)
    chain = [cwd, *cwd.parents]
    folders = list(reversed(chain[: chain.index(root) + 1]))
    for folder in folders:
        paths += [folder / "CLAUDE.md", folder / ".claude" / "CLAUDE.md", folder / "CLAUDE.local.md"]
    return paths


def _strip_code(text: str) -> str:
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def _read(path: Path, depth: int, seen: set[Path], files: list[Path],
          policy: ImportPolicy, importer: Path | None = None,
          parents: dict[Path, Path] | None = None) -> str:
    if importer is not None and not policy.may_import(importer, path):
        return ""
    try:
        real = path.resolve()
        if real in seen or not real.is_file() or real.stat().st_size > MAX_FILE_BYTES:
            return ""
        text = real.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    seen.add(real)
    files.append(real)
    if importer is not None and parents is not None:
        parents[real] = importer
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    parts = [text.strip()]
    if depth < MAX_IMPORT_DEPTH:
        for ref in _IMPORT.findall(_strip_code(text)):
            target = Path(os.path.expanduser(ref))
            if not target.is_absolute():
                target = real.parent / target
            imported = _read(target, depth + 1, seen, files, policy, real, parents)
            if imported:
                parts.append(imported)
    return "\n\n".join(p for p in parts if p)


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A `claudeMdExcludes` glob as a regex over a whole path: `**` crosses folders, `*` and
    `?` stay inside one name."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        else:
            char = pattern[i]
            out.append("[^/]*" if char == "*" else "[^/]" if char == "?" else re.escape(char))
            i += 1
    return re.compile("".join(out) + r"\Z")


def is_excluded(path: Path, patterns: tuple[str, ...]) -> bool:
    """Whether the settings' `claudeMdExcludes` globs name this memory file (its absolute
    path, as written or with links resolved)."""
    if not patterns:
        return False
    names = {str(path.absolute()), str(path.resolve())}
    return any(_glob_regex(os.path.expanduser(p)).match(name)
               for p in patterns if isinstance(p, str) and p.strip() for name in names)


def load_memory(cwd: Path, excludes: tuple[str, ...] = (), *,
                permission: PermissionContext | None = None, trusted: bool = True) -> Memory:
    """Every memory file for `cwd`, but those `excludes` (claudeMdExcludes) names;
    `permission` (the session's rules and working directories) and `trusted` decide which
    imports are followed (see the module docstring)."""
    memory = Memory()
    seen: set[Path] = set()
    sections = []
    policy = ImportPolicy.for_session(cwd, _repo_root(cwd), permission, trusted=trusted)
    for path in memory_paths(cwd):
        if is_excluded(path, excludes):
            continue
        before = len(memory.files)
        text = _read(path, 0, seen, memory.files, policy, parents=memory.parents)
        if text:
            sections.append(f"Contents of {memory.files[before]}:\n\n{text}")
    from claude_harness.config.rules import load_rules

    for rule in load_rules(cwd):
        if (not rule.conditional and rule.path.resolve() not in seen
                and not is_excluded(rule.path, excludes)):
            seen.add(rule.path.resolve())
            memory.files.append(rule.path.resolve())
            sections.append(f"Contents of {rule.path}:\n\n{rule.text}")
    memory.text = "\n\n".join(sections)
    return memory
