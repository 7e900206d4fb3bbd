"""Start a process under the guardian, in a session of its own, with the pipes the caller made.

Where the guardian cannot run (not Linux, it failed to start), the process is started directly,
as before: it still gets its own session, so a timeout can kill its whole group.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
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
