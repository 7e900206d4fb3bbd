"""Nothing left running: every command dies with the harness, even by `kill -9`, including the
children that left its process group (`setsid`), and SIGTERM/SIGHUP/SIGINT kill the commands
before the front end exits with 143/129/130.

Processes are found by a marker in their environment, which every descendant of a command
inherits from the harness, so nothing escapes the count by renaming itself.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from claude_harness.guardian import client as guardian
from claude_harness.tools.bash.capture import StreamCapture
from claude_harness.tools.bash.process import ShellProcess, kill_all_running

MARK = "CH_ORPHAN_MARK"


def marked(mark: str) -> list[int]:
    """Live (non-zombie) processes whose environment carries MARK=mark (not this test process,
    nor its own guardian, which lives as long as the test process does)."""
    needle = f"{MARK}={mark}".encode()
    keeper = guardian.current()
    ours = {os.getpid(), keeper.pid if keeper is not None else -1}
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in ours:
            continue
        try:
            state = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
            environ = Path(f"/proc/{entry}/environ").read_bytes()
        except OSError:
            continue
        if state != b"Z" and needle in environ.split(b"\0"):
            found.append(int(entry))
    return found


def wait_until(check: Any, timeout: float, interval: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(interval)
    return bool(check())


def size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


def writer(path: Path) -> str:
    """A shell loop appending to `path` every 20 ms."""
    return f"while true; do echo tick >> {path}; sleep 0.02; done"


def assert_stopped_growing(*paths: Path) -> None:
    before = [size(p) for p in paths]
    time.sleep(0.3)
    assert [size(p) for p in paths] == before, "a left-behind process is still writing"


def test_kill_9_of_the_harness_kills_every_process_of_its_commands(
    project: Path, api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    bg_file, fg_file, escaped_file = (project / n for n in ("bg.log", "fg.log", "escaped.log"))
    background = f"({writer(bg_file)}) & sleep 100"
    foreground = (f"({writer(fg_file)}) & setsid sh -c '{writer(escaped_file)}' & "
                  "nohup sleep 100 >/dev/null 2>&1 & sleep 100")
    api([
        {"content": [{"type": "tool_use", "name": "Bash",
                      "input": {"command": background, "run_in_background": True}}]},
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": foreground}}]},
        {"content": [{"type": "text", "text": "never reached"}]},
    ])
    harness = subprocess.Popen(
        [sys.executable, "-m", "claude_harness", "-p", "run them",
         "--permission-mode", "bypassPermissions"],
        cwd=project, env=dict(os.environ), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        files = (bg_file, fg_file, escaped_file)
        assert wait_until(lambda: all(size(f) > 0 for f in files), 30), (
            harness.stderr.read().decode() if harness.poll() is not None else "not started")
        assert len(marked(mark)) >= 6  # harness, guardian, shells, writers, sleeps

        harness.kill()  # SIGKILL: the harness can do nothing about it
        harness.wait()
        killed_at = time.monotonic()
        assert wait_until(lambda: not marked(mark), 1.0), f"still alive: {marked(mark)}"
        assert time.monotonic() - killed_at < 1.0
        assert_stopped_growing(*files)
    finally:
        for pid in marked(mark):
            os.kill(pid, signal.SIGKILL)


def test_kill_all_running_reaches_children_that_left_the_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    escaped = tmp_path / "escaped.log"
    proc = ShellProcess(f"setsid sh -c '{writer(escaped)}' & sleep 100", tmp_path,
                        StreamCapture(), StreamCapture(), drain_seconds=None)
    assert wait_until(lambda: size(escaped) > 0, 10)
    kill_all_running()
    assert wait_until(lambda: not marked(mark), 1.0), f"still alive: {marked(mark)}"
    assert proc.wait_finished(5) and proc.returncode == -signal.SIGKILL
    assert_stopped_growing(escaped)


def test_a_guardian_that_is_terminated_takes_the_commands_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    keeper = guardian.start_guarded()
    assert keeper is not None, guardian.unavailable_reason()
    log = tmp_path / "log"
    proc = ShellProcess(f"({writer(log)}) & sleep 100", tmp_path, StreamCapture(),
                        StreamCapture(), drain_seconds=None)
    assert wait_until(lambda: size(log) > 0, 10)
    os.kill(keeper.pid, signal.SIGTERM)
    assert wait_until(lambda: not marked(mark), 2.0), f"still alive: {marked(mark)}"
    assert proc.wait_finished(5) and proc.returncode is not None
    replacement = guardian.start_guarded()  # the next command gets a fresh guardian
    assert replacement is not None and replacement.pid != keeper.pid
    echo = ShellProcess("echo again", tmp_path, StreamCapture(), StreamCapture())
    assert echo.wait_finished(5) and echo.stdout.snapshot().head == "again\n"


FRONT_END = textwrap.dedent("""
    import signal, sys, time
    from pathlib import Path
    from claude_harness.frontends.shared.shutdown import ShutdownSignals, exit_code_for
    from claude_harness.tools.bash.capture import StreamCapture
    from claude_harness.tools.bash.process import ShellProcess

    def finish(sig):
        print(f"result: interrupted by {sig.name}", flush=True)
        sys.exit(exit_code_for(sig))

    ShutdownSignals(finish).install()
    ShellProcess(sys.argv[1], Path.cwd(), StreamCapture(), StreamCapture(), drain_seconds=None)
    print("running", flush=True)
    while True:
        time.sleep(0.05)
