"""What a built-in slash command is: its name, description, argument hint, and what it does
(ops for the session, or a front-end action). Its own module so the tables of built-ins
(registry.py, more_builtins.py) can share it without importing each other."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from claude_harness.protocol import ops


@dataclass(frozen=True)
class Command:
    name: str
    description: str
    arg_hint: str = ""
    to_ops: Callable[[str], list[ops.Op]] | None = None  # a session command
    action: str | None = None  # a front-end action, when to_ops gives nothing
    aliases: tuple[str, ...] = ()
