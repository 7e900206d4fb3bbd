"""TodoWrite: the model replaces its whole task checklist in one call."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    Progress,
    ToolError,
    ToolInput,
    ToolResult,
    build_tool,
    load_prompt,
    no_prompt_needed,
)
from claude_harness.tools.todo_write.presentation import PRESENTATION
from claude_harness.tools.todo_write.state import Todo, TodoStatus, get_todos, set_todos
from claude_harness.tools.todo_write.task_hooks import refusal


class TodoItem(ToolInput):
    content: str = Field(min_length=1, description='The task, imperative: "Run the tests"')
    status: TodoStatus = Field(description="pending, in_progress or completed")
    activeForm: str = Field(  # camelCase: the contract's field name
        min_length=1, description='The task while it is being done: "Running the tests"'
    )


class TodoWriteInput(ToolInput):
    todos: list[TodoItem] = Field(description="The complete, updated todo list")


_UPDATED = (
    "Todo list updated. Keep working through it: set a task to in_progress before you start "
    "it, mark it completed as soon as it is done, and call TodoWrite again whenever the plan "
    "changes."
)
_ALL_DONE = "Todo list updated: every task is completed."


async def _call(inp: TodoWriteInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    todos = [Todo(content=t.content, status=t.status, activeForm=t.activeForm) for t in inp.todos]
    refused = await refusal(ctx, get_todos(ctx.agent_id), todos)
    if refused is not None:  # TaskCreated / TaskCompleted said no: the list stays as it was
        raise ToolError(f"The todo list was not updated.\n{refused}")
    old = set_todos(ctx.agent_id, todos)
    return ToolResult(data={"todos": todos, "old_todos": old})


def _render(data: dict[str, Any]) -> str:
    todos = data["todos"]
    if todos and all(t["status"] == "completed" for t in todos):
        return _ALL_DONE
    return _UPDATED


TOOL = build_tool(
    name="TodoWrite",
    presentation=PRESENTATION,
    description=load_prompt(__file__),
    input_model=TodoWriteInput,
    call=_call,
    render_result=_render,
    check_permissions=no_prompt_needed("TodoWrite only updates the task list"),
    key_argument=lambda inp: f"{len(inp.todos)} tasks",
    search_hint="task list checklist plan progress",
)
