"""TaskCreated and TaskCompleted for TodoWrite, Claude Code's task-list events.

TodoWrite replaces the whole list, so the events come from comparing it with the list before:
a task whose text was not on it was created; a task now `completed` that was not completed
before (or arrives completed) was completed. The payload has Claude Code's fields: `task_id`
(the task's 1-based place in the new list: TodoWrite's tasks have no other name),
`task_subject` (its text) and `task_description` (its in-progress form). A hook that answers
exit 2 or `decision: "block"` refuses the whole update: the list stays as it was and the model
is told why.
"""

from __future__ import annotations

from typing import Any

from claude_harness.protocol.context import ToolUseContext
from claude_harness.tools.todo_write.state import Todo

TASK_CREATED = "TaskCreated"
TASK_COMPLETED = "TaskCompleted"


def task_events(old: list[Todo], new: list[Todo]) -> list[tuple[str, dict[str, Any]]]:
    """(event, payload) for each task created and each task completed by the update."""
    before = {t["content"]: t["status"] for t in old}
    events: list[tuple[str, dict[str, Any]]] = []
    for place, todo in enumerate(new, start=1):
        payload = {"task_id": str(place), "task_subject": todo["content"],
                   "task_description": todo["activeForm"]}
        if todo["content"] not in before:
            events.append((TASK_CREATED, payload))
        if todo["status"] == "completed" and before.get(todo["content"]) != "completed":
            events.append((TASK_COMPLETED, payload))
    return events


async def refusal(ctx: ToolUseContext, old: list[Todo], new: list[Todo]) -> str | None:
    """Run the hooks; the reason the update is refused, or None when it may go ahead."""
    hooks = ctx.hooks
    if hooks is None or not (hooks.has_hooks(TASK_CREATED) or hooks.has_hooks(TASK_COMPLETED)):
        return None
    reasons = []
    for event, payload in task_events(old, new):
        if not hooks.has_hooks(event):
            continue
        outcome = await hooks.run(event, {**payload, "cwd": str(ctx.cwd)}, abort=ctx.abort)
        if outcome.blocked or outcome.stop:
            why = outcome.block_reason or outcome.stop_reason or "blocked by a hook"
            reasons.append(f"{event} hook refused task {payload['task_id']} "
                           f"({payload['task_subject']}): {why}")
    return "\n".join(reasons) or None
