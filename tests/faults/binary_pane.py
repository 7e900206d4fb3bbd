"""The real `claude-harness` binary (any argv) in a tmux pane on a private server.

Used where a test needs the program a user runs, in a real terminal: the installed wheel's
smoke test, a live app in one folder while a second process runs in another, a harness killed
by `kill -9` with its configured commands running. Waits poll the screen until a deadline.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import time
import uuid
from pathlib import Path

from tests.plain.tmux_helpers import remove_socket


class BinaryPane:
    """`argv` started in `cwd` with only `env` (plus TERM and PATH), in a 110x32 pane."""

    def __init__(self, cwd: Path, env: dict[str, str], argv: list[str],
                 script_dir: Path) -> None:
        self.socket = f"ch-bin-{uuid.uuid4().hex[:10]}"
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in
                           {"TERM": "xterm-256color", "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                            "CLAUDE_HARNESS_NO_DAEMON": "1", **env}.items())
        script = script_dir / f"{self.socket}.sh"
        script.write_text(f"#!/bin/sh\ncd {shlex.quote(str(cwd))}\n"
                          f"env -i {exports} {shlex.join(argv)}\n"
                          "echo \"[exited $?]\"\nexec sleep 600\n")
        script.chmod(0o755)
        self.tmux("new-session", "-d", "-s", "main", "-x", "110", "-y", "32", str(script))

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=10, env={**os.environ, "TMUX": ""}).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-t", "main", "-S", "-200")

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "main", "-l", text)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "main", *keys)

    def wait(self, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen or " ".join(text.split()) in " ".join(screen.split()):  # wrapped
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared; screen:\n{screen}")

    def close(self) -> None:
        self.tmux("kill-server")
        remove_socket(self.socket)
