"""The `@` popup's file search, shared by both front ends: the project's files from ripgrep's
listing (`rg --files`, which honours .gitignore unless `respectGitignore` is off), fuzzy
matched and ranked, with folders, and the files this session read or edited first.

The listing is built once per folder in a thread and kept for a while, so a big repository
never blocks typing: until it is ready the popup shows the folder's own entries. Ranking is a
subsequence match scored by contiguity, word starts and hits in the base name; among equal
scores the session's recent files come first, then the newest by mtime.
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

REFRESH_SECONDS = 30.0
MAX_FILES = 200_000
LIST_TIMEOUT_SECONDS = 10.0
# How long the first `@` waits for ripgrep's listing (which honours .gitignore) before it
# shows the folder's own entries; every caller runs in a thread, never the UI's loop.
FIRST_LISTING_WAIT_S = 1.0
SHOWN = 10
MAX_SCORED = 3000  # candidates scored in Python after ripgrep-fast regex filtering
FILE_KINDS = ("read", "edit")  # calls whose file counts as recent (as the tools declare)
_WORD_STARTS = "/_-. "


class FileIndex:
    """One folder's file and folder list, refreshed in a background thread."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self._files: list[str] = []
        self._dirs: list[str] = []
        self.joined = ""  # folders then files, one a line: filtered by one C-speed regex
        self._built_at: float | None = None
        self._lock = threading.Lock()
        self._building = False

    @property
    def ready(self) -> bool:
        return self._built_at is not None

    def entries(self) -> tuple[list[str], list[str]]:
        """(files, folders) as last listed; starts a refresh when missing or stale."""
        stale = self._built_at is None or time.monotonic() - self._built_at > REFRESH_SECONDS
        if stale:
            self.refresh()
        return self._files, self._dirs

    def refresh(self) -> None:
        with self._lock:
            if self._building:
                return
            self._building = True
        threading.Thread(target=self._build, name="at-file-index", daemon=True).start()

    def wait_ready(self, timeout: float = LIST_TIMEOUT_SECONDS) -> bool:
        """Blocking: for a worker thread (and tests) that wants the listing."""
        self.entries()
        deadline = time.monotonic() + timeout
        while not self.ready and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.ready

    def _build(self) -> None:
        try:
            files = list_files(self.cwd)
            dirs = sorted({str(Path(f).parent) + "/" for f in files} - {"./"})
            dirs = sorted({parent for d in dirs for parent in _parents(d)})
            self._files, self._dirs = files, dirs
            self.joined = "\n".join([*dirs, *files])
            self._built_at = time.monotonic()
        finally:
            with self._lock:
                self._building = False


def _parents(folder: str) -> Iterable[str]:
    """`a/b/` -> `a/`, `a/b/`: every folder on the way, each ending in '/'."""
    parts = folder.rstrip("/").split("/")
    for end in range(1, len(parts) + 1):
        yield "/".join(parts[:end]) + "/"


def list_files(cwd: Path) -> list[str]:
    """`rg --files` under `cwd` (hidden files too, never .git), relative, at most MAX_FILES."""
    from claude_harness.tools.grep.ignore_files import ignore_args
    from claude_harness.tools.grep.ripgrep import find_rg

    try:
        command = [find_rg(), "--files", "--hidden", "--glob", "!.git/", *ignore_args()]
        done = subprocess.run(command, cwd=cwd, capture_output=True, timeout=LIST_TIMEOUT_SECONDS,
                              stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.TimeoutExpired, Exception):  # no rg: the popup lists nothing
        return []
    names = done.stdout.decode("utf-8", "surrogateescape").splitlines()[:MAX_FILES]
    return sorted(n[2:] if n.startswith("./") else n for n in names)


def fuzzy_score(query: str, candidate: str) -> float | None:
    """How well `candidate` matches `query` as a subsequence (case-insensitive), or None.
    Runs of adjacent letters, word starts and letters inside the base name score higher;
    a base name that starts with (or holds) the query wins outright; shorter paths win ties."""
    q, c = query.lower(), candidate.lower()
    base_start = c.rstrip("/").rfind("/") + 1
    base = c[base_start:]
    positions = _positions(q, c, base_start) or _positions(q, c, 0)
    if positions is None:
        return None
    score = 0.0
    for i, pos in enumerate(positions):
        if i and pos == positions[i - 1] + 1:
            score += 3
        if pos == 0 or c[pos - 1] in _WORD_STARTS:
            score += 2
        if pos >= base_start:
            score += 1
    if base.startswith(q):
        score += 12
    elif q in base:
        score += 6
    elif q in c:
        score += 3
    return score - len(c) * 0.01


