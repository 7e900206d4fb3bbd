"""A tool the API ran itself (web search, web fetch, code execution): one compact line, with the
result URLs under Ctrl+O."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from claude_harness.frontends.shared.event_text import server_tool_line, server_tool_urls
from claude_harness.protocol.events import ServerToolUse


class ServerToolView(Vertical):
    DEFAULT_CSS = """
    ServerToolView { height: auto; margin: 1 0 0 0; padding: 0 1; }
    ServerToolView .server-tool-line { color: $text-muted; }
    ServerToolView.-error .server-tool-line { color: $warning; }
    ServerToolView .server-tool-urls { color: $text-muted; padding: 0 0 0 2; display: none; }
    ServerToolView.-expanded .server-tool-urls { display: block; }
    """

    def __init__(self, event: ServerToolUse) -> None:
        super().__init__(classes="-error" if event.error else "")
        self.event = event
        self.line = server_tool_line(event)
        self.urls = server_tool_urls(event)

    def compose(self) -> ComposeResult:
        yield Static(f"⌕ {self.line}", classes="server-tool-line", markup=False)
        if self.urls:
            yield Static("\n".join(f"⎿ {u}" if i == 0 else f"  {u}"
                                   for i, u in enumerate(self.urls)),
                         classes="server-tool-urls", markup=False)

    def set_expanded(self, expanded: bool) -> None:
        self.set_class(expanded, "-expanded")
