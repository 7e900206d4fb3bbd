"""Untrusted text on its way to the terminal, beyond `strip_unsafe` (terminal_safety.py).

`SafeStream` cleans text that arrives in pieces (the model's answer, delta by delta): an escape
sequence cut across two deltas would otherwise lose only its introducer in the first and show
its remains ("2;title") in the second. It holds back an unfinished sequence at the end of a
delta until the next one completes it (or until MAX_HELD characters prove it never will), so
the sequence is removed whole.

`show_controls` is for what a user approves (a command, a file's content): there a control
character must be seen, written out as `\\xNN`, not silently removed, since it is part of what
would run.
"""

from __future__ import annotations

import re

from claude_harness.text.terminal_safety import (
    CONTROL_CHARACTER_OR_CR,
    CSI,
    OTHER_ESCAPE,
    strip_unsafe,
)

MAX_HELD = 4096  # a sequence still open after this many characters is released (stripped)
_INTRODUCER = re.compile(r"[\x1b\x90\x98\x9b\x9d\x9e\x9f]")
_CSI = re.compile(CSI)
_OTHER_ESCAPE = re.compile(OTHER_ESCAPE)
_STRING_OPENERS = ("\x1b]", "\x1bP", "\x1bX", "\x1b^", "\x1b_", "\x90", "\x98", "\x9d", "\x9e",
                   "\x9f")
_STRING_END = re.compile(r"\x07|\x1b\\|\x9c")


def _unfinished(tail: str) -> bool:
    """Whether `tail`, which starts with an introducer, is the start of a sequence whose end
    has not arrived yet."""
    if tail in ("\x1b", "\x9b"):
        return True
    if tail.startswith(("\x1b[", "\x9b")):
        return _CSI.match(tail) is None
    if tail.startswith(_STRING_OPENERS):
        start = 1 if tail[0] != "\x1b" else 2
        return _STRING_END.search(tail, start) is None
    return _OTHER_ESCAPE.match(tail) is None


class SafeStream:
    """Feed deltas, print what `feed` returns; `flush()` at the end of the block."""

    def __init__(self) -> None:
        self._held = ""

    def feed(self, delta: str) -> str:
        text = self._held + delta
        self._held = ""
        window = max(0, len(text) - MAX_HELD)
        if _INTRODUCER.search(text, window) is not None:
            last = [m.start() for m in _INTRODUCER.finditer(text, window)][-1]
            if _unfinished(text[last:]):
                self._held, text = text[last:], text[:last]
        return strip_unsafe(text)

    def flush(self) -> str:
        text, self._held = self._held, ""
        return strip_unsafe(text)


def show_controls(text: str) -> str:
    """`text` with every control character (escape sequences included) written out visibly as
    `\\xNN`; tab and newline stay."""
    if CONTROL_CHARACTER_OR_CR.search(text) is None:
        return text
    return CONTROL_CHARACTER_OR_CR.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
