"""How a saved conversation is named in the /resume pickers: its /rename title if it has one,
else the first thing the person typed; and the search over those names.

The title is Claude Code's `{"type": "custom-title", "customTitle": ...}` line (the last one
wins), so titles given in either program show in both; without one, the `{"type": "summary"}`
line older Claude Code versions wrote names the session.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

from claude_harness.session.store.transcript import live_mark

MAX_CHARS = 70


@dataclass(frozen=True)
class SessionSummary:
    path: Path
    title: str  # /rename's title, or ""
    first_prompt: str
    modified: float

    @property
    def session_id(self) -> str:
        return self.path.stem

    @property
    def name(self) -> str:
        return self.title or self.first_prompt or "(no prompt)"

    def label(self) -> str:
        """When, the name, and a mark when another process is writing the session now."""
        when = dt.datetime.fromtimestamp(self.modified).strftime("%Y-%m-%d %H:%M")
        return f"{when}  {self.name}{live_mark(self.path)}"

    def matches(self, query: str) -> bool:
        """Every word of `query` appears in the title, the first prompt or the id."""
        haystack = f"{self.title} {self.first_prompt} {self.session_id}".casefold()
        return all(word in haystack for word in query.casefold().split())


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= MAX_CHARS else line[:MAX_CHARS - 1] + "…"


def _prompt_text(message: dict) -> str:  # type: ignore[type-arg]
    content = message.get("content")
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
    for block in blocks:
        text = str(block.get("text", "")) if isinstance(block, dict) else ""
        if block.get("type") == "text" and text.strip() and not text.lstrip().startswith("<"):
            return text
    return ""


def summarize(path: Path) -> SessionSummary:
    """The title and first prompt of the transcript at `path` (unreadable: empty names)."""
    title = first = summary = ""
    try:
        entries = _naming_entries(path)
        modified = path.stat().st_mtime
    except OSError:
        return SessionSummary(path, "", "(unreadable)", 0.0)
    for entry in entries:
        if entry.get("type") == "custom-title" and isinstance(entry.get("customTitle"), str):
            title = entry["customTitle"]
        elif entry.get("type") == "summary" and isinstance(entry.get("summary"), str):
            summary = entry["summary"]
        elif not first and entry.get("type") == "user" and isinstance(entry.get("message"), dict):
            first = _prompt_text(entry["message"])
    return SessionSummary(path, _one_line(title or summary), _one_line(first), modified)


def _naming_entries(path: Path) -> list[dict]:  # type: ignore[type-arg]
    """The entries that can name a session, without parsing every line: a Claude Code
    transcript runs to megabytes of tool output, and a picker summarizes hundreds of them."""
    entries = []
    prompts_seen = 0
    with path.open("r", encoding="utf-8", errors="replace") as lines:
        for line in lines:
            naming = '"custom-title"' in line or '"summary"' in line
            if not naming and (prompts_seen >= 20 or '"user"' not in line):
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict):
                prompts_seen += entry.get("type") == "user"
                entries.append(entry)
    return entries


def search(summaries: list[SessionSummary], query: str) -> list[SessionSummary]:
    return [s for s in summaries if s.matches(query)] if query.strip() else list(summaries)
