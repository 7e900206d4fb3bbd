"""A repository's own git configuration, read as plain data (git itself is never run).

Why: a repository can name programs that git runs on its own (`core.fsmonitor` on `git status`,
`filter.X.clean` when a file is hashed, `diff.external` and textconv drivers on `git diff`,
`remote.X.uploadpack` on `git remote show X`) and files that git executes or reads as config
(`core.hooksPath`, `include.path`). Asking git would run exactly those programs, so the
permission decision reads the config files itself: the repository's `config`, its
`commondir`'s, `config.worktree`, and every file they include (`include.path` and every
`includeIf.*.path`, whatever the condition: a superset is the safe side).

Only the repository's files are read: the user's own ~/.gitconfig and /etc/gitconfig are the
user's choice (a `git-lfs` filter or a `difftastic` external diff there is not an attack).
Results are cached per config file set and re-read when any of those files changes.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

MAX_INCLUDE_DEPTH = 10  # git's own limit
MAX_CONFIG_BYTES = 1_000_000

# Keys whose value is a program git runs without being told to on the command line, by the
# git subcommands the checker may approve: work-tree refreshes (fsmonitor, clean filters),
# diffs (external, textconv), signatures (gpg), remotes contacted by `git remote show`,
# `ls-remote`, fetches (ssh, upload-pack, credential helpers, proxies).
_PROGRAM_KEYS = re.compile(
    r"core\.(fsmonitor|sshcommand|askpass|gitproxy|alternaterefscommand)"
    r"|diff\.external|diff\..+\.(command|textconv)|filter\..+\.(clean|smudge|process)"
    r"|gpg\.(.+\.)?program|credential\.(.+\.)?helper|remote\..+\.(uploadpack|receivepack)"
    r"|uploadpack\.packobjectshook", re.IGNORECASE)
# What kind of git work starts each program: "worktree" (a file of the work tree is hashed,
# checked out or watched), "diff" (a diff is shown), "signature" (one is verified), "remote"
# (a remote is contacted).
_KIND_OF = (
    (re.compile(r"core\.fsmonitor|filter\..+", re.IGNORECASE), "worktree"),
    (re.compile(r"diff\..+", re.IGNORECASE), "diff"),
    (re.compile(r"gpg\..+", re.IGNORECASE), "signature"),
)
KINDS = frozenset({"worktree", "diff", "signature", "remote", "hook"})
_BOOLEAN = {"", "true", "false", "yes", "no", "on", "off", "1", "0"}
# A credential helper without a path or shell code is git's own `git credential-NAME`.
_PLAIN_HELPER = re.compile(r"[A-Za-z0-9_-]+")
_HOOKS_ON_READS = ("post-index-change",)  # `git status`/`git diff` refresh and write the index


@dataclass(frozen=True)
class RepoConfig:
    """What one repository's own config files say (keys lowercased except subsections)."""

    gitdir: Path
    worktree: Path | None  # None: a bare repository
    entries: tuple[tuple[str, str, Path], ...]  # (key, value, the file that set it)
    files: tuple[Path, ...]  # every config file git reads here, includes (even missing) too

    def values(self, key: str) -> list[str]:
        return [v for k, v, _ in self.entries if k == key]

    def programs(self, kinds: frozenset[str] = KINDS) -> list[tuple[str, str]]:
        """(key, value) of every setting that makes git run a program of the repository's
        choosing in the kinds of work given, plus executable hooks that even read-only
        commands trigger (they refresh and write the index)."""
        found = [(k, v) for k, v, _ in self.entries
                 if _runs_program(k, v) and program_kind(k) in kinds]
        for hook in _HOOKS_ON_READS if "hook" in kinds else ():
            path = self.hooks_dir / hook
            if os.access(path, os.X_OK) and path.is_file():
                found.append((f"hook {hook}", str(path)))
        return found

    @property
    def hooks_dir(self) -> Path:
        configured = self.values("core.hookspath")
        if configured and configured[-1]:
            return _path_value(configured[-1], self.worktree or self.gitdir)
        return self.gitdir / "hooks"

    @cached_property
    def executed_paths(self) -> tuple[tuple[Path, bool, str], ...]:
        """(resolved path, whole tree below it, why) for files git executes or reads as config
        because this config points there: writing them is writing code that git runs later.
        Computed once per reading of the config files (the cache re-reads them on change)."""
        return tuple((Path(os.path.realpath(path)), tree, why)
                     for path, tree, why in self._pointed_at())

    def _pointed_at(self) -> list[tuple[Path, bool, str]]:
        base = self.worktree or self.gitdir
        out = [(p, False, "a file the repository's git config includes") for p in self.files]
        if self.values("core.hookspath"):
            out.append((self.hooks_dir, True, "the hooks directory core.hooksPath names"))
        for key in ("core.attributesfile", "core.excludesfile"):
            for value in self.values(key):
                if value:
                    out.append((_path_value(value, base), False, f"the file {key} names"))
        for key, value in self.programs():
            if key.startswith("hook "):
                continue
            for word in _words(value.removeprefix("!")):
                if "/" in word or (base / word).is_file():
                    out.append((_path_value(word, base), False, f"the program {key} runs"))
        return out


