"""/add-dir: one more working directory for permissions and MCP roots; the model hears of it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.protocol import ops
from claude_harness.protocol.events import DirectoriesChanged, Notice
from claude_harness.session.handlers.services import Emits
from claude_harness.session.services.directories import check_directory, directory_reminder

if TYPE_CHECKING:
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


def add_directory(services: DirectoryServices, op: ops.AddDirectory) -> None:
    answer = check_directory(services.permission, op.path, services.shell_cwd)
    services.emit(Notice(answer.message, answer.level))  # type: ignore[arg-type]
    if answer.path is None:
        return
    permission = services.permission
    services.permission = replace(permission,
                                  additional_dirs=(*permission.additional_dirs, answer.path))
    if services.mcp is not None:
        services.mcp.add_root(answer.path)
    services.reminders.note(directory_reminder(answer.path))
    services.emit(DirectoriesChanged(tuple(str(d) for d in services.permission.additional_dirs)))


HANDLERS: dict[type[ops.Op], Callable[[DirectoryServices, Any], None]] = {
    ops.AddDirectory: add_directory}
