"""Tab completion: `/` commands at the start of the input and `@path` mentions anywhere.

A relative `@word` opens a fuzzy file search as it is typed (file_suggestions.py: rg's
listing, recent files first), shown as Claude Code's popup shows it (`+ path`); absolute, `~`
and `./` paths are completed one directory level at a time, skipping hidden entries unless
the typed fragment starts with a dot. prompt-toolkit runs this completer in a thread
(ThreadedCompleter), so a search never holds up typing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from claude_harness.frontends.plain.commands import (
    all_commands,  # the shared table's and custom ones
)

MENTION = re.compile(r"@([^\s@]*)$")
MAX_PATHS = 200


class PlainCompleter(Completer):
    def __init__(self, cwd: Path, commands: dict[str, str] | None = None,
                 extra: Callable[[], dict[str, str]] | None = None,
                 recent: Callable[[], list[str]] | None = None,
                 resources: Callable[[], Iterable[Any]] | None = None) -> None:
        """`extra`: commands known only while the session runs (MCP prompts), asked each time;
        `recent`: the files this session read or edited, newest first; `resources`: the
        connected MCP servers' resources, offered as `@server:uri`."""
        self.cwd = cwd
        self.resources = resources
        self.commands = commands  # None: built-ins and the catalog's, looked up on each Tab
        self.extra = extra
        self.recent = recent
        self._index: Any = None  # file_suggestions.FileIndex, on the first `@`

    def get_completions(self, document: Document,
                        complete_event: CompleteEvent) -> Iterable[Completion]:
        before = document.text_before_cursor
        if before.startswith("/") and " " not in before:
            yield from self._commands(before)
            return
        match = MENTION.search(before)
        if match is None:
            return
        fragment = match.group(1)
        if fragment.startswith(("/", "~", "./", "../")) or '"' in fragment:
            yield from self._paths(fragment)
        else:
            yield from self._fuzzy(fragment)

    def _fuzzy(self, fragment: str) -> Iterable[Completion]:
        from claude_harness.frontends.shared.file_suggestions import FileIndex, suggest

        if self._index is None:
            self._index = FileIndex(self.cwd)
        recent = self.recent() if self.recent is not None else []
        for row in suggest(fragment, self._index, recent):
            name = f'"{row}"' if " " in row else row
            yield Completion(name, start_position=-len(fragment), display=f"+ {row}")
        if self.resources is not None:
            from claude_harness.frontends.shared.resource_suggestions import (
                resource_row,
                suggest_resources,
            )

            for resource in suggest_resources(fragment, self.resources()):
                mention, about = resource_row(resource)
                yield Completion(mention + " ", start_position=-len(fragment),
                                 display=f"◇ {mention}", display_meta=about)

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
