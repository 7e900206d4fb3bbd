"""/permissions, /hooks, /mcp, /memory, /sandbox, /doctor, /agents, /plugins and the SDK's
mcp_status and context: a Describe op answered with a Report (written in session/services/describe.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from claude_harness.protocol import ops
from claude_harness.session.handlers.services import Emits
from claude_harness.session.services.describe import Described, report


class ReportServices(Emits, Described, Protocol):
    pass


def describe(services: ReportServices, op: ops.Describe) -> None:
    services.emit(report(op.topic, services))


HANDLERS: dict[type[ops.Op], Callable[[ReportServices, Any], None]] = {ops.Describe: describe}
