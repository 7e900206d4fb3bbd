"""Drive the real `claude-harness --plain` inside a detached tmux session.

Each session gets its own tmux server (-L <unique socket>) so parallel or leftover sessions
never interfere; `kill()` stops that server. Waits poll capture-pane until a deadline instead
of sleeping fixed amounts.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path


def _words(text: str) -> str:
    """The text with line breaks and runs of spaces as one space: a phrase is found across a
    wrapped line (where a line wraps depends on the temp folder's path length, for one)."""
    return " ".join(text.split())

class TmuxSession:
    def __init__(self, cwd: Path, env: dict[str, str], args: list[str],
                 width: int = 120, height: int = 40, piped: str | None = None) -> None:
        """`piped`: text written down a pipe into the program's stdin (`printf ... | it`)."""
        self.socket = f"ch-plain-{uuid.uuid4().hex[:10]}"
        self.name = "plain"
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        command = (f"env {exports} {shlex.quote(sys.executable)} -m claude_harness --plain "
                   + " ".join(shlex.quote(a) for a in args))
        if piped is not None:
            command = f"printf %s {shlex.quote(piped)} | {command}"
        # A shell stays behind the program so the pane (and its scrollback) outlives an exit.
        # It traps SIGINT (a dumb terminal sends Ctrl+C to the whole foreground group) with a
        # handler, not SIG_IGN, so the program still starts with the default disposition.
        wrapper = cwd.parent / f"run-{self.socket}.sh"
        wrapper.write_text(f"#!/bin/sh\ntrap 'true' INT\ncd {shlex.quote(str(cwd))}\n{command}\n"
                           f"echo \"[exited $?]\"\nexec sleep 600\n")
        wrapper.chmod(0o755)
        self._tmux("new-session", "-d", "-x", str(width), "-y", str(height), "-s", self.name,
                   str(wrapper))
        self._tmux("set-option", "-t", self.name, "history-limit", "5000")

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              timeout=10, env={**os.environ, "TMUX": ""})
        if done.returncode != 0:
            raise RuntimeError(f"tmux {args[0]} failed: {done.stderr.strip()}")
        return done.stdout

    def send(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", self.name, *keys)

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", self.name, "-l", text)

    def screen(self, *, styled: bool = False) -> str:
        """The visible pane plus its scrollback; plain text unless `styled` (-e: the SGR
        sequences of coloured cells)."""
        flags = ["-e"] if styled else []
        return self._tmux("capture-pane", "-p", *flags, "-t", self.name, "-S", "-2000")

    def wait_for(self, check: str | Callable[[str], bool], timeout: float = 30.0) -> str:
        predicate = ((lambda s: check in s or _words(check) in _words(s))  # wrapped lines too
                     if isinstance(check, str) else check)
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if predicate(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {check!r}; screen was:\n{text}")

    def kill(self) -> None:
        """Stop this session's tmux server and remove its socket file."""
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True,
                       timeout=10)
        remove_socket(self.socket)

    def pane_state(self) -> tuple[str, str]:
        """(the window title programs set, "1" when the alternate screen is on)."""
        info = self._tmux("display-message", "-p", "-t", self.name,
                          "#{pane_title}|#{alternate_on}")
        title, _, alternate = info.strip().partition("|")
        return title, alternate


def remove_socket(name: str) -> None:
    """A killed tmux server leaves its socket file behind: remove it (`tmux -L name`)."""
    folder = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
    (folder / name).unlink(missing_ok=True)
