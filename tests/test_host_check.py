"""The suite's own guard (tests/conftest.py): a run that changes its host's clock or hostname
ends in failure, even when every test passed. Shown on a throwaway run whose only test fakes the
change (the clock and the name the check reads, never the machine's)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _run_inner(folder: Path) -> subprocess.CompletedProcess[str]:
    """pytest on `folder`'s test_inner.py with only the suite's conftest as a plugin."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
         "--rootdir", str(folder), "-c", "/dev/null", str(folder / "test_inner.py")],
        cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})


@pytest.mark.parametrize(("faked", "message"), [
    ("time.time = lambda real=time.time: real() + 3600", "the wall clock was set +3600"),
    ("socket.gethostname = lambda: 'elsewhere'", "the hostname changed from"),
])
def test_a_run_that_changes_its_host_fails(tmp_path: Path, faked: str, message: str) -> None:
    (tmp_path / "test_inner.py").write_text(
        f"import socket\nimport time\n\n\ndef test_passes():\n    {faked}\n")
    done = _run_inner(tmp_path)
    assert done.returncode != 0
    assert "1 passed" in done.stdout and "The test run changed its host" in done.stdout
    assert message in done.stdout


def test_a_run_that_leaves_its_host_alone_passes(tmp_path: Path) -> None:
    (tmp_path / "test_inner.py").write_text("def test_passes():\n    pass\n")
    done = _run_inner(tmp_path)
    assert done.returncode == 0, done.stdout
