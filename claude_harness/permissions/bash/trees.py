"""A look at every entry below a directory, for names the checker cannot see one by one.

Why: `find . -name '*.py' | xargs grep foo` and `find . -exec wc -l {} +` hand a program names
that exist only when the command runs. Those names are entries of the tree, so the tree is
checked instead: a symlink below that leads outside the working directories would be read
through (a committed `evil.py -> ~/.ssh/id_rsa`), and for xargs a name with blanks, quotes or
a leading dash would be split or read as an option (`a /etc/passwd`, `--files0-from=x`).
The walk is capped; a tree too large to check counts as failing the check.
"""

from __future__ import annotations

import fnmatch
import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from claude_harness.permissions.bash.args import Members
from claude_harness.permissions.safety import protected_parts

MAX_ENTRIES = 20_000
_ODD = set(" \t\n\r'\"\\")
MAX_INDEX_BYTES = 64_000_000


@dataclass(frozen=True)
class TreeSurvey:
    outward: tuple[str, ...] = ()  # symlinks below that resolve outside the roots
    odd_names: tuple[str, ...] = ()  # names xargs would split or read as options
    truncated: bool = False

    def problem(self, *, xargs: bool) -> str:
        if self.truncated:
            return f"more than {MAX_ENTRIES:,} entries to check"
        if self.outward:
            return f"the symlink {self.outward[0]} leads outside the working directories"
        if xargs and self.odd_names:
            return f"the name {self.odd_names[0]!r} would be split or read as an option by xargs"
        return ""


def members_problem(members: Members, roots: tuple[Path, ...], *,
                    dirs_harmless: bool = False) -> str:
    """Why names fed from `members` may reach outside `roots` ('' when they cannot).

    `dirs_harmless`: the names are read as files, not walked (a symlink to a directory
    outside only makes the reader fail)."""
    xargs = members.feeder == "xargs"
    if not members.trees:
        return "the names come from a place that cannot be known in advance"
    for tree in members.trees:
        found = index_survey(tree, roots) if members.git_index else None
        report = found or survey(tree, roots)
        if report.truncated:
            return f"more than {MAX_ENTRIES:,} entries below {tree} to check"
        for link in report.outward:
            if dirs_harmless and os.path.isdir(link):
                continue
            if members.symlinks and _listed(os.path.basename(link), members):
                return f"the symlink {link} leads outside the working directories"
        if xargs and report.odd_names:
            return (f"the name {report.odd_names[0]!r} would be split or read as an option "
                    "by xargs")
    return ""


def _listed(name: str, members: Members, shown: str = "") -> bool:
    """Could this entry be among the members (does it pass find's -name / -path tests)?"""
    if members.paths and shown and not all(fnmatch.fnmatchcase(shown, p) for p in members.paths):
        return False
    if members.icase:
        return all(fnmatch.fnmatch(name.lower(), p.lower()) for p in members.names)
    return all(fnmatch.fnmatchcase(name, p) for p in members.names)


def _entries(tree: str, *, into_git: bool) -> Iterator[tuple[os.DirEntry[str], tuple[str, ...]]]:
    """Every entry below `tree` (symlinks not followed) with its path parts below `tree`;
    at most MAX_ENTRIES + 1 of them (one more than the cap tells the caller it was hit)."""
    stack: list[tuple[str, tuple[str, ...]]] = [(tree, ())]
    seen = 0
    while stack:
        current, parts = stack.pop()
        try:
            entries = list(os.scandir(current))
        except OSError:
            continue
        for entry in entries:
            seen += 1
            entry_parts = (*parts, entry.name)
            yield entry, entry_parts
            if seen > MAX_ENTRIES:
                return
            try:
                if entry.is_dir(follow_symlinks=False) and (into_git or entry.name != ".git"):
                    stack.append((entry.path, entry_parts))
            except OSError:
                continue


def protected_member(members: Members) -> str:
    """A protected path among the entries find would act on below its start points ('' when
    none; capped walks count as one). Entries are matched as find prints them (`./x/y`)."""
    shown_roots = members.shown if len(members.shown) == len(members.trees) else tuple(
        str(t) for t in members.trees)
    for tree, shown_root in zip(members.trees, shown_roots, strict=True):
        root = shown_root.rstrip("/") or shown_root
        for seen, (entry, parts) in enumerate(_entries(str(tree), into_git=True), start=1):
            if seen > MAX_ENTRIES:
                return f"more than {MAX_ENTRIES:,} entries below {shown_root} to check"
            hit = protected_parts(parts)
            if hit and _listed(entry.name, members, "/".join((root, *parts))):
                return f"{'/'.join((root, *parts))} (protected: {hit})"
    return ""


