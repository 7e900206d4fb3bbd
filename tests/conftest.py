"""Fixtures every test folder may use. A folder's own conftest may override them."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
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
