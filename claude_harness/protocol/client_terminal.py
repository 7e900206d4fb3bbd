"""Terminals an editor runs for us: the one hook through which a front end's client runs Bash's
foreground commands (ACP's `terminal/*` methods), so the person watches the command live in the
editor's own terminal view.

A front end whose client offers terminals sets `client_terminals` before its session starts;
the session's tasks inherit it (a context variable), so it applies to that session alone. Bash
decides nothing differently: the permission checker has decided before the call, and a command
that must be sandboxed is handed over already wrapped in its bubblewrap command line."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class TerminalExit:
    """How the command ended: its exit code, or the signal (a name, "SIGKILL") that ended it."""

    exit_code: int | None = None
    signal: str | None = None


@dataclass(frozen=True)
class TerminalText:
    """What the terminal shows: its output (the client keeps the last bytes past the limit)."""

    output: str
    truncated: bool = False
    exit: TerminalExit | None = None


class ClientTerminals(Protocol):
    """The client's terminals; every method raises (the client's reason) when it cannot."""

    async def create(self, command: str, args: list[str], cwd: str, env: dict[str, str],
                     output_byte_limit: int) -> str:
        """Start `command args...` in `cwd` with `env` added; its terminal id."""
        ...

    async def wait_for_exit(self, terminal_id: str) -> TerminalExit: ...

    async def output(self, terminal_id: str) -> TerminalText: ...

    async def kill(self, terminal_id: str) -> None:
        """Stop the command; the terminal (and its output) stays until released."""
        ...

    async def release(self, terminal_id: str) -> None:
        """Kill it if still running and free the terminal (the editor keeps showing it)."""
        ...


client_terminals: ContextVar[ClientTerminals | None] = ContextVar("client_terminals",
                                                                  default=None)
