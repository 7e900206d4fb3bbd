"""Fixtures every test folder may use. A folder's own conftest may override them."""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

_PYTEST_PID = os.getpid()
_real_exit = os._exit


def _exit_guard(code: int) -> None:
    """The product may end its own process with os._exit (a signal, a hung teardown); in the
    test process that would end the whole run, with status 0, in silence. Here it is a loud
    failure instead (a forked child still exits for real)."""
    if os.getpid() != _PYTEST_PID:
        _real_exit(code)
    sys.stderr.write(f"\nos._exit({code}) was called in the pytest process\n")
    raise RuntimeError(f"os._exit({code}) called in the test process")


os._exit = _exit_guard  # type: ignore[assignment]

# The suite never changes its host. A test that set the clock or the hostname (as `date -s` in a
# sandbox that kept root's capabilities once did) fails the whole run here, loudly, instead of
# leaving a machine with the wrong time behind. The wall clock is compared with the boot clock,
# which counts suspend too (a laptop sleeping mid-run is not a clock change); NTP slews far less
# than the limit.
CLOCK_STEP_LIMIT_S = 5.0
_STEADY_CLOCK = getattr(time, "CLOCK_BOOTTIME", time.CLOCK_MONOTONIC)


def _wall_minus_steady() -> float:
    return time.time() - time.clock_gettime(_STEADY_CLOCK)


@pytest.fixture(scope="session", autouse=True)
def _the_host_is_left_as_it_was() -> Iterator[None]:
    offset, hostname = _wall_minus_steady(), socket.gethostname()
    yield
    problems = []
    step = _wall_minus_steady() - offset
    if abs(step) > CLOCK_STEP_LIMIT_S:
        problems.append(f"the wall clock was set {step:+.1f} s against the steady clock")
    if socket.gethostname() != hostname:
        problems.append(f"the hostname changed from {hostname!r} to {socket.gethostname()!r}")
    if problems:
        pytest.fail("The test run changed its host: " + "; ".join(problems)
                    + ". A test (or something it ran outside the sandbox) did it.", pytrace=False)
# The warm start (claude_harness/warm/) is off for the whole suite: no test may leave a warm
# process behind or be served by one started elsewhere. tests/warm/ turns it on, each test with
# a private runtime directory, and stops what it started.
os.environ["CLAUDE_HARNESS_NO_DAEMON"] = "1"
# What the product caches between runs (bashlex's parser tables) goes to a directory of the
# run's own, never the user's ~/.cache.
if "CLAUDE_HARNESS_CACHE_DIR" not in os.environ:
    _CACHE_DIR = tempfile.mkdtemp(prefix="claude-harness-cache-")
    os.environ["CLAUDE_HARNESS_CACHE_DIR"] = _CACHE_DIR
    atexit.register(lambda: os.getpid() == _PYTEST_PID
                    and shutil.rmtree(_CACHE_DIR, ignore_errors=True))


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME, config and data dirs inside tmp_path; no inherited API settings, fast retries.

    Nothing a test runs may read or write the real home directory or reach a real API."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    monkeypatch.setenv("CLAUDE_HARNESS_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("CLAUDE_HARNESS_MANAGED_SETTINGS", str(home / "no-managed.json"))
    monkeypatch.setenv("CLAUDE_HARNESS_RETRY_BASE_DELAY", "0.05")
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL",
                "ANTHROPIC_MODEL"):
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture(autouse=True)
def _process_settings_as_at_start() -> Iterator[None]:
    """bootstrap sets a few per-process values from the settings (where approved plans are
    saved, whether searches honour .gitignore); a test that builds a session in-process must
    not hand its values to the tests after it."""
    yield
    from claude_harness.tools.grep.ignore_files import configure as configure_ignore_files
    from claude_harness.tools.plan_mode.plan_files import configure as configure_plans

    configure_plans(None)
    configure_ignore_files(respect_gitignore=True)


def _warm_servers_under(folder: Path) -> list[int]:
    """Warm processes (claude_harness/warm/) whose HOME lies in this run's temp folders."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            environ = Path(f"/proc/{entry}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        homes = [v[5:] for v in environ if v.startswith(b"HOME=")]
        if b"serve_warm" in cmdline and any(h.startswith(bytes(folder)) for h in homes):
            found.append(int(entry))
    return found


@pytest.fixture(scope="session", autouse=True)
def _no_warm_process_left_behind(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A test whose child environment drops CLAUDE_HARNESS_NO_DAEMON starts a real warm
    process from its `-p` run; the run fails here, names it and stops it."""
    yield
    if not sys.platform.startswith("linux"):
        return
    left = _warm_servers_under(tmp_path_factory.getbasetemp())
    for pid in left:
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    if left:
        pytest.fail(f"warm processes left behind by the tests: {left} (a test's environment "
                    "dropped CLAUDE_HARNESS_NO_DAEMON)", pytrace=False)
