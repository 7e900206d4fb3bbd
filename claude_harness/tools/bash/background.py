"""Background shells: started with run_in_background, or moved there from the foreground (the
timeout was reached, or the person pressed Ctrl+B). Shared by Bash, TaskOutput, TaskStop and the
front ends' `/tasks`.

A background shell is a ShellProcess nobody awaits. Its output goes to two places: its OutputFile
(everything, on disk, for Read) and a bounded capture that TaskOutput empties on each read ("what
is new since I last looked"). Each shell has a lifetime cap: past it the whole process group is
killed and the shell reads "expired".

The registry is process-wide on purpose: the ids ("bash_1", ...) are handed to the model, which
may ask about them from any later turn, and every live group is killed when the program exits.
Listeners (`subscribe`) hear "started" and "ended" from whatever thread the change happened on
(a process's reader thread, a timer): a UI must hop to its own thread.
"""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from claude_harness.protocol.tool import ToolError
from claude_harness.tools.bash.capture import CapturedText, StreamCapture
from claude_harness.tools.bash.output_file import OutputFile
from claude_harness.tools.bash.process import ShellProcess, exit_status
from claude_harness.tools.bash.session_env import env_prelude
from claude_harness.tools.elapsed import format_elapsed

MAX_FINISHED_KEPT = 50  # finished shells remembered for a last read; older ones are forgotten
ShellState = Literal["running", "completed", "failed", "killed", "expired"]
Origin = Literal["run_in_background", "timeout", "user"]


class FinishSignal:
    """"The process has ended", fired once from its reader thread; late listeners run at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._fired = False
        self._listeners: list[Callable[[], None]] = []

    def fire(self) -> None:
        with self._lock:
            self._fired = True
            listeners, self._listeners = self._listeners, []
        for listener in listeners:
            listener()

    def add(self, listener: Callable[[], None]) -> None:
        with self._lock:
            if not self._fired:
                self._listeners.append(listener)
                return
        listener()


@dataclass
class BackgroundShell:
    id: str
    command: str
    process: ShellProcess
    output: OutputFile
    lifetime_s: float
    origin: Origin = "run_in_background"
    started_at: float = field(default_factory=time.time)
    ended_at: float | None = None
    killed: bool = False
    expired: bool = False
    cleanup: list[Callable[[], None]] = field(default_factory=list)

    @property
    def running(self) -> bool:
        return not (self.killed or self.expired) and not self.process.finished

    @property
    def state(self) -> ShellState:
        if self.expired:
            return "expired"
        if self.killed:
            return "killed"
        if not self.process.finished:
            return "running"
        return "completed" if self.exit_code == 0 else "failed"

    @property
    def exit_code(self) -> int | None:
        code = self.process.returncode
        return exit_status(code) if code is not None and self.process.finished else None

    def status(self) -> str:
        """One phrase for people and the model: "running", "exited with code 2", ..."""
        state = self.state
        if state == "expired":
            return f"stopped: still running after its lifetime of {self.lifetime_s:g} s"
        if state == "killed":
            return "killed"
        if state == "running":
            return "running"
        return f"exited with code {self.exit_code}"

    def summary(self, now: float | None = None) -> str:
        """One row for `/tasks`: id, state and age, the command's first line."""
        end = self.ended_at or now or time.time()
        age = format_elapsed(end - self.started_at)
        command = self.command.strip().splitlines()[0] if self.command.strip() else ""
        origin = {"timeout": " (moved at its timeout)", "user": " (moved by you)"}.get(
            self.origin, "")
        return f"{self.id} · {self.status()} · {age}{origin} · {command}"

    def take_output(self) -> tuple[CapturedText, CapturedText]:
        """stdout and stderr written since the previous call."""
        return self.process.stdout.take(), self.process.stderr.take()


Listener = Callable[[str, BackgroundShell], None]  # ("started" | "ended", shell)


class BackgroundRegistry:
    """The live and recently finished background shells, by id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._shells: dict[str, BackgroundShell] = {}
        self._counter = 0
        self._listeners: list[Listener] = []

    def next_id(self) -> str:
        """A fresh id; every Bash run takes one, so a run moved to the background keeps it."""
        with self._lock:
            self._counter += 1
            return f"bash_{self._counter}"

    def start(self, command: str, cwd: Path, *, lifetime_ms: int, output_dir: Path,
              spill_at: int, argv_prefix: Sequence[str] = ()) -> BackgroundShell:
        """Start `command` in the background; its output goes to <output_dir>/<id>.output."""
        shell_id = self.next_id()
        output = OutputFile(output_dir / f"{shell_id}.output", spill_at)
        output.spill()
        finished = FinishSignal()
        process = ShellProcess(env_prelude() + command, cwd, StreamCapture(sink=output.write),
                               StreamCapture(sink=output.write), on_finish=finished.fire,
                               drain_seconds=None, argv_prefix=argv_prefix)
        return self.adopt(shell_id, command, process, output, finished,
                          lifetime_ms=lifetime_ms, origin="run_in_background")

    def adopt(self, shell_id: str, command: str, process: ShellProcess, output: OutputFile,
              finished: FinishSignal, *, lifetime_ms: int, origin: Origin,
              cleanup: Callable[[], None] | None = None) -> BackgroundShell:
        """Take over a running process (a foreground command moved to the background)."""
        output.spill()
        shell = BackgroundShell(shell_id, command, process, output, lifetime_ms / 1000, origin)
        if cleanup is not None:
            shell.cleanup.append(cleanup)
        timer = threading.Timer(shell.lifetime_s, self._expire, args=(shell,))
        timer.daemon = True
        with self._lock:
            self._shells[shell.id] = shell
            self._forget_old_locked()
        self._notify("started", shell)
        timer.start()
        finished.add(lambda: self._ended(shell, timer))
        return shell

    def get(self, shell_id: str) -> BackgroundShell:
        """The shell with this id; a ToolError naming the known ids when there is none."""
        with self._lock:
            shell = self._shells.get(shell_id)
            known = ", ".join(self._shells) or "none"
        if shell is None:
            raise ToolError(f"No task found with ID: {shell_id} (known: {known}).")
        return shell

    def shells(self) -> list[BackgroundShell]:
        """Every remembered shell, newest first (`/tasks`)."""
        with self._lock:
            return sorted(self._shells.values(), key=lambda s: s.started_at, reverse=True)

    def kill(self, shell_id: str) -> BackgroundShell:
        """Kill the shell's whole process group (blocking for at most the TERM grace)."""
        shell = self.get(shell_id)
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

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Hear about shells starting and ending; returns the function that stops listening."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    # ── internals ──────────────────────────────────────────────────────────────────────────

    def _expire(self, shell: BackgroundShell) -> None:
        if shell.running:
            shell.expired = True
            shell.process.kill_group()

    def _ended(self, shell: BackgroundShell, timer: threading.Timer) -> None:
        timer.cancel()
        shell.ended_at = time.time()
        shell.output.close()
        for cleanup in shell.cleanup:
            cleanup()
        self._notify("ended", shell)

    def _notify(self, kind: str, shell: BackgroundShell) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(kind, shell)
            except Exception:  # a UI bug must not break the reader thread
                continue

    def _forget_old_locked(self) -> None:
        finished = [s for s in self._shells.values() if not s.running]
        for shell in finished[: max(0, len(finished) - MAX_FINISHED_KEPT)]:
            del self._shells[shell.id]


REGISTRY = BackgroundRegistry()
atexit.register(REGISTRY.kill_all)
