"""Every command a person configures runs under the process guardian: the status line command
and `apiKeyHelper` die with the harness, even after `kill -9`, and a helper's timeout kills its
whole process group, grandchildren included. Real binaries, real shells, real signals."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.config.api_key_helper import run_helper
from tests.faults.binary_pane import BinaryPane
from tests.faults.test_no_orphans import MARK, marked, wait_until

BINARY = Path(sys.executable).with_name("claude-harness")
# Writes the shell's pid and a grandchild's (a subshell running sleep), then waits forever.
HANGS = ("sh -c 'echo $$ > {dir}/grandchild; exec sleep 1000' & "
         "echo $$ > {dir}/shell; cat >/dev/null; sleep 1000")


def running(pid: int) -> bool:
    """Alive and not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


def started_pids(folder: Path, timeout: float = 30.0) -> list[int]:
    """The pids HANGS wrote: the shell's and its grandchild's (both sleep for 1000 s)."""
    files = [folder / "shell", folder / "grandchild"]
    assert wait_until(lambda: all(f.exists() and f.read_text().strip() for f in files), timeout)
    return [int(f.read_text()) for f in files]


def kill_left_over(pids: list[int]) -> None:
    for pid in pids:
        if running(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def mark(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK, value)
    yield value
    for pid in marked(value):
        os.kill(pid, signal.SIGKILL)


def test_a_helper_past_its_timeout_has_its_whole_group_killed(tmp_path: Path) -> None:
    started = time.monotonic()
    key, problem = run_helper(HANGS.format(dir=tmp_path), tmp_path, timeout_s=1.0)
    assert key is None and problem is not None and "timed out after 1s" in problem
    assert time.monotonic() - started < 5
    pids = started_pids(tmp_path, timeout=1)
    try:
        assert wait_until(lambda: not any(running(p) for p in pids), 2.0)
    finally:
        kill_left_over(pids)


def test_a_helper_still_gives_its_key_and_reasons(tmp_path: Path) -> None:
    assert run_helper("echo '  the-key  '", tmp_path) == ("the-key", None)
    key, problem = run_helper("echo nope >&2; exit 3", tmp_path)
    assert key is None and problem == "apiKeyHelper exited with 3; no API key from it (nope)"
    assert run_helper("true", tmp_path)[1] == "apiKeyHelper printed nothing; no API key from it"
    # A background child holding the output pipe open does not hold start-up past the grace.
    began = time.monotonic()
    assert run_helper("sleep 30 & echo k", tmp_path) == ("k", None)
    assert time.monotonic() - began < 3


def test_kill_9_during_the_api_key_helper_kills_it(tmp_path: Path, project: Path, home: Path,
                                                   api: Any, mark: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    api([{"content": [{"type": "text", "text": "never reached"}]}])
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"apiKeyHelper": HANGS.format(dir=tmp_path)}))
    harness = subprocess.Popen([str(BINARY), "-p", "hi"], cwd=project, env=dict(os.environ),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    pids: list[int] = []
    try:
        pids = started_pids(tmp_path)
        assert all(running(p) for p in pids)
        harness.kill()
        harness.wait()
        assert wait_until(lambda: not any(running(p) for p in pids), 1.5), (
            f"still alive: {[p for p in pids if running(p)]}")
    finally:
        harness.kill()
        kill_left_over(pids)


@pytest.mark.skipif(shutil.which("tmux") is None or not BINARY.exists(),
                    reason="needs tmux and the installed claude-harness")
def test_kill_9_of_the_app_kills_its_status_line_command(tmp_path: Path, project: Path,
                                                         home: Path, api: Any,
                                                         mark: str) -> None:
    server = api([{"content": [{"type": "text", "text": "hello"}]}])
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"statusLine": {"type": "command",
                                                   "command": HANGS.format(dir=tmp_path)}}))
    env = {k: os.environ[k] for k in ("HOME", "CLAUDE_CONFIG_DIR", "CLAUDE_HARNESS_DATA_DIR",
                                      "CLAUDE_HARNESS_NO_DAEMON",  # no warm process left behind
                                      "CLAUDE_HARNESS_MANAGED_SETTINGS", MARK)}
    env.update(ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="test-key")
    pane = BinaryPane(project, env, [str(BINARY), "--trust-workspace"], tmp_path)
    pids: list[int] = []
    try:
        pane.wait("/help for commands")
        pids = started_pids(tmp_path)  # the status line runs once the session has started
        assert all(running(p) for p in pids)
        harness = [p for p in marked(mark) if _is_front_end(p)]
        assert len(harness) == 1, harness
        os.kill(harness[0], signal.SIGKILL)
        # Well within the status line's own 5 s timeout: the guardian killed them.
        assert wait_until(lambda: not any(running(p) for p in pids), 1.5), (
            f"still alive: {[p for p in pids if running(p)]}")
    finally:
        pane.close()
        kill_left_over(pids)


def _is_front_end(pid: int) -> bool:
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return any(part.endswith(b"claude-harness") for part in argv[:2])
