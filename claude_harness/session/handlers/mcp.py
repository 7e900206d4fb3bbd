"""/mcp's actions, a server's sign-in and the answers to servers' questions (elicitation)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.mcp.elicitation import ElicitationAnswer
from claude_harness.protocol import ops
from claude_harness.protocol.events import Notice
from claude_harness.session.handlers.services import Emits
from claude_harness.session.services.describe import mcp_action

if TYPE_CHECKING:
    from claude_harness.mcp.client import McpManager
    from claude_harness.session.services.mcp_questions import FrontEndQuestions
    from claude_harness.session.services.mcp_wiring import McpWiring


class McpServices(Emits, Protocol):
    @property
    def cwd(self) -> Path: ...
    @property
    def mcp(self) -> McpManager | None: ...
    @property
    def mcp_wiring(self) -> McpWiring | None: ...
    @property
    def elicitations(self) -> FrontEndQuestions: ...


def server_action(services: McpServices, op: ops.McpServer) -> None:
    services.emit(mcp_action(services.mcp, op.action, op.name, services.cwd))


def authenticate(services: McpServices, op: ops.McpAuthenticate) -> None:
    if services.mcp_wiring is None:
        services.emit(Notice("No MCP servers configured.", "error"))
    else:
        services.mcp_wiring.authenticate(op.name)


def answer_elicitation(services: McpServices, op: ops.AnswerElicitation) -> None:
    services.elicitations.answer(op.request_id, ElicitationAnswer(op.action, op.content))


HANDLERS: dict[type[ops.Op], Callable[[McpServices, Any], None]] = {
    ops.McpServer: server_action, ops.McpAuthenticate: authenticate,
    ops.AnswerElicitation: answer_elicitation}
