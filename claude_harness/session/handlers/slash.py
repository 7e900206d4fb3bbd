"""The built-in slash commands the session answers itself (SessionCommand), by name: the
table of names is in session/services/slash_commands.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from claude_harness.protocol import ops

if TYPE_CHECKING:
    from claude_harness.session.services.slash_commands import SlashServices


def session_command(services: SlashServices, op: ops.SessionCommand) -> None:
    from claude_harness.session.services import slash_commands  # on first use

    slash_commands.run(services, op)


HANDLERS: dict[type[ops.Op], Callable[[SlashServices, Any], None]] = {
    ops.SessionCommand: session_command}
