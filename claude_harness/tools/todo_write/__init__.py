"""TodoWrite: the model's task checklist; state.get_todos() is what the UI shows."""

from claude_harness.tools.todo_write.state import get_todos
from claude_harness.tools.todo_write.tool import TOOL, TodoItem, TodoWriteInput

__all__ = ["TOOL", "TodoItem", "TodoWriteInput", "get_todos"]
