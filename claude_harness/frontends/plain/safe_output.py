"""The REPL's last line of defence against escape sequences in printed text.

Rich prints a Text's characters as they are (it drops only BEL, backspace and a few others): a
tool's output holding `ESC ] 2 ; title BEL` would retitle the window, `ESC [ ? 1049 h` switch to
the alternate screen. The renderer strips model text, tool output, hook output and server text
where it prints them (`strip_unsafe`); this render hook strips every printed renderable once
more, so nothing that reaches the console by another path can act on the terminal either.

It is a Rich `RenderHook` (the public way to see what `Console.print` is about to render): each
renderable is wrapped so that its segments' text is cleaned as it renders. Segments marked as
control codes (Rich's own cursor moves for the live area) pass untouched. The live area is a
render hook of its own that runs after this one; it cleans its text itself (live.py).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType, RenderHook, RenderResult
from rich.segment import Segment

from claude_harness.text.terminal_safety import strip_unsafe


class _Cleaned:
    """A renderable whose output text carries no escape sequence or control character."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.inner, options):
            text = segment.text
            if segment.control or not text:
                yield segment
            else:
                cleaned = strip_unsafe(text)
                yield segment if cleaned is text else Segment(cleaned, segment.style)


class SafeOutput(RenderHook):
    def process_renderables(self, renderables: list[Any]) -> list[Any]:
        return [_Cleaned(r) for r in renderables]


def install_safe_output(console: Console) -> None:
    console.push_render_hook(SafeOutput())
