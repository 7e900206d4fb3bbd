"""Hook matchers: which hooks of an event apply to a given tool name (or source, trigger, ...).

Three forms, as in Claude Code settings:
  ""  / "*" / omitted           every value
  only [A-Za-z0-9_-], `|`, `,`, spaces
                                an exact list of names: "Edit|Write", "Edit, Write"
  anything else                 a regex searched (unanchored) in the value: "mcp__.*", "^Notebook"

The exact-list form matters: "Edit" must not fire for "NotebookEdit", which an unanchored regex
would do. The Agent tool was once called Task: a matcher naming either covers both (Claude Code
2.1.332 fires a `Task` hook for an Agent call).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_EXACT_LIST = re.compile(r"^[A-Za-z0-9_\-|, ]+$")
_OLD_NAMES = {"Agent": "Task", "Task": "Agent"}


class MatcherError(ValueError):
    """The matcher text is neither a name list nor a valid regex."""


@dataclass(frozen=True)
class Matcher:
    """A compiled matcher; `matches(None)` is True because an event without a subject cannot filter."""

    raw: str
    names: frozenset[str] | None = None
    pattern: re.Pattern[str] | None = None

    @classmethod
    def compile(cls, raw: str | None) -> Matcher:
        text = (raw or "").strip()
        if text in ("", "*"):
            return cls(raw=text)
        if _EXACT_LIST.match(text):
            names = frozenset(n for n in re.split(r"[|, ]+", text) if n)
            return cls(raw=text, names=names)
        try:
            return cls(raw=text, pattern=re.compile(text))
        except re.error as exc:
            raise MatcherError(f"invalid regex {text!r}: {exc}") from exc

    @property
    def matches_all(self) -> bool:
        return self.names is None and self.pattern is None

    def matches(self, value: str | None) -> bool:
        if value is None or self.matches_all:
            return True
        other = _OLD_NAMES.get(value)
        return self._matches(value) or (other is not None and self._matches(other))

    def _matches(self, value: str) -> bool:
        if self.names is not None:
            return value in self.names
        assert self.pattern is not None
        return self.pattern.search(value) is not None
