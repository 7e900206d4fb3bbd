"""/rename: the conversation's title, kept in the transcript as Claude Code keeps it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.protocol import ops
from claude_harness.protocol.events import Notice, SessionRenamed
from claude_harness.session.handlers.services import Emits

if TYPE_CHECKING:
    from claude_harness.session.store.transcript import Transcript


class NamingServices(Emits, Protocol):
    @property
    def transcript(self) -> Transcript | None: ...


def rename(services: NamingServices, op: ops.RenameSession) -> None:
    title = " ".join(op.title.split())
    if not title:
        services.emit(Notice("Usage: /rename <title>", "warning"))
        return
    if services.transcript is not None:
        services.transcript.append_metadata("custom-title", customTitle=title)
    services.emit(SessionRenamed(title))
    services.emit(Notice(f"Conversation renamed to {title!r}."))


HANDLERS: dict[type[ops.Op], Callable[[NamingServices, Any], None]] = {
    ops.RenameSession: rename}
