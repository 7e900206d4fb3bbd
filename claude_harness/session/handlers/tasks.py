"""Ctrl+B and /tasks: move foreground commands to the background, list the background shells,
stop a background agent or shell."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.protocol import ops
from claude_harness.protocol.events import Notice, TaskInfo, TasksListed
from claude_harness.session.handlers.services import Emits

if TYPE_CHECKING:
    from claude_harness.session.services.agents import BackgroundAgents


class TaskServices(Emits, Protocol):
    @property
    def background(self) -> BackgroundAgents: ...


def background_commands(services: Emits, _op: ops.BackgroundCommands) -> None:
    from claude_harness.tools.bash.foreground import FOREGROUND  # Ctrl+B: Bash is loaded

    moved = FOREGROUND.background_all()
    if not moved:
        services.emit(Notice("No command is running in the foreground."))
        return
    services.emit(Notice(f"Moved to the background: {', '.join(moved)} (/tasks lists them)."))


def list_tasks(services: Emits, _op: ops.ListTasks) -> None:
    services.emit(tasks_listing())


def stop_task(services: TaskServices, op: ops.StopTask) -> None:
    asyncio.get_running_loop().create_task(_stop_task(services, op.task_id))


async def _stop_task(services: TaskServices, task_id: str) -> None:
    """Stop a background agent or kill a background shell (/tasks, an SDK's stop_task)."""
    from claude_harness.tools.bash.background import REGISTRY  # /tasks: Bash's registry

    if services.background.stop(task_id):
        services.emit(Notice(f"{task_id}: stopping the background agent."))
        services.emit(tasks_listing())
        return
    try:
        shell = await asyncio.to_thread(REGISTRY.kill, task_id)
    except Exception as exc:  # ToolError: no such task
        services.emit(Notice(str(getattr(exc, "message", exc)), "error"))
        return
    services.emit(Notice(f"{shell.id}: {shell.status()}."))
    services.emit(tasks_listing())


def tasks_listing() -> TasksListed:
    from claude_harness.tools.bash.background import REGISTRY  # /tasks: Bash's registry

    return TasksListed(tuple(TaskInfo(s.id, s.command, s.state, s.summary(),
                                      str(s.output.path)) for s in REGISTRY.shells()))


HANDLERS: dict[type[ops.Op], Callable[[TaskServices, Any], None]] = {
    ops.BackgroundCommands: background_commands, ops.ListTasks: list_tasks,
    ops.StopTask: stop_task}
