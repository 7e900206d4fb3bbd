"""The warm start, on for these tests only: a private runtime directory per test, and every warm
process started in it (by the fixture or by a cold run) stopped at the end."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from claude_harness.cli import WARM_SERVER_COMMAND
from tests.e2e.conftest import api, project  # noqa: F401 - fixtures shared with the e2e tests
from tests.faults.test_no_orphans import MARK, wait_until

BINARY = Path(sys.executable).with_name("claude-harness")


def servers_in(runtime: Path) -> list[int]:
    """Live warm processes whose environment names this runtime directory."""
    needle = f"CLAUDE_HARNESS_RUNTIME_DIR={runtime}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if b"serve_warm" in cmdline and state != b"Z" and needle in environ.split(b"\0"):
            found.append(int(entry))
    return found


@dataclass
class Warm:
    runtime: Path
    stats: Path
    started: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def server_env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != MARK}  # never counted as an orphan
        return {**env, **extra}

    def start(self, **extra: str) -> subprocess.Popen[bytes]:
        """A warm process, ready (its socket is there) when this returns."""
        before = set(self.sockets())
        server = subprocess.Popen(WARM_SERVER_COMMAND, env=self.server_env(**extra),
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, start_new_session=True)
        self.started.append(server)
        assert wait_until(lambda: set(self.sockets()) - before or server.poll() is not None,
                          60), "the warm process did not start"
        assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
        return server

    def sockets(self) -> list[Path]:
        return sorted(self.runtime.glob("*.sock"))

    def run(self, args: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
        """The real program, as a user runs it."""
        self.stats.unlink(missing_ok=True)
        kw.setdefault("capture_output", True)
        return subprocess.run([str(BINARY), *args], text=True, timeout=120, **kw)

    @property
    def was_warm(self) -> bool:
        return self.stats.exists()


@pytest.fixture
def warm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, home: Path) -> Iterator[Warm]:
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    stats = tmp_path / "warm-stats"
    monkeypatch.delenv("CLAUDE_HARNESS_NO_DAEMON", raising=False)
    monkeypatch.setenv("CLAUDE_HARNESS_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("CLAUDE_HARNESS_WARM_STATS", str(stats))
    monkeypatch.setenv("CLAUDE_HARNESS_WARM_IDLE_SECONDS", "120")
    state = Warm(runtime, stats)
    yield state
    for server in state.started:
        if server.poll() is None:
            server.terminate()
        server.wait(timeout=10)
    for pid in servers_in(runtime):  # started by a cold run
        os.kill(pid, signal.SIGTERM)
    assert wait_until(lambda: not servers_in(runtime), 10), "a warm process outlived its test"