""")


STUCK_FRONT_END = textwrap.dedent("""
    import sys, threading, time
    from claude_harness.frontends.shared.shutdown import ShutdownSignals

    def finish(sig):
        print(f"stuck after {sig.name}", flush=True)
        threading.Event().wait()  # a shutdown that never ends (a write to a closed terminal)

    ShutdownSignals(finish, grace=float(sys.argv[1])).install()
    print("running", flush=True)
    while True:
        time.sleep(0.05)
""")


def test_a_front_end_stuck_in_its_shutdown_still_exits_with_the_signals_code(
        tmp_path: Path) -> None:
    front = subprocess.Popen([sys.executable, "-c", STUCK_FRONT_END, "1.0"], cwd=tmp_path,
                             stdout=subprocess.PIPE, text=True)
    assert front.stdout is not None and front.stdout.readline() == "running\n"
    front.send_signal(signal.SIGHUP)
    assert front.stdout.readline() == "stuck after SIGHUP\n"
    try:
        assert front.wait(timeout=30) == 129
    finally:
        front.kill()


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129),
                                           (signal.SIGINT, 130)])
def test_a_signal_kills_the_commands_first_then_the_front_end_exits_with_its_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sig: signal.Signals, code: int
) -> None:
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    log = tmp_path / "log"
    front = subprocess.Popen(
        [sys.executable, "-c", FRONT_END, f"({writer(log)}) & sleep 100"], cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path.cwd())}, stdout=subprocess.PIPE, text=True,
    )
    assert front.stdout is not None
    assert front.stdout.readline() == "running\n"
    assert wait_until(lambda: size(log) > 0, 10)
    front.send_signal(sig)
    assert front.wait(10) == code
    assert front.stdout.read() == f"result: interrupted by {sig.name}\n"
    assert wait_until(lambda: not marked(mark), 1.0), f"still alive: {marked(mark)}"
    assert_stopped_growing(log)


def _crash_mid_run(project: Path, args: list[str], ready: Any, mark: str) -> None:
    """Start the real harness, wait until `ready()`, `kill -9` it: nothing marked may survive."""
    harness = subprocess.Popen([sys.executable, "-m", "claude_harness", *args], cwd=project,
                               env=dict(os.environ), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    try:
        assert wait_until(ready, 40), (
            harness.stderr.read().decode() if harness.poll() is not None else "not ready")
        harness.kill()
        harness.wait()
        assert wait_until(lambda: not marked(mark), 1.0), f"still alive: {marked(mark)}"
    finally:
        for pid in marked(mark):
            os.kill(pid, signal.SIGKILL)


def test_kill_9_of_the_harness_kills_a_running_hook_and_what_it_started(
    project: Path, api: Any, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    log, started = project / "hook.log", project / "hook-started"
    hook = f"({writer(log)}) & touch {started}; sleep 60"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": hook}]}]}}))
    api([{"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "echo hi"}}]},
         {"content": [{"type": "text", "text": "never reached"}]}])
    _crash_mid_run(project, ["-p", "go", "--permission-mode", "bypassPermissions"],
                   lambda: started.exists() and size(log) > 0, mark)
    assert_stopped_growing(log)


def test_kill_9_of_the_harness_kills_an_mcp_stdio_server_and_its_children(
    project: Path, api: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    log = project / "server.log"
    demo = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"srv": {
        "type": "stdio", "command": "sh",
        "args": ["-c", f"({writer(log)}) & exec {sys.executable} {demo} srv"]}}}))
    api([{"content": [{"type": "text", "text": "slow answer"}], "delay": 30}])
    _crash_mid_run(project, ["-p", "go", "--mcp-config", str(config)], lambda: size(log) > 0,
                   mark)
    assert_stopped_growing(log)


def test_kill_9_of_the_harness_kills_a_bang_command(
    project: Path, api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`!cmd` typed in the REPL runs under the guardian too."""
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    log = project / "bang.log"
    api([{"content": [{"type": "text", "text": "unused"}]}])
    harness = subprocess.Popen(
        [sys.executable, "-m", "claude_harness", "--plain", "--trust-workspace"], cwd=project,
        env={**os.environ, "TERM": "dumb"}, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    assert harness.stdin is not None
    try:
        harness.stdin.write(f"!({writer(log)}) & sleep 60\n".encode())
        harness.stdin.flush()
        assert wait_until(lambda: size(log) > 0, 40)
        harness.kill()
        harness.wait()
        assert wait_until(lambda: not marked(mark), 1.0), f"still alive: {marked(mark)}"
        assert_stopped_growing(log)
    finally:
        for pid in marked(mark):
            os.kill(pid, signal.SIGKILL)
