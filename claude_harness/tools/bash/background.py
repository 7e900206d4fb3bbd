"""Background shells: commands started with run_in_background, shared by Bash, BashOutput, KillShell.

A background shell is a ShellProcess nobody awaits. Its output goes into a bounded capture that
BashOutput empties on each read ("what is new since I last looked"), so a chatty server cannot grow
our memory between reads: past the bound the middle is dropped and counted.

The registry is process-wide on purpose: the ids ("bash_1", ...) are handed to the model, which
may ask about them from any later turn, and every live group is killed when the program exits.
"""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from claude_harness.protocol.tool import ToolError
from claude_harness.tools.bash.capture import CapturedText, StreamCapture
from claude_harness.tools.bash.process import ShellProcess, exit_status

MAX_FINISHED_KEPT = 50  # finished shells remembered for a last read; older ones are forgotten


@dataclass
class BackgroundShell:
    id: str
    command: str
    process: ShellProcess
    started_at: float = field(default_factory=time.monotonic)
    killed: bool = False

    @property
    def running(self) -> bool:
        return not self.killed and not self.process.finished

    def status(self) -> str:
        if self.killed:
            return "killed"
        if not self.process.finished:
            return "running"
        code = self.process.returncode
        return f"exited with code {exit_status(code)}" if code is not None else "finished"

    def take_output(self) -> tuple[CapturedText, CapturedText]:
        """stdout and stderr written since the previous call."""
        return self.process.stdout.take(), self.process.stderr.take()


class BackgroundRegistry:
    """The live and recently finished background shells, by id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._shells: dict[str, BackgroundShell] = {}
        self._counter = 0

    def start(self, command: str, cwd: Path, argv_prefix: Sequence[str] = ()) -> BackgroundShell:
        process = ShellProcess(
            command, cwd, StreamCapture(), StreamCapture(), drain_seconds=None,
            argv_prefix=argv_prefix,
        )
        with self._lock:
            self._counter += 1
            shell = BackgroundShell(f"bash_{self._counter}", command, process)
            self._shells[shell.id] = shell
            self._forget_old_locked()
        return shell

    def get(self, bash_id: str) -> BackgroundShell:
        """The shell with this id; a ToolError naming the known ids when there is none."""
        with self._lock:
            shell = self._shells.get(bash_id)
            known = ", ".join(self._shells) or "none"
        if shell is None:
            raise ToolError(f"No background shell with id {bash_id!r} (known ids: {known}).")
        return shell

    def kill(self, bash_id: str) -> BackgroundShell:
        """Kill the shell's whole process group (blocking for at most the TERM grace)."""
        shell = self.get(bash_id)
        if shell.running:
            shell.killed = True
            shell.process.kill_group()
        return shell

    def kill_all(self) -> None:
        with self._lock:
            shells = list(self._shells.values())
        for shell in shells:
            if shell.running:
                shell.killed = True
                shell.process.kill_group(grace=0.2)

    def _forget_old_locked(self) -> None:
        finished = [s for s in self._shells.values() if not s.running]
        for shell in finished[: max(0, len(finished) - MAX_FINISHED_KEPT)]:
            del self._shells[shell.id]


REGISTRY = BackgroundRegistry()
atexit.register(REGISTRY.kill_all)
