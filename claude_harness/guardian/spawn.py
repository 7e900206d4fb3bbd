"""Start a process under the guardian, in a session of its own, with the pipes the caller made
(`spawn_guarded`) or new ones (`spawn_piped`), and learn on an event loop when it exits.

Where the guardian cannot run (not Linux, it failed to start), the process is started directly,
as before: it still gets its own session, so a timeout can kill its whole group.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from claude_harness.guardian import client


class ChildHandle(Protocol):
    """What callers use of a started process: Popen or a GuardedChild."""

    pid: int
    returncode: int | None

    def poll(self) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int: ...


def spawn_guarded(argv: Sequence[str], cwd: Path, env: Mapping[str, str], *,
                  stdin_fd: int | None, stdout_fd: int, stderr_fd: int) -> ChildHandle:
    """Start `argv` (argv[0] an absolute path); stdin from `stdin_fd` (None: /dev/null).
    Raises OSError (FileNotFoundError...) when it cannot start."""
    for _attempt in range(2):  # a guardian that died is replaced once
        keeper = client.start_guarded()
        if keeper is None:
            break
        try:
            return keeper.spawn(argv, cwd, env, stdout_fd, stderr_fd, stdin_fd)
        except OSError as exc:
            if exc.errno is not None:  # the program itself could not start (ENOENT, EACCES)
                raise
    return subprocess.Popen(
        list(argv), cwd=cwd, env=dict(env),
        stdin=subprocess.DEVNULL if stdin_fd is None else stdin_fd,
        stdout=stdout_fd, stderr=stderr_fd, start_new_session=True, close_fds=True)


def kill_group(pid: int) -> None:
    """SIGKILL a started process's whole group (it leads a session of its own)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


@dataclass
class PipedProcess:
    """A started process and our ends of its pipes (file descriptors we own and must close)."""

    child: ChildHandle
    stdin: int | None  # write end; None when the process reads /dev/null
    stdout: int
    stderr: int | None  # None when the caller gave the process a stderr of its own


def spawn_piped(argv: Sequence[str], cwd: Path, env: Mapping[str, str], *, stdin: bool,
                stderr_fd: int | None = None) -> PipedProcess:
    """`spawn_guarded` with new pipes for stdout, for stdin (with `stdin`) and for stderr
    (unless `stderr_fd` is where it goes)."""
    ours: list[int] = []
    theirs: list[int] = []

    def pipe(child_reads: bool) -> tuple[int, int]:
        """(our end, the child's end)"""
        read, write = os.pipe2(os.O_CLOEXEC)
        mine, its = (write, read) if child_reads else (read, write)
        ours.append(mine)
        theirs.append(its)
        return mine, its

    try:
        stdin_pair = pipe(child_reads=True) if stdin else None
        out_pair = pipe(child_reads=False)
        err_pair = pipe(child_reads=False) if stderr_fd is None else None
        child = spawn_guarded(argv, cwd, env, stdin_fd=stdin_pair[1] if stdin_pair else None,
                              stdout_fd=out_pair[1],
                              stderr_fd=err_pair[1] if err_pair else stderr_fd)  # type: ignore[arg-type]
    except BaseException:
        for fd in ours:
            os.close(fd)
        raise
    finally:
        for fd in theirs:
            os.close(fd)
    return PipedProcess(child, stdin_pair[0] if stdin_pair else None, out_pair[0],
                        err_pair[0] if err_pair else None)


def exit_future(child: ChildHandle, loop: asyncio.AbstractEventLoop) -> asyncio.Future[int]:
    """A future on `loop` resolved with the child's return code when it exits."""
    future: asyncio.Future[int] = loop.create_future()

    def exited(returncode: int) -> None:
        try:
            loop.call_soon_threadsafe(lambda: future.done() or future.set_result(returncode))
        except RuntimeError:  # the loop is closed: nobody waits for this exit any more
            pass

    add_callback = getattr(child, "add_exit_callback", None)
    if add_callback is not None:  # the guardian reports exits
        add_callback(exited)
    else:  # started directly (no guardian here): a thread waits for it
        threading.Thread(target=lambda: exited(child.wait()), daemon=True,
                         name=f"wait-{child.pid}").start()
    return future
