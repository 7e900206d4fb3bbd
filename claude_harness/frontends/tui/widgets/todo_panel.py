"""The todo list (Ctrl+T): the latest TodoWrite list with each item's status."""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.markup import escape
from textual.widgets import Static

MARKS = {"completed": "[$success]☒[/]", "in_progress": "[b $primary]◐[/]", "pending": "☐"}


class TodoPanel(Static):
    DEFAULT_CSS = """
    TodoPanel {
        height: auto; max-height: 50vh;
        border: round $secondary; padding: 0 1; display: none;
    }
    TodoPanel.-open { display: block; }
    """

    def __init__(self) -> None:
        super().__init__(id="todo-panel")
        self.todos: list[dict[str, Any]] = []
        self.border_title = "Todos (ctrl+t)"

    def set_todos(self, todos: list[dict[str, Any]]) -> None:
        self.todos = [t for t in todos if isinstance(t, dict)]
        self._render_todos()

    def toggle(self) -> None:
        self.toggle_class("-open")
        self._render_todos()

    def _render_todos(self) -> None:
        if not self.todos:
            self.update("No todos yet.")
            return
        lines = []
        for todo in self.todos:
            status = str(todo.get("status", "pending"))
            text = escape(str(todo.get("content") or todo.get("activeForm") or ""))
            if status == "completed":
                text = f"[strike dim]{text}[/]"
            lines.append(f"{MARKS.get(status, '☐')} {text}")
        self.update(Content.from_markup("\n".join(lines)))
