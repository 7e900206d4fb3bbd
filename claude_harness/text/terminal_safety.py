"""Make untrusted text safe to print on a terminal: no escape sequence that acts on the screen.

Tool output (a `cat` of a hostile file, a web page, an MCP server's answer) and model text reach
the user's terminal. A terminal obeys what it reads: OSC retitles the window, sets the clipboard
(OSC 52) or plants a hyperlink whose text lies about its target (OSC 8); CSI moves the cursor,
clears the screen or switches to the alternate screen, so output can overwrite what the user was
shown (a fake "Allow? (y)" prompt, a hidden line); DCS/APC/PM strings drive terminal-specific
features; `ESC c` resets the terminal. Only SGR (`ESC [ ... m`, colours and text attributes) is
harmless, and it is worth keeping where output is shown as coloured output.

`strip_unsafe()` removes, in one regular-expression pass done in C:
  - string sequences OSC, DCS, SOS, PM and APC, up to and including their terminator (BEL or ST);
  - every CSI sequence except SGR (and SGR too unless `keep_colors`);
  - every other escape sequence (`ESC c`, `ESC 7`, charset switches, ...) and any stray ESC;
  - C1 controls (U+0080-U+009F, which some terminals read as 8-bit CSI/OSC introducers);
  - C0 controls other than tab, newline and carriage return (BEL, backspace, SO/SI, DEL...).
A string sequence left unterminated loses only its introducer: its text stays visible as plain
text, which a terminal can no longer act on.

Text without any control character is returned as is after one scan (the common case).
"""

from __future__ import annotations

import re

# OSC (ESC ]), DCS (ESC P), SOS (ESC X), PM (ESC ^), APC (ESC _) and their 8-bit forms, through
# the terminator: BEL, ST as ESC \, or ST as the C1 byte U+009C.
_STRING_SEQUENCE = r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)"
# CSI: introducer, parameter bytes, intermediate bytes, one final byte.
CSI = r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]"
# Any other escape sequence: ESC, intermediates, a final byte (ESC c, ESC 7, ESC ( B, ...).
OTHER_ESCAPE = r"\x1b[\x20-\x2f]*[\x30-\x7e]"
# What is left: a stray ESC, C0 controls but tab/newline/CR, DEL and the C1 range.
_CONTROL_RANGES = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
_CONTROL = f"[{_CONTROL_RANGES}]"
# Colours and attributes only: digits and separators, final `m`.
_SGR = r"\x1b\[[0-9;:]*m"

# The one definition of a control character, for every module that looks for one: what
# `strip_unsafe` removes (tab, newline and CR stay), and the same with CR (where a carriage
# return must be seen or would move the cursor inside a line).
CONTROL_CHARACTER = re.compile(_CONTROL)
CONTROL_CHARACTER_OR_CR = re.compile(f"[{_CONTROL_RANGES}\r]")
# Every alternative starts at a control character: the leading lookahead lets the engine skip
# ordinary text without trying each alternative at every position.
_UNSAFE = f"(?={_CONTROL})(?:{_STRING_SEQUENCE}|{CSI}|{OTHER_ESCAPE}|{_CONTROL})"
_STRIP_ALL = re.compile(_UNSAFE)
# The same, refusing to start at an SGR sequence: colours are never matched, so the replacement
# stays the empty string (no Python call per match).
_STRIP_KEEP_SGR = re.compile(f"(?!{_SGR}){_UNSAFE}")


def strip_unsafe(text: str, *, keep_colors: bool = False) -> str:
    """`text` with every escape sequence and control character a terminal could act on removed.

    Tab, newline and carriage return stay. With `keep_colors`, SGR sequences (colours, bold,
    underline...) stay too; use it only where the text is shown as coloured output.
    """
    if CONTROL_CHARACTER.search(text) is None:
        return text
    if keep_colors:
        return _STRIP_KEEP_SGR.sub("", text)
    return _STRIP_ALL.sub("", text)

