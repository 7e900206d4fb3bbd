"""The /agents panel's changes: a new agent file, a deleted one (session/services/agent_panel.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.protocol import ops
from claude_harness.session.handlers.services import Emits

if TYPE_CHECKING:
    from claude_harness.commands.catalog import Catalog


class AgentServices(Emits, Protocol):
    @property
    def cwd(self) -> Path: ...
    @property
    def catalog(self) -> Catalog: ...


def create_agent(services: AgentServices, op: ops.CreateAgent) -> None:
    from claude_harness.session.services.agent_panel import create  # YAML: on the panel's first use

    for event in create(services.catalog, services.cwd, op):
        services.emit(event)


def delete_agent(services: AgentServices, op: ops.DeleteAgent) -> None:
    from claude_harness.session.services.agent_panel import delete

    for event in delete(services.catalog, services.cwd, op):
        services.emit(event)


HANDLERS: dict[type[ops.Op], Callable[[AgentServices, Any], None]] = {
    ops.CreateAgent: create_agent, ops.DeleteAgent: delete_agent}
