"""The op table: op class -> its handler, joined once from the domain modules. The session
looks an op up here; the few ops that are the driver's own (a prompt, a command line, an
interrupt, shutdown) it handles itself."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from claude_harness.protocol import ops
from claude_harness.session.handlers import (
    agents,
    context,
    conversation,
    directories,
    hook_list,
    hooks,
    mcp,
    memory,
    models,
    naming,
    output_styles,
    permissions,
    questions,
    reports,
    rewind,
    rule_editor,
    settings_panel,
    slash,
    tasks,
)
from claude_harness.session.handlers.services import OpServices

Handler = Callable[[OpServices, Any], Awaitable[None] | None]


def _join(*tables: dict[type[ops.Op], Any]) -> dict[type[ops.Op], Handler]:
    joined: dict[type[ops.Op], Handler] = {}
    for table in tables:
        for op_type, handler in table.items():
            assert op_type not in joined, f"two handlers for {op_type.__name__}"
            joined[op_type] = handler
    return joined


HANDLERS: dict[type[ops.Op], Handler] = _join(
    rewind.HANDLERS, tasks.HANDLERS, output_styles.HANDLERS, memory.HANDLERS, models.HANDLERS,
    naming.HANDLERS, context.HANDLERS, questions.HANDLERS, slash.HANDLERS,
    permissions.HANDLERS, mcp.HANDLERS, hooks.HANDLERS, directories.HANDLERS,
    conversation.HANDLERS, settings_panel.HANDLERS, rule_editor.HANDLERS, hook_list.HANDLERS,
    reports.HANDLERS, agents.HANDLERS)
