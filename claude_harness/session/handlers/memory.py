"""`#` notes: append to the user's or the project's CLAUDE.md; the model hears of it with the
next prompt."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from claude_harness.config.memory_notes import append_memory
from claude_harness.protocol import ops
from claude_harness.protocol.events import Notice
from claude_harness.session.handlers.services import AddsNotes, Emits

MEMORY_NOTE = ("The user added this to their memory ({where}); follow it from now on, as you "
               "follow the rest of CLAUDE.md:\n{text}")


class MemoryServices(Emits, AddsNotes, Protocol):
    @property
    def cwd(self) -> Path: ...


def add_memory(services: MemoryServices, op: ops.AddMemory) -> None:
    where = "user" if op.scope == "user" else "project"
    try:
        path = append_memory(where, services.cwd, op.text)
    except (OSError, ValueError) as exc:
        services.emit(Notice(f"Could not save the memory: {exc}", "error"))
        return
    services.add_note({"role": "system", "content": [{"type": "text", "text": MEMORY_NOTE.format(
        where=path, text=" ".join(op.text.split()))}]})
    services.emit(Notice(f"Saved to {path}."))


HANDLERS: dict[type[ops.Op], Callable[[MemoryServices, Any], None]] = {
    ops.AddMemory: add_memory}