def program_kind(key: str) -> str:
    """The kind of git work (KINDS) that starts the program a key names."""
    return next((kind for pattern, kind in _KIND_OF if pattern.fullmatch(key)), "remote")


def _runs_program(key: str, value: str) -> bool:
    if not _PROGRAM_KEYS.fullmatch(key):
        return False
    if key == "core.fsmonitor":  # a boolean asks for git's own daemon
        return value.strip().lower() not in _BOOLEAN
    if key.startswith("credential."):
        return bool(value) and not _PLAIN_HELPER.fullmatch(value.strip())
    return bool(value.strip())


def _words(value: str) -> list[str]:
    try:
        return shlex.split(value, comments=False)
    except ValueError:
        return value.split()


def _path_value(value: str, base: Path) -> Path:
    if value == "~" or value.startswith("~/"):
        value = str(Path.home()) + value[1:]
    path = Path(value)
    return Path(os.path.normpath(path if path.is_absolute() else base / path))


# -- finding the repository -------------------------------------------------------------------


def _looks_like_gitdir(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir() and (path / "refs").is_dir()


def find_gitdir(directory: Path) -> tuple[Path, Path | None] | None:
    """(git directory, work tree) git would use when run in `directory`, found as git finds
    it (a `.git` directory, a `.git` file saying `gitdir: X`, a bare repository); None
    outside any repository."""
    current = os.path.normpath(directory)
    while True:
        dot_git = os.path.join(current, ".git")
        if os.path.isdir(dot_git):
            return Path(dot_git), Path(current)
        if os.path.isfile(dot_git):
            target = _gitdir_file(Path(dot_git))
            return (target, Path(current)) if target is not None else None
        if os.path.isfile(os.path.join(current, "HEAD")) and _looks_like_gitdir(Path(current)):
            return Path(current), None
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _gitdir_file(dot_git: Path) -> Path | None:
    try:
        text = dot_git.read_text(encoding="utf-8", errors="replace")[:4096]
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    return _path_value(text[len("gitdir:"):].strip(), dot_git.parent)


def _common_dir(gitdir: Path) -> Path:
    try:
        text = (gitdir / "commondir").read_text(encoding="utf-8", errors="replace")[:4096]
    except OSError:
        return gitdir
    return _path_value(text.strip(), gitdir) if text.strip() else gitdir


# -- reading config files ---------------------------------------------------------------------

_SUB_ESCAPE = re.compile(r"\\(.)")
_SECTION = re.compile(r'\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]')


def _unquote(raw: str) -> str:
    """A value as git reads it: quotes removed, escapes applied, an unquoted `#`/`;` ends it."""
    out: list[str] = []
    quoted = False
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            out.append({"n": "\n", "t": "\t", "b": "\b"}.get(raw[i + 1], raw[i + 1]))
            i += 2
            continue
        if ch == '"':
            quoted = not quoted
        elif ch in "#;" and not quoted:
            break
        else:
            out.append(ch)
        i += 1
    return "".join(out).strip() if not quoted else "".join(out)


def parse_config(text: str) -> list[tuple[str, str]]:
    """(key, value) pairs of one config file, in order; `section.sub.name` with section and
    name lowercased, as git compares them. A key without `=` is true."""
    pairs: list[tuple[str, str]] = []
    section = ""
    lines = text.replace("\r\n", "\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        while line.endswith("\\") and not line.endswith("\\\\") and i < len(lines):
            line = line[:-1] + lines[i]  # a continued line
            i += 1
        stripped = line.strip()
        while stripped.startswith("["):
            match = _SECTION.match(stripped)
            if match is None:
                break
            name, sub = match.group(1), match.group(2)
            if sub is not None:
                section = name.lower() + "." + _SUB_ESCAPE.sub(r"\1", sub)
            elif "." in name:  # the old [section.Sub] spelling: sub lowercased
                head, _, tail = name.partition(".")
                section = f"{head.lower()}.{tail.lower()}"
            else:
                section = name.lower()
            stripped = stripped[match.end():].strip()
        if not stripped or stripped[0] in "#;" or not section:
            continue
        key, eq, raw = stripped.partition("=")
        key = key.strip()
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9-]*", key):
            continue
        pairs.append((f"{section}.{key.lower()}", _unquote(raw) if eq else "true"))
    return pairs


def _read_file(path: Path) -> str | None:
    try:
        if not path.is_file():
            return None
        with path.open("rb") as handle:
            return handle.read(MAX_CONFIG_BYTES).decode("utf-8", "replace")
    except OSError:
        return None


def _read_tree(path: Path, depth: int, entries: list[tuple[str, str, Path]],
               files: list[Path]) -> None:
    """One file and, in place, everything it includes (git's include semantics)."""
    if depth > MAX_INCLUDE_DEPTH or path in files:
        return
    files.append(path)  # a missing include is kept too: creating it plants config
    text = _read_file(path)
    if text is None:
        return
    for key, value in parse_config(text):
        entries.append((key, value, path))
        if key == "include.path" or (key.startswith("includeif.") and key.endswith(".path")):
            if value:
                _read_tree(_path_value(value, path.parent), depth + 1, entries, files)


# gitdir -> (the files whose change invalidates the entry, their stamp, the config)
_CACHE: dict[Path, tuple[tuple[Path, ...], tuple[tuple[str, int, int], ...], RepoConfig]] = {}


def _stamp(files: tuple[Path, ...]) -> tuple[tuple[str, int, int], ...]:
    out = []
    for path in files:
        try:
            st = os.stat(path)
            out.append((str(path), st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((str(path), -1, -1))
    return tuple(out)


def _candidates(gitdir: Path) -> list[Path]:
    common = _common_dir(gitdir)
    names = [common / "config", gitdir / "config.worktree"]
    return [*names, gitdir / "commondir"]


def repo_config(directory: Path) -> RepoConfig | None:
    """The config of the repository git would use in `directory` (None outside one)."""
    found = find_gitdir(directory)
    if found is None:
        return None
    gitdir, worktree = found
    cached = _CACHE.get(gitdir)
    if cached is not None:
        watched, stamp, config = cached
        if stamp == _stamp(watched) and config.worktree == worktree:
            return config
    roots = _candidates(gitdir)  # (commondir among them: a new one changes everything)
    entries: list[tuple[str, str, Path]] = []
    files: list[Path] = []
    for path in roots[:2]:
        _read_tree(path, 0, entries, files)
    config = RepoConfig(gitdir, worktree, tuple(entries), tuple(files))
    watched = (*dict.fromkeys([*roots, *files]),)
    _CACHE[gitdir] = (watched, _stamp(watched), config)
    return config
