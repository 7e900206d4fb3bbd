"""The app's `@` popup: as soon as the word at the cursor starts with `@`, the matching files and
folders show under the input (`+ src/app.py`, as Claude Code draws them); Up/Down move the
highlight and Tab or Enter take the highlighted row.

The search runs in a thread worker (file_suggestions.py), so typing never waits for it; a
result that comes back after the word changed is dropped.

Keys reach the prompt before the app hears that its text changed (the prompt's queue runs ahead
of the app's), so Tab/Enter/Up/Down never trust the word last heard of: they read the word at the
cursor now, and act only while it is the `@word` whose rows are shown.
"""

from __future__ import annotations

import re
from typing import Any

from claude_harness.frontends.shared.file_suggestions import FileIndex, recent_files, suggest

_WORD = re.compile(r'(?:^|(?<=\s))@(?P<query>[^\s"]*)$')


def mention_query(line: str, column: int) -> tuple[int, str] | None:
    """(column of the `@`, the text after it) when the cursor ends an `@word`; absolute and
    home paths are left to Tab's folder-by-folder completion."""
    match = _WORD.search(line[:column])
    if match is None or match["query"].startswith(("/", "~", "./", "../")):
        return None
    return match.start(), match["query"]


def mention_text(row: str) -> str:
    """What a chosen row puts in the prompt: `@path ` (quoted when it holds a space; a folder
    keeps the cursor on it, without the space, to go on typing into it)."""
    name = f'"{row}"' if " " in row else row
    return f"@{name}" if row.endswith("/") else f"@{name} "


class AtPopup:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.index: FileIndex | None = None
        self.rows: list[str] = []
        self.selected = 0
        self._asked: tuple[int, str] | None = None
        self._shown_for: int | None = None  # the column of the `@` the shown rows answer
        self._recent: list[str] = []
        self._resources: tuple[Any, ...] = ()  # the connected MCP servers' resources
        self.described: dict[str, str] = {}  # resource rows (`server:uri`) -> description
        self._searching = False

    def update(self) -> bool:
        """On each change of the prompt: True while an `@word` is being typed."""
        asked = self._word_at_cursor()
        self._asked = asked
        if asked is None:
            self.rows, self._shown_for = [], None
            return False
        if self.index is None:
            self.index = FileIndex(self.app.cwd)
        view = getattr(self.app, "view", None)
        recent = recent_files(view.messages, self.app.cwd) if view is not None else []
        self._recent = recent
        self._resources = getattr(view, "mcp_resources", ()) if view is not None else ()
        self._start_search()
        return True

    def _start_search(self) -> None:
        """One search thread at a time; it picks up the newest word when it is done."""
        if not self._searching and self._asked is not None:
            self._searching = True
            self.app.run_worker(self._search, thread=True, group="at-popup")

    def _search(self) -> None:
        index = self.index
        assert index is not None
        shown: tuple[int, str] | None = None
        try:
            while True:
                asked, ready = self._asked, index.ready
                if asked is None or (asked == shown and ready):
                    break
                rows = suggest(asked[1], index, self._recent)
                self.app.call_from_thread(self._show, asked, rows + self._resource_rows(asked[1]))
                shown = asked
                if not ready and not index.wait_ready():  # the first `@` in a big repository
                    break
        finally:
            self._searching = False
        if self._asked not in (None, shown):  # a key came as this thread was ending
            self.app.call_from_thread(self._start_search)

    def _resource_rows(self, query: str) -> list[str]:
        """`server:uri` rows for the resources matching the query, after the files."""
        if not self._resources:
            return []
        from claude_harness.frontends.shared.resource_suggestions import (
            resource_row,
            suggest_resources,
        )

        rows = []
        for resource in suggest_resources(query, self._resources):
            mention, about = resource_row(resource)
            self.described[mention] = about
            rows.append(mention)
        return rows

    def _show(self, asked: tuple[int, str], rows: list[str]) -> None:
        if asked != self._asked:
            return  # typing went on: a newer search is coming
        self.rows, self.selected, self._shown_for = rows, 0, asked[0]
        hint = self.app.query_one("#completion-hint")
        if not rows:
            hint.remove_class("-open")
            return
        self._draw()
        hint.add_class("-open")

    def _draw(self) -> None:
        from rich.text import Text

        text = Text()
        for number, row in enumerate(self.rows):
            style = "bold reverse" if number == self.selected else ""
            about = self.described.get(row)
            line = f"◇ {row}   {about}" if about is not None else f"+ {row}"
            text.append(("\n" if number else "") + line, style=style)
        self.app.query_one("#completion-hint").update(text)

    def _word_at_cursor(self) -> tuple[int, str] | None:
        prompt = self.app.prompt
        row, column = prompt.cursor_location
        return mention_query(prompt.document.get_line(row), column)

    def _word_now(self) -> tuple[int, str] | None:
        """The `@word` at the cursor this instant, if the shown rows answer it (the same `@`:
        rows for `@sr` still serve `@srv` typed faster than the search); None otherwise."""
        word = self._word_at_cursor()
        if word is None or not self.rows or word[0] != self._shown_for:
            return None
        return word

    def move(self, step: int) -> bool:
        """Up/Down while the popup shows rows: move the highlight (False: not open)."""
        if self._word_now() is None:
            return False
        self.selected = (self.selected + step) % len(self.rows)
        self._draw()
        return True

    def accept(self) -> bool:
        """Tab/Enter: the highlighted row replaces the `@word`; False when nothing shows."""
        word = self._word_now()
        if word is None:
            return False
        start, query = word
        prompt = self.app.prompt
        row = prompt.cursor_location[0]
        prompt.replace(mention_text(self.rows[self.selected]), (row, start), (row, start + 1 + len(query)))
        return True
