"""Tab completion: `/` commands at the start of the input and `@path` mentions anywhere.

Paths are completed relative to the project folder, one directory level at a time, skipping
hidden entries unless the typed fragment starts with a dot.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from claude_harness.plain.commands import all_commands  # the shared table's and custom ones

MENTION = re.compile(r"@([^\s@]*)$")
MAX_PATHS = 200


class PlainCompleter(Completer):
    def __init__(self, cwd: Path, commands: dict[str, str] | None = None,
                 extra: Callable[[], dict[str, str]] | None = None) -> None:
        """`extra`: commands known only while the session runs (MCP prompts), asked each time."""
        self.cwd = cwd
        self.commands = commands  # None: built-ins and the catalog's, looked up on each Tab
        self.extra = extra

    def get_completions(self, document: Document,
                        complete_event: CompleteEvent) -> Iterable[Completion]:
        before = document.text_before_cursor
        if before.startswith("/") and " " not in before:
            yield from self._commands(before)
            return
        match = MENTION.search(before)
        if match:
            yield from self._paths(match.group(1))

    def _commands(self, typed: str) -> Iterable[Completion]:
        commands = self.commands if self.commands is not None else all_commands()
        extra = self.extra() if self.extra is not None else {}
        for name, meta in {**commands, **extra}.items():
            if name.startswith(typed):
                yield Completion(name, start_position=-len(typed), display_meta=meta)

    def _paths(self, fragment: str) -> Iterable[Completion]:
        folder_part, _, name_part = fragment.rpartition("/")
        folder = (self.cwd / folder_part) if folder_part else self.cwd
        if fragment.startswith("/"):
            folder = Path(folder_part or "/")
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        from claude_harness.tools.grep.ignored_entries import ignored_entries  # on Tab only

        hidden = ignored_entries(folder)
        count = 0
        for entry in entries:
            if not entry.name.startswith(name_part) or entry.name in hidden:
                continue
            if entry.name.startswith(".") and not name_part.startswith("."):
                continue
            is_dir = entry.is_dir(follow_symlinks=True)
            text = (f"{folder_part}/" if folder_part or fragment.startswith("/") else "") \
                + entry.name + ("/" if is_dir else "")
            if fragment.startswith("/") and not folder_part:
                text = "/" + entry.name + ("/" if is_dir else "")
            yield Completion(text, start_position=-len(fragment),
                             display=entry.name + ("/" if is_dir else ""))
            count += 1
            if count >= MAX_PATHS:
                return
