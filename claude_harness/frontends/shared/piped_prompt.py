"""`echo text | claude-harness "prompt"`: the interactive app sends the piped text with the
prompt, as Claude Code does (the prompt, a newline, then what came down the pipe), and keeps
reading keys from the terminal.

The app reads keys from stdin, so once the pipe is drained the controlling terminal is put
back on file descriptor 0; without one there is no person to type and the caller says so.
The REPL (`--plain`) joins them the same way (join_piped_stdin), and needs no terminal after.
"""

from __future__ import annotations

import os
import sys


def join_prompt(prompt: str | None, piped: str) -> str | None:
    """The first prompt Claude Code sends: the argument, then the piped text on its own line."""
    piped = piped.rstrip("\n")
    if not piped.strip():
        return prompt
    return f"{prompt}\n{piped}" if prompt else piped


def take_piped_stdin(prompt: str | None) -> str | None:
    """Drain a piped stdin into the first prompt and reattach the terminal to fd 0.

    Returns the prompt unchanged when stdin is a terminal. Raises OSError when stdin is a pipe
    and there is no controlling terminal to read keys from afterwards."""
    if sys.stdin is None or sys.stdin.isatty():
        return prompt
    piped = sys.stdin.read()
    _reattach_terminal()
    return join_prompt(prompt, piped)


def join_piped_stdin(prompt: str) -> str:
    """The REPL's first prompt, `echo text | claude-harness --plain "prompt"`: ONE prompt, joined
    as the app's (before, each piped line went out as a prompt of its own after it).

    With output on a terminal the keys come from the terminal afterwards, so the person at it
    goes on typing; otherwise (or with no terminal to reattach) the drained pipe is the end of
    input and the REPL leaves after the answer. An empty pipe changes nothing."""
    piped = sys.stdin.read()
    if piped.strip() and sys.stdout.isatty():
        try:
            _reattach_terminal()
        except OSError:
            pass  # no controlling terminal: line mode reads the pipe's end
    return join_prompt(prompt, piped) or prompt


def _reattach_terminal() -> None:
    """fd 0 becomes the controlling terminal (OSError without one)."""
    tty = os.open("/dev/tty", os.O_RDWR)
    try:
        os.dup2(tty, 0)
    finally:
        os.close(tty)  # fd 0 is the terminal now: sys.stdin.isatty() says so too
