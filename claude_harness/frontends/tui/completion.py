"""Tab completion in the prompt: `/command` at the start of the line and `@path` anywhere."""

from __future__ import annotations

import os
from pathlib import Path

MAX_OPTIONS = 200


def _common_prefix(options: list[str]) -> str:
    return os.path.commonprefix(options) if options else ""


def complete(line: str, column: int, cwd: Path,
             commands: list[str]) -> tuple[int, str, list[str]] | None:
    """(start column of the word, its replacement, all candidates) or None if nothing fits."""
    before = line[:column]
    start = max(before.rfind(" "), before.rfind("\t")) + 1
    word = before[start:]
    if start == 0 and word.startswith("/"):
        options = sorted(f"/{c}" for c in commands if c.startswith(word[1:]))
        if not options:
            return None
        text = options[0] + " " if len(options) == 1 else _common_prefix(options)
        return start, text, options
    if word.startswith("@"):
        options = path_options(word[1:], cwd)
        if not options:
            return None
        chosen = options[0] if len(options) == 1 else _common_prefix(options)
        suffix = " " if len(options) == 1 and not chosen.endswith("/") else ""
        return start, "@" + chosen + suffix, options
    return None


def path_options(prefix: str, cwd: Path) -> list[str]:
    """Entries of the prefix's directory that start with its last part; dirs end with '/'."""
    head, _, tail = prefix.rpartition("/")
    base = Path(os.path.expanduser(head)) if head else Path(".")
    folder = base if base.is_absolute() else cwd / base
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    from claude_harness.tools.grep.ignored_entries import ignored_entries  # on Tab only

    hidden = ignored_entries(folder)
    options: list[str] = []
    for entry in entries:
        if not entry.name.startswith(tail) or (entry.name.startswith(".") and not tail.startswith(".")):
            continue
        if entry.name in hidden:
            continue
        name = f"{head}/{entry.name}" if head else entry.name
        options.append(name + "/" if entry.is_dir() else name)
        if len(options) >= MAX_OPTIONS:
            break
    return options
