"""SIGTERM, SIGHUP and SIGINT to each front end during a Bash call, sent for real to the real
program: every command dies at once, the transcript records the call as interrupted, `-p`
prints its result line with the reason and exits 143/129/130, the app and the REPL give the
terminal back as they found it and exit with the same codes. (Ctrl+C in the REPL is its own:
it interrupts the turn and kills the command, and the REPL stays.)"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.faults.test_no_orphans import MARK, marked, wait_until
from tests.plain.tmux_helpers import remove_socket

BINARY = Path(sys.executable).with_name("claude-harness")
INTERRUPTED = "Command was interrupted and killed."


def bash_turns(project: Path) -> list[dict[str, Any]]:
    started = project / "started"
    return [{"content": [{"type": "tool_use", "name": "Bash",
                          "input": {"command": f"touch {started}; sleep 60",
                                    "description": "Wait a minute"}}]},
            {"content": [{"type": "text", "text": "after the interruption"}]}]


def recorded_results(home: Path) -> list[dict[str, Any]]:
    """The tool results the transcript holds."""
    (path,) = (home / ".claude" / "projects").glob("*/*.jsonl")
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    return [b for e in entries if e["type"] == "user"
            for b in e["message"]["content"] if b.get("type") == "tool_result"]


@pytest.fixture
def mark(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Every process the test starts carries this mark; none may be left at the end."""
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK, value)
    yield value
    for pid in marked(value):
        os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129),
                                           (signal.SIGINT, 130)])
def test_print_mode_reports_the_signal_and_exits_with_its_code(
        project: Path, api: Any, home: Path, mark: str, sig: signal.Signals, code: int) -> None:
    api(bash_turns(project))
    harness = subprocess.Popen(
        [sys.executable, "-m", "claude_harness", "-p", "wait", "--output-format", "json",
         "--permission-mode", "bypassPermissions"],
        cwd=project, env=dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    assert wait_until((project / "started").exists, 30), harness.stderr
    harness.send_signal(sig)
    out, err = harness.communicate(timeout=20)
    assert harness.returncode == code, err
    result = json.loads(out)
    assert result["is_error"] and result["subtype"] == "error_during_execution"
    assert result["result"].startswith(f"Stopped by {sig.name}")
    assert wait_until(lambda: not marked(mark), 2.0), f"still alive: {marked(mark)}"
    assert [r["content"] for r in recorded_results(home)] == [INTERRUPTED]


class Pane:
    """The real program in a tmux pane of its own server; after it exits, the pane shows its
    exit status and the terminal's modes (`stty -a`), then waits."""

    def __init__(self, project: Path, env: dict[str, str], args: list[str]) -> None:
        self.socket = f"ch-sig-{uuid.uuid4().hex[:10]}"
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        script = project.parent / f"{self.socket}.sh"
        script.write_text(
            f"#!/bin/sh\ncd {shlex.quote(str(project))}\n"
            f"env {exports} {shlex.quote(str(BINARY))} {' '.join(args)}\n"
            "echo \"[exited $?]\"; stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$'\n"
            "exec sleep 600\n")
        script.chmod(0o755)
        self.tmux("new-session", "-d", "-s", "main", "-x", "110", "-y", "32", str(script))

    def tmux(self, *args: str) -> str:
        env = {k: v for k, v in os.environ.items() if k != MARK}  # only the program is marked
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=10, env={**env, "TMUX": ""}).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "main", "-S", "-200")

    def wait(self, text: str, timeout: float = 40.0) -> str:
        if not wait_until(lambda: text in self.screen(), timeout, 0.1):
            raise AssertionError(f"{text!r} never appeared; screen:\n{self.screen()}")
        return self.screen()

    def close(self) -> None:
        self.tmux("kill-server")
        remove_socket(self.socket)


def harness_pid(mark: str) -> int:
    """The front end's own process (not its guardian, not the commands)."""
    for pid in marked(mark):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(part.endswith(b"claude-harness") for part in cmdline[:2]):
            return pid
    raise AssertionError("the harness is not running")


@pytest.fixture
def pane(project: Path, home: Path, api: Any, mark: str) -> Iterator[Any]:
    if shutil.which("tmux") is None or not BINARY.exists():
        pytest.skip("needs tmux and the installed claude-harness")
    from claude_harness.config.trust import trust_folder

    panes: list[Pane] = []

    def start(*args: str, turns: list[dict[str, Any]] | None = None) -> Pane:
        server = api(turns or bash_turns(project))
        trust_folder(home / "data", project.resolve())
        env = {k: os.environ[k] for k in ("HOME", "CLAUDE_CONFIG_DIR", "CLAUDE_HARNESS_DATA_DIR",
                                          "CLAUDE_HARNESS_NO_DAEMON",  # no warm process left behind
                                          "CLAUDE_HARNESS_MANAGED_SETTINGS", MARK)}
        env.update(TERM="xterm-256color", ANTHROPIC_BASE_URL=server.url,
                   ANTHROPIC_API_KEY="test-key")
        panes.append(Pane(project, env, ["--permission-mode", "bypassPermissions", *args]))
        return panes[-1]

    yield start
    for one in panes:
        one.close()


def run_the_bash_call(terminal: Pane, project: Path, prompt_mark: str) -> None:
    terminal.wait(prompt_mark)
    terminal.tmux("send-keys", "-t", "main", "-l", "wait")
    terminal.tmux("send-keys", "-t", "main", "Enter")
    assert wait_until((project / "started").exists, 40), terminal.screen()


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129),
                                           (signal.SIGINT, 130)])
