"""A mounted conversation block, turned into one Rich renderable that looks the same.

The conversation keeps only its recent blocks as widgets; older ones become renderables in the
Archive (one line-API widget), which costs nothing per block when something is appended. The
conversion is generic, so every block kind (prompts, answers, tool calls, notices, thinking)
keeps its look without knowing about the archive:

- a Markdown widget becomes Rich Markdown of its source (the same as FrozenText);
- a Static becomes its content (Rich renderables as they are; Textual Content as Rich Text,
  theme variables resolved);
- any other widget becomes its displayed children, stacked;
- each is wrapped in the widget's resolved padding, colours and text style, its left border
  (the only border these blocks use) and its vertical margins.

It must run while the widget is mounted (its CSS applied) and inside the app (theme variables).
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual._border import get_box  # Textual's own border table: the very cell it draws
from textual.content import Content
from textual.style import Style as VisualStyle
from textual.widget import Widget
from textual.widgets import Static

CODE_THEME = "monokai"


class LeftBar:
    """A renderable with a one-cell edge down its left side (CSS `border-left`)."""

    def __init__(self, body: RenderableType, edge: Segment) -> None:
        self.body = body
        self.edge = edge

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(1, options.max_width - 1)
        lines = console.render_lines(self.body, options.update_width(width), pad=True)
        for line in lines:
            yield self.edge
            yield from line
            yield Segment.line()


def _left_edge(widget: Widget) -> Segment | None:
    """The segment Textual draws for the widget's left border, character and colours alike."""
    edge, color = widget.styles.border_left
    if not edge or edge in ("none", "hidden"):
        return None
    outer, inner = widget.background_colors
    box = get_box(edge, VisualStyle(background=inner), VisualStyle(background=outer),
                  VisualStyle(foreground=color))
    return box[1][0]


def _span_style(style: VisualStyle | str) -> RichStyle | None:
    if isinstance(style, VisualStyle):
        return style.rich_style
    if style.startswith("."):  # a component class: not used by conversation blocks
        return None
    try:
        return VisualStyle.parse(style).rich_style  # theme variables come from the running app
    except Exception:  # an unreadable style only loses its colour, never the text
        return None


def content_text(content: Content) -> Text:
    """Textual Content as Rich Text (for the archive; the widget drew it the same way)."""
    text = Text(content.plain)
    for span in content.spans:
        style = _span_style(span.style)
        if style is not None:
            text.stylize(style, span.start, span.end)
    return text


def _static_body(widget: Static) -> RenderableType:
    content = widget.content
    if isinstance(content, (str, Content)):
        visual = widget.visual
        if isinstance(visual, Content):
            return content_text(visual)
        return Text(str(content))
    if hasattr(content, "__rich_console__") or hasattr(content, "__rich__"):
        return content  # type: ignore[return-value]
    return Text(str(content))


def _body(widget: Widget) -> RenderableType:
    # Markdown is imported here, not above: the app's first paint must not load it, and by the
    # time blocks are archived an answer has loaded it already.
    from rich.markdown import Markdown as RichMarkdown
    from textual.widgets import Markdown

    if isinstance(widget, Markdown):
        return RichMarkdown(widget.source, code_theme=CODE_THEME, inline_code_lexer="text")
    if isinstance(widget, Static):
        return _static_body(widget)
    parts = [part for child in widget.children if (part := block_renderable(child)) is not None]
    return Group(*parts)


def block_renderable(widget: Widget) -> RenderableType | None:
    """The widget as it looks, or None when it is not displayed."""
    if not widget.display:
        return None
    styles = widget.styles
    pad = styles.padding
    body: RenderableType = Padding(_body(widget), (pad.top, pad.right, pad.bottom, pad.left),
                                   style=widget.rich_style, expand=True)
    edge = _left_edge(widget)
    if edge is not None:
        body = LeftBar(body, edge)
    margin = styles.margin
    if margin.top or margin.bottom or margin.left or margin.right:
        body = Padding(body, (margin.top, margin.right, margin.bottom, margin.left))
    return body
