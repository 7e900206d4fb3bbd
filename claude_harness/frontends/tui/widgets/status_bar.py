"""The footer: permission mode on the left; model, context use, session cost and cwd on the right.

Updated by the app when something changes (an event, a key), never by a timer.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.markup import escape
from textual.widgets import Static

from claude_harness.protocol.labels import MODE_LABELS


def short_cwd(cwd: Path, width: int = 40) -> str:
    text = str(cwd)
    home = str(Path.home())
    if text == home or text.startswith(home + "/"):
        text = "~" + text[len(home):]
    return text if len(text) <= width else "…" + text[-(width - 1):]


class StatusBar(Horizontal):
    DEFAULT_CSS = """
    StatusBar { height: 1; padding: 0 1; background: $background; color: $text-muted; }
    StatusBar #status-mode { width: auto; }
    StatusBar #status-mode.-acceptEdits { color: $accent; }
    StatusBar #status-mode.-plan { color: $secondary; }
    StatusBar #status-mode.-bypassPermissions { color: $error; }
    StatusBar #status-info { width: 1fr; text-align: right; }
    """

    def __init__(self) -> None:
        super().__init__(id="status-bar")
        self.mode = "default"
        self.model = ""
        self.context_percent = 0.0
        self.cost = 0.0
        self.cache_percent: float | None = None  # share of prompt tokens read from cache
        self.cwd = Path.cwd()
        self.note = ""
        self.effort = ""  # "◐ medium", "thinking off" (Alt+T, /effort)
        self.vim = ""  # "-- INSERT --" in vim mode's INSERT (as Claude Code shows it)

    def compose(self) -> ComposeResult:
        yield Static(id="status-mode")
        yield Static(id="status-info", markup=False)

    def on_mount(self) -> None:
        self.refresh_status()

    def on_resize(self) -> None:
        self.refresh_status()

    def set_state(self, **values: object) -> None:
        for key, value in values.items():
            setattr(self, key, value)
        if self.is_mounted:
            self.refresh_status()

    def refresh_status(self) -> None:
        mode_view = self.query_one("#status-mode", Static)
        label = MODE_LABELS.get(self.mode, self.mode)
        narrow = 0 < self.size.width < 100
        hint = "" if narrow else " [dim](shift+tab to cycle)[/]"
        vim = f"[dim]{escape(self.vim)}[/] " if self.vim else ""
        mode_view.update(Content.from_markup(f"{vim}{escape(label)}{hint}"))
        mode_view.set_classes(f"-{self.mode}")
        parts = [p for p in (self.note, self.model, self.effort) if p]
        parts.append(f"ctx {self.context_percent:.0f}%")
        if self.cache_percent is not None and not narrow:
            parts.append(f"cache {self.cache_percent:.0f}%")
        parts.append(f"${self.cost:.4f}" if self.cost < 1 else f"${self.cost:.2f}")
        parts.append(short_cwd(self.cwd, 24 if narrow else 40))
        self.query_one("#status-info", Static).update(" · ".join(parts))
