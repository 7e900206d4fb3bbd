"""The app's last line of defence against escape sequences in displayed text.

Textual writes a widget's text to the terminal as it is: a Static, a Markdown document or a Rich
Text holding `ESC ] 2 ; title BEL` retitles the window, `ESC [ 2 J` clears the screen (markup
escaping does nothing for these: they are not markup). The renderers strip model text, tool
output and server text where they receive it (`strip_unsafe`); this line filter strips every
line of every widget once more, just before output, so text from any other path (a notice, a
todo, a file name in a completion list) cannot act on the terminal either.

Textual caches filtered lines, and a line without any control character passes through after
one scan of its text, so the cost is one regular-expression search per new line.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from claude_harness.text.terminal_safety import CONTROL_CHARACTER_OR_CR, strip_unsafe


class TerminalSafeFilter(LineFilter):
    """Remove escape sequences and control characters from the text of every segment."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if not any(CONTROL_CHARACTER_OR_CR.search(segment.text) for segment in segments):
            return segments
        return [segment if segment.control else
                Segment(strip_unsafe(segment.text).replace("\n", " ").replace("\r", " "),
                        segment.style, segment.control)
                for segment in segments]