def index_survey(tree: Path, roots: tuple[Path, ...]) -> TreeSurvey | None:
    """The tracked files below `tree` (git's index), checked in the work tree; None when the
    index cannot be read (the caller then walks the tree instead)."""
    from claude_harness.permissions.bash.git import repository_of  # git's tables: on use

    repo = repository_of(tree)
    git_dir = _git_dir(repo) if repo is not None else None
    if repo is None or git_dir is None:
        return None
    paths = _index_paths(git_dir / "index")
    if paths is None:
        return None
    real_roots = tuple(os.path.realpath(r) for r in roots)
    prefix = os.path.relpath(tree, repo)
    prefix = "" if prefix == "." else prefix + "/"
    outward: list[str] = []
    odd: list[str] = []
    for rel in paths:
        if not rel.startswith(prefix):
            continue
        shown = rel[len(prefix):]
        if shown.startswith("-") or _ODD & set(shown):
            odd.append(shown)
        full = os.path.join(repo, rel)
        if os.path.islink(full) and not _inside(os.path.realpath(full), real_roots):
            outward.append(full)
    return TreeSurvey(tuple(outward), tuple(odd))


def _git_dir(work_tree: Path) -> Path | None:
    """`.git` itself, or where a `.git` file (a linked worktree, a submodule) points."""
    dot_git = work_tree / ".git"
    if dot_git.is_dir():
        return dot_git
    try:
        text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    target = Path(text[len("gitdir:"):].strip())
    return target if target.is_absolute() else work_tree / target


def _index_paths(index: Path) -> list[str] | None:
    """Paths of a version 2-4 git index (SHA-1); None for anything else."""
    try:
        if index.stat().st_size > MAX_INDEX_BYTES:
            return None
        data = index.read_bytes()
    except OSError:
        return None
    if len(data) < 12 or data[:4] != b"DIRC":
        return None
    version, count = struct.unpack(">II", data[4:12])
    if version not in {2, 3, 4}:
        return None
    pos = 12
    paths: list[str] = []
    previous = b""
    try:
        for _ in range(count):
            flags = struct.unpack(">H", data[pos + 60 : pos + 62])[0]
            head = 62 + (2 if version >= 3 and flags & 0x4000 else 0)
            start = pos + head
            if version == 4:
                strip, start = _varint(data, start)
                end = data.index(b"\0", start)
                name = previous[: len(previous) - strip] + data[start:end]
                pos = end + 1
            else:
                end = data.index(b"\0", start)
                name = data[start:end]
                pos = pos + ((end - pos) // 8 + 1) * 8
            previous = name
            paths.append(name.decode("utf-8", "surrogateescape"))
    except (ValueError, struct.error, IndexError):
        return None
    return paths


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """git's offset varint (index v4 path prefix lengths)."""
    byte = data[pos]
    value = byte & 0x7F
    pos += 1
    while byte & 0x80:
        byte = data[pos]
        value = ((value + 1) << 7) | (byte & 0x7F)
        pos += 1
    return value, pos


def _inside(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def survey(tree: Path, roots: tuple[Path, ...]) -> TreeSurvey:
    """Walk `tree` (not following symlinks) and report what could escape `roots`. Never
    cached: an earlier command may have just added the entry that matters."""
    return _walk(str(tree), tuple(os.path.realpath(r) for r in roots))


def _walk(tree: str, roots: tuple[str, ...]) -> TreeSurvey:
    outward: list[str] = []
    odd: list[str] = []
    for seen, (entry, _parts) in enumerate(_entries(tree, into_git=False), start=1):
        if seen > MAX_ENTRIES:
            return TreeSurvey(tuple(outward), tuple(odd), truncated=True)
        name = entry.name
        if name.startswith("-") or _ODD & set(name):
            odd.append(entry.path)
        try:
            if entry.is_symlink() and not _inside(os.path.realpath(entry.path), roots):
                outward.append(entry.path)
        except OSError:
            continue
    return TreeSurvey(tuple(outward), tuple(odd))
