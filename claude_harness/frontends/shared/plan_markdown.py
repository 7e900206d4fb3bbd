"""The plan shown for approval (ExitPlanMode), as Markdown whose numbered lists read as the
model wrote them: Rich draws `1. Add the flag` as `1 Add the flag`, and a plan is mostly
numbered steps, so the numbers keep their period (and their own start: `3.` stays 3).

Imported only when a plan is shown, never on the path to the first frame.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import Heading, ListItem, Markdown, MarkdownElement
from rich.segment import Segment


class LeftHeading(Heading):
    """Headings at the left margin, like the plan's other lines."""

    LEVEL_ALIGN = {f"h{level}": "left" for level in range(1, 7)}  # type: ignore[assignment]


class NumberedItem(ListItem):
    """A list item whose number keeps its period."""

    def render_number(self, console: Console, options: ConsoleOptions, number: int,
                      last_number: int) -> RenderResult:
        width = len(str(last_number)) + 3  # the digits, the period, a space, one to the left
        lines = console.render_lines(self.elements, options.update(width=options.max_width
                                                                   - width), style=self.style)
        style = console.get_style("markdown.item.number", default="none")
        numeral = Segment(f"{number}.".rjust(width - 1) + " ", style)
        padding = Segment(" " * width, style)
        for index, line in enumerate(lines):
            yield numeral if index == 0 else padding
            yield from line
            yield Segment("\n")


class PlanMarkdown(Markdown):
    """A plan: headings at the left, numbers as written."""

    elements: ClassVar[dict[str, type[MarkdownElement]]] = {
        **Markdown.elements, "heading_open": LeftHeading, "list_item_open": NumberedItem}