def _positions(q: str, c: str, start: int) -> list[int] | None:
    """Where q's letters fall in c from `start` on (leftmost), or None if they do not all."""
    found: list[int] = []
    at = start
    for letter in q:
        at = c.find(letter, at)
        if at < 0:
            return None
        found.append(at)
        at += 1
    return found


def recent_files(messages: list[dict[str, Any]], cwd: Path) -> list[str]:
    """Files the session's Read/Edit/Write calls named, newest first, relative to cwd."""
    seen: dict[str, None] = {}
    for message in reversed(messages):
        content = message.get("content")
        if message.get("role") != "assistant" or not isinstance(content, list):
            continue
        for block in reversed(content):
            path = _tool_path(block)
            if path is not None:
                seen.setdefault(_relative(path, cwd), None)
    return list(seen)


def _tool_path(block: Any) -> str | None:
    if not isinstance(block, dict) or block.get("type") != "tool_use":
        return None
    from claude_harness.frontends.shared.previews import presentation_of  # with the tools

    if presentation_of(str(block.get("name") or "")).kind not in FILE_KINDS:
        return None
    inp = block.get("input") or {}
    path = inp.get("file_path") or inp.get("notebook_path")
    return path if isinstance(path, str) and path else None


def _relative(path: str, cwd: Path) -> str:
    try:
        return str(Path(path).relative_to(cwd))
    except ValueError:
        return path


def suggest(query: str, index: FileIndex, recent: list[str] | None = None,
            limit: int = SHOWN) -> list[str]:
    """The popup's rows for `@query`: folders end with '/'. An empty query lists the
    recent files, then the folder's own entries."""
    recent = recent or []
    files, dirs = index.entries()
    if not index.ready and index.wait_ready(FIRST_LISTING_WAIT_S):  # callers are threads
        files, dirs = index.entries()
    if not index.ready:  # a huge folder still listing: its own entries meanwhile
        files, dirs = _top_level(index.cwd)
    if not query:
        top = [f for f in recent if (index.cwd / f).exists()]
        rest = [d for d in dirs if d.count("/") == 1] + [f for f in files if "/" not in f]
        rest = [name for name in rest if not name.startswith(".")]  # typed, not offered
        return _unique([*top, *rest])[:limit]
    pool = _matching_lines(query, index.joined) if index.ready else [*dirs, *files]
    scored: list[tuple[float, str]] = []
    for candidate in [*recent, *pool]:
        score = fuzzy_score(query, candidate)
        if score is not None:
            scored.append((score, candidate))
    scored.sort(key=lambda item: -item[0])
    best = _unique([c for _s, c in scored])[: limit * 3]
    scores = {c: s for s, c in reversed(scored)}
    recent_rank = {f: i for i, f in enumerate(recent)}
    best.sort(key=lambda c: (-round(scores[c], 1), recent_rank.get(c, len(recent_rank)),
                             -_mtime(index.cwd / c)))
    return best[:limit]


def _matching_lines(query: str, joined: str) -> list[str]:
    """The listed paths that hold the query as a subsequence, found by one regex over the
    whole listing (the re engine, not a Python loop per file); at most MAX_SCORED of them."""
    gaps = "[^\n]*?".join(re.escape(letter) for letter in query)
    pattern = re.compile(f"^[^\n]*?{gaps}[^\n]*$", re.MULTILINE | re.IGNORECASE)
    return [m.group(0) for m in itertools.islice(pattern.finditer(joined), MAX_SCORED)]


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _top_level(cwd: Path) -> tuple[list[str], list[str]]:
    """The folder's own visible entries: what the popup offers before the listing is ready."""
    try:
        entries = [e for e in os.scandir(cwd) if not e.name.startswith(".")]
    except OSError:
        return [], []
    files = sorted(e.name for e in entries if not e.is_dir())
    dirs = sorted(e.name + "/" for e in entries if e.is_dir())
    return files, dirs
