"""What a paste into the prompt becomes, in both front ends, as Claude Code decides it:

- a long paste (more than 800 characters, or more than two line breaks) is held aside and the
  input shows `[Pasted text #1 +120 lines]` instead; the placeholder is swapped back for the
  whole text, byte for byte, when the prompt is sent;
- a paste that is nothing but the path of an existing image (what a terminal types when a file
  is dropped on it: maybe quoted, maybe with `\\ ` escapes) becomes an `@path` mention, so it
  is attached as the image itself, as Ctrl+V's clipboard image is.

Pure text handling, no terminal: the widgets call it from their paste handlers.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

MAX_INLINE_CHARS = 800  # Claude Code's limit for a paste kept as typed text
MAX_INLINE_BREAKS = 2  # more line breaks than this collapse (fewer on a very short terminal)
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")
_PLACEHOLDER = re.compile(r"\[Pasted text #(\d+)(?: \+\d+ lines)?\]")


def normalize_newlines(text: str) -> str:
    """A terminal pastes line breaks as CR (or CR LF); the prompt holds LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def line_breaks(text: str) -> int:
    return len(re.findall(r"\r\n|\r|\n", text))


def should_collapse(text: str, terminal_rows: int = 30) -> bool:
    """Claude Code's rule: over 800 characters, or more breaks than min(rows - 10, 2)."""
    breaks_allowed = max(0, min(terminal_rows - 10, MAX_INLINE_BREAKS))
    return len(text) > MAX_INLINE_CHARS or line_breaks(text) > breaks_allowed


def placeholder(number: int, breaks: int) -> str:
    """`[Pasted text #1 +120 lines]` (the count is the line breaks, as Claude Code counts)."""
    return f"[Pasted text #{number}]" if breaks == 0 else f"[Pasted text #{number} +{breaks} lines]"


class PastedTexts:
    """The long pastes of one prompt, by number, until it is sent."""

    def __init__(self) -> None:
        self._texts: dict[int, str] = {}
        self._next = 1

    def add(self, text: str) -> str:
        """Hold `text` aside; the placeholder to show in its place."""
        number = self._next
        self._next += 1
        self._texts[number] = text
        return placeholder(number, line_breaks(text))

    def expand(self, prompt: str) -> str:
        """The prompt with every placeholder still in it replaced by its paste (a placeholder
        the person edited or typed by hand is left as it stands)."""
        def whole(match: re.Match[str]) -> str:
            return self._texts.get(int(match.group(1)), match.group(0))

        return _PLACEHOLDER.sub(whole, prompt) if self._texts else prompt

    def clear(self) -> None:
        """A sent (or cleared) prompt starts the numbering again."""
        self._texts.clear()
        self._next = 1

    def snapshot(self) -> tuple[dict[int, str], int]:
        """The pastes as they stand, for a stashed draft to take along (prompt_stash.py)."""
        return dict(self._texts), self._next

    def restore(self, saved: tuple[dict[int, str], int]) -> None:
        self._texts, self._next = dict(saved[0]), saved[1]


def dropped_image(pasted: str, cwd: Path) -> Path | None:
    """The image a paste names when it is a single path to an existing image file."""
    text = pasted.strip()
    if not text or "\n" in text or not text.lower().endswith(
            tuple(s + q for s in IMAGE_SUFFIXES for q in ("", "'", '"'))):
        return None
    try:
        words = shlex.split(text)
    except ValueError:
        return None
    if len(words) != 1:
        return None
    word = words[0]
    if word.startswith("file://"):
        word = word[len("file://"):]
    path = Path(os.path.expanduser(word))
    path = path if path.is_absolute() else cwd / path
    if path.suffix.lower() in IMAGE_SUFFIXES and path.is_file():
        return Path(os.path.abspath(path))
    return None
