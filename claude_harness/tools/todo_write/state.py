"""The current todo list of each agent, kept outside ToolUseContext on purpose.

The list is conversation UI state, not something later tool calls need, so it lives here in one
small module-level store keyed by agent id ("main" for the top-level agent). TodoWrite writes it;
the front end reads it (Ctrl+T) with get_todos().
"""

from __future__ import annotations

from typing import Literal, TypedDict

MAIN_AGENT = "main"
TodoStatus = Literal["pending", "in_progress", "completed"]


class Todo(TypedDict):
    content: str
    status: TodoStatus
    activeForm: str


_TODOS: dict[str, list[Todo]] = {}


def agent_key(agent_id: str | None) -> str:
    return agent_id or MAIN_AGENT


def get_todos(agent_id: str | None = None) -> list[Todo]:
    """A copy of the agent's current list (empty when it has none)."""
    return [Todo(**t) for t in _TODOS.get(agent_key(agent_id), [])]


def set_todos(agent_id: str | None, todos: list[Todo]) -> list[Todo]:
    """Replace the agent's list and return the previous one."""
    key = agent_key(agent_id)
    old = _TODOS.get(key, [])
    _TODOS[key] = [Todo(**t) for t in todos]
    return old


def clear_todos(agent_id: str | None = None) -> None:
    """Forget an agent's list (a finished sub-agent, /clear)."""
    _TODOS.pop(agent_key(agent_id), None)
