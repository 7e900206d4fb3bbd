"""/add-dir: one more working directory for permissions and MCP roots; the model hears of it.

Then `DirectoryAdded` hooks run (`directory`, `source: "slash_command"`); the op is done when
they are, so the next prompt hears them (Claude Code does not wait, and delivers what they say
whenever they finish). Nothing they say can undo the addition; a hook's systemMessage, and how
many hooks failed, reach the model with the next prompt, in Claude Code's words.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.hooks.events import DIRECTORY_ADDED
from claude_harness.protocol import ops
from claude_harness.protocol.events import DirectoriesChanged, HookRan, Notice
from claude_harness.session.handlers.services import Emits
from claude_harness.session.services.directories import check_directory, directory_reminder

if TYPE_CHECKING:
    from claude_harness.hooks.runner import HookRunner
    from claude_harness.mcp.client import McpManager
    from claude_harness.protocol.permission_data import PermissionContext
    from claude_harness.session.prompt.prompt_extras import Reminders


class DirectoryServices(Emits, Protocol):
    permission: PermissionContext

    @property
    def shell_cwd(self) -> Path: ...
    @property
    def mcp(self) -> McpManager | None: ...
    @property
    def reminders(self) -> Reminders: ...
    @property
    def hooks(self) -> HookRunner | None: ...


def add_directory(services: DirectoryServices, op: ops.AddDirectory) -> Awaitable[None] | None:
    answer = check_directory(services.permission, op.path, services.shell_cwd)
    services.emit(Notice(answer.message, answer.level))  # type: ignore[arg-type]
    if answer.path is None:
        return None
    permission = services.permission
    services.permission = replace(permission,
                                  additional_dirs=(*permission.additional_dirs, answer.path))
    if services.mcp is not None:
        services.mcp.add_root(answer.path)
    services.reminders.note(directory_reminder(answer.path))
    services.emit(DirectoriesChanged(tuple(str(d) for d in services.permission.additional_dirs)))
    hooks = services.hooks
    if hooks is not None and hooks.has_hooks(DIRECTORY_ADDED):
        return _directory_added(services, hooks, answer.path)
    return None


async def _directory_added(services: DirectoryServices, hooks: HookRunner, path: Path) -> None:
    outcome = await hooks.run(DIRECTORY_ADDED, {"directory": str(path),
                                                "source": "slash_command"})
    if outcome.ran:
        services.emit(HookRan(DIRECTORY_ADDED, outcome))
    lines = [f"DirectoryAdded hook: {m}" for m in outcome.system_messages]
    failed = sum(1 for r in outcome.results if r.exit_code != 0)
    if failed:
        lines.append(f"{failed} DirectoryAdded hook{'s' if failed > 1 else ''} failed; output "
                     "is in the debug log, not shown here")
    if lines:
        services.reminders.note("\n".join(lines))


HANDLERS: dict[type[ops.Op], Callable[[DirectoryServices, Any], Awaitable[None] | None]] = {
    ops.AddDirectory: add_directory}