def test_the_app_restores_the_terminal_and_exits(pane: Any, project: Path, home: Path,
                                                 mark: str, sig: signal.Signals,
                                                 code: int) -> None:
    terminal = pane()
    run_the_bash_call(terminal, project, "bypass")
    assert terminal.tmux("display", "-p", "-t", "main", "#{alternate_on}").strip() == "1"
    os.kill(harness_pid(mark), sig)
    screen = terminal.wait("[exited ")
    assert f"[exited {code}]" in screen
    assert "-icanon" not in screen and "-echo" not in screen.split("[exited", 1)[1]
    assert terminal.tmux("display", "-p", "-t", "main", "#{alternate_on}").strip() == "0"
    assert wait_until(lambda: not marked(mark), 2.0), f"still alive: {marked(mark)}"
    assert [r["content"] for r in recorded_results(home)] == [INTERRUPTED]


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_the_repl_restores_the_terminal_and_exits(pane: Any, project: Path, home: Path,
                                                  mark: str, sig: signal.Signals,
                                                  code: int) -> None:
    terminal = pane("--plain")
    run_the_bash_call(terminal, project, "twice to exit")
    os.kill(harness_pid(mark), sig)
    screen = terminal.wait("[exited ")
    assert f"[exited {code}]" in screen
    modes = screen.split("[exited", 1)[1]
    assert "-icanon" not in modes and "-echo" not in modes
    assert wait_until(lambda: not marked(mark), 2.0), f"still alive: {marked(mark)}"
    assert [r["content"] for r in recorded_results(home)] == [INTERRUPTED]


def test_ctrl_c_in_the_repl_interrupts_the_call_and_the_repl_stays(
        pane: Any, project: Path, home: Path, mark: str) -> None:
    terminal = pane("--plain")
    run_the_bash_call(terminal, project, "twice to exit")
    harness = harness_pid(mark)
    os.kill(harness, signal.SIGINT)
    terminal.wait("Interrupted")
    assert wait_until(lambda: set(marked(mark)) <= {harness, *guardians(mark)}, 3.0), (
        f"still alive: {marked(mark)}")
    assert "[exited" not in terminal.screen()
    assert [r["content"] for r in recorded_results(home)] == [INTERRUPTED]


def guardians(mark: str) -> list[int]:
    """The guardian lives as long as the harness does (it is not a command)."""
    found = []
    for pid in marked(mark):
        try:
            if b"guardian" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            pass
    return found


@pytest.mark.parametrize("args", [(), ("--plain",)], ids=["app", "repl"])
def test_closing_the_terminal_mid_turn_ends_the_front_end(pane: Any, project: Path,
                                                          mark: str, args: tuple[str, ...]) -> None:
    """The terminal itself goes away (its window closed): the kernel's hangup, writes that now
    fail and a keyboard that reads nothing but end-of-file. Nothing of ours stays behind,
    waiting or spinning."""
    terminal = pane(*args)
    run_the_bash_call(terminal, project, "twice to exit" if args else "bypass")
    terminal.close()
    assert wait_until(lambda: not marked(mark), 10.0), f"still alive: {marked(mark)}"



def test_a_terminal_that_stops_reading_then_closes_does_not_hold_the_app(
        project: Path, home: Path, api: Any, mark: str) -> None:
    """A window that stops reading (its emulator hung, a loaded machine) and then closes while
    a command's output pours into the app: the pty's buffer fills, Textual's writer thread is
    blocked in a write with its queue full, the close makes that write fail (EIO) and ends the
    thread, and every write of the shutdown waits on the full queue for ever. The app still
    exits with SIGHUP's code, once the grace period of its signal handling is over. (That
    hang was seen twice under load, a test's app and a benchmark's left running; its timing
    does not come on demand here, so the grace exit itself is proven by
    test_no_orphans.py's stuck front end, and this proves the way out stays open.)"""
    if not BINARY.exists():
        pytest.skip("needs the installed claude-harness")
    from claude_harness.config.trust import trust_folder

    started = project / "started"
    server = api([{"content": [{"type": "tool_use", "name": "Bash", "input": {
        "command": f"touch {started}; while :; do echo streaming line $RANDOM; done",
        "description": "Stream output"}}]}, {"content": [{"type": "text", "text": "after"}]}])
    trust_folder(home / "data", project.resolve())
    env = {**os.environ, "TERM": "xterm-256color", "ANTHROPIC_BASE_URL": server.url,
           "ANTHROPIC_API_KEY": "test-key", "COLUMNS": "110", "LINES": "32"}
    pid, master = pty.fork()
    if pid == 0:  # the child: a session leader whose controlling terminal is the pty
        os.chdir(project)
        os.execve(BINARY, [str(BINARY), "--permission-mode", "bypassPermissions"], env)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 110, 0, 0))
    try:
        seen = b""
        while b"bypass" not in seen:
            ready, _, _ = select.select([master], [], [], 40)
            assert ready, f"no prompt; screen so far: {seen[-2000:]!r}"
            seen += os.read(master, 65536)
        os.write(master, b"wait")
        time.sleep(0.3)
        os.write(master, b"\r")
        assert wait_until(started.exists, 40)
        time.sleep(3.0)  # nobody reads: the app's frames fill the pty and its writer's queue
    finally:
        os.close(master)  # the window closes: hangup
    statuses: list[int] = []

    def ended() -> bool:
        done, status = os.waitpid(pid, os.WNOHANG)
        statuses.append(status)
        return done == pid

    assert wait_until(ended, 20.0), "the app stayed after its terminal closed"
    assert os.waitstatus_to_exitcode(statuses[-1]) == 129
