"""Run a configured command to completion under the guardian and capture its output (blocking).

For commands the harness waits for before it can go on (`apiKeyHelper` at start-up): like
`subprocess.run(..., capture_output=True, timeout=...)`, but the command is the guardian's child
(it dies with the harness, even after a `kill -9`), it leads a session of its own (a timeout
kills its whole process group, grandchildren included, not just `/bin/sh`), and a background
child that keeps the pipes open cannot hold us past a short grace once the command has exited.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from claude_harness.guardian.spawn import ChildHandle, kill_group, spawn_piped

CAPTURE_LIMIT_BYTES = 256 * 1024
PIPE_GRACE_S = 0.5  # how long to wait for EOF once the command itself has exited
KILL_WAIT_S = 5.0  # for the exit of a command killed at its deadline


@dataclass(frozen=True)
class Completed:
    """What the command did; `returncode` is None when it timed out (and was killed)."""

    returncode: int | None
    stdout: bytes
    stderr: bytes
    timed_out: bool = False


def run_captured(argv: Sequence[str], cwd: Path, env: Mapping[str, str], timeout_s: float,
                 capture_limit: int = CAPTURE_LIMIT_BYTES) -> Completed:
    """Run `argv` (argv[0] an absolute path) with stdin from /dev/null; raises OSError when it
    cannot start."""
    process = spawn_piped(argv, cwd, env, stdin=False)
    assert process.stderr is not None
    deadline = time.monotonic() + timeout_s
    kept: dict[int, bytearray] = {process.stdout: bytearray(), process.stderr: bytearray()}
    try:
        _drain(process.child, kept, deadline, capture_limit)
    finally:
        for fd in kept:
            os.close(fd)
    out, err = bytes(kept[process.stdout]), bytes(kept[process.stderr])
    try:  # the pipes are closed (or the deadline passed): it has exited, or it gets the rest
        code = process.child.wait(max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        kill_group(process.child.pid)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.child.wait(KILL_WAIT_S)
        return Completed(None, out, err, timed_out=True)
    return Completed(code, out, err)


def _drain(child: ChildHandle, kept: dict[int, bytearray], deadline: float, limit: int) -> None:
    """Read both pipes until EOF, the deadline, or a grace after the command exited."""
    selector = selectors.DefaultSelector()
    for fd in kept:
        selector.register(fd, selectors.EVENT_READ)
    exited_at: float | None = None
    try:
        while selector.get_map():
            now = time.monotonic()
            if exited_at is None and child.poll() is not None:
                exited_at = now
            stop = deadline if exited_at is None else min(deadline, exited_at + PIPE_GRACE_S)
            if now >= stop:
                return
            for key, _ in selector.select(timeout=min(stop - now, 0.05)):
                chunk = os.read(key.fd, 65_536)
                if not chunk:
                    selector.unregister(key.fd)
                    continue
                buffer = kept[key.fd]
                buffer += chunk[: max(0, limit - len(buffer))]
    finally:
        selector.close()
