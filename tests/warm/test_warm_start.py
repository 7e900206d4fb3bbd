"""The warm start, for real: the installed program hands `-p` runs to a warm process over its
unix socket, and a user sees exactly what a cold run shows (output, exit codes, signals,
stdin, working directory, environment), or the run is cold whenever anything is off."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.warm import place, wire
from tests.faults.test_no_orphans import MARK, marked, wait_until
from tests.faults.test_signals_front_ends import bash_turns
from tests.warm.conftest import BINARY, Warm, servers_in

DONE = [{"content": [{"type": "text", "text": "Done."}]}]


def bash_then_done(command: str) -> list[dict[str, Any]]:
    return [{"content": [{"type": "tool_use", "name": "Bash", "input": {"command": command}}]},
            *DONE]


def tool_results(server: Any) -> list[str]:
    return [block["content"] if isinstance(block["content"], str)
            else "".join(part.get("text", "") for part in block["content"])
            for request in server.requests for message in request["messages"]
            if isinstance(message["content"], list)
            for block in message["content"] if block.get("type") == "tool_result"]


@pytest.fixture
def mark(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK, value)
    yield value
    for pid in marked(value):
        os.kill(pid, signal.SIGKILL)


def accepts_connections(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        try:
            sock.connect(str(path))
        except OSError:
            return False
    return True


def comparable(line: dict[str, Any]) -> dict[str, Any]:
    """A stream-json line without what differs from run to run (ids, timings)."""
    return {k: v for k, v in line.items()
            if k not in ("session_id", "uuid", "duration_ms", "duration_api_ms")}


def test_print_output_is_the_same_warm_and_cold(warm: Warm, project: Path, api: Any) -> None:
    args = ["-p", "list", "--output-format", "stream-json", "--verbose",
            "--permission-mode", "bypassPermissions"]
    api(bash_then_done("ls src"))
    cold = warm.run(args, env={**os.environ, "CLAUDE_HARNESS_NO_DAEMON": "1"})
    assert not warm.was_warm
    warm.start()
    api(bash_then_done("ls src"))
    hot = warm.run(args)
    assert warm.was_warm, hot.stderr
    assert (hot.returncode, hot.stderr) == (cold.returncode, cold.stderr) == (0, "")
    cold_lines = [comparable(json.loads(line)) for line in cold.stdout.splitlines()]
    hot_lines = [comparable(json.loads(line)) for line in hot.stdout.splitlines()]
    assert [line["type"] for line in hot_lines] == [line["type"] for line in cold_lines]
    assert hot_lines[1:] == cold_lines[1:]  # the init line names the session's own paths
    assert json.loads(hot.stdout.splitlines()[-1])["result"] == "Done."


def test_a_cold_run_starts_the_warm_process_for_the_next(warm: Warm, project: Path,
                                                         api: Any) -> None:
    api(DONE)
    first = warm.run(["-p", "hi"])
    assert (first.returncode, first.stdout, warm.was_warm) == (0, "Done.\n", False)
    assert wait_until(warm.sockets, 60), "no warm process after the first run"
    api(DONE)
    second = warm.run(["-p", "hi"])
    assert (second.returncode, second.stdout, warm.was_warm) == (0, "Done.\n", True)


def test_piped_stdin_cwd_and_environment_are_the_clients(warm: Warm, project: Path,
                                                         api: Any, tmp_path: Path) -> None:
    warm.start()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    server = api(bash_then_done("pwd; echo \"$WARM_PROBE\"; echo ~"))
    run = warm.run(["-p", "answer this:", "--permission-mode", "bypassPermissions"],
                   input="the piped question\n", cwd=elsewhere,
                   env={**os.environ, "WARM_PROBE": "from-the-client"})
    assert (run.returncode, run.stdout, warm.was_warm) == (0, "Done.\n", True), run.stderr
    first_prompt = server.requests[0]["messages"][0]["content"]
    text = first_prompt if isinstance(first_prompt, str) else json.dumps(first_prompt)
    assert "answer this:" in text and "the piped question" in text
    (result,) = tool_results(server)
    assert result.split("\n")[:3] == [str(elsewhere), "from-the-client", os.environ["HOME"]]


def test_exit_status_of_a_failed_run(warm: Warm, project: Path, api: Any) -> None:
    warm.start()
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    run = warm.run(["-p", "hi"], env=env)
    assert warm.was_warm
    assert run.returncode == 1
    assert "ANTHROPIC_API_KEY" in run.stderr, run.stderr


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129),
                                           (signal.SIGINT, 130)])
def test_signals_reach_the_run_and_its_exit_code_comes_back(
        warm: Warm, project: Path, api: Any, mark: str, sig: signal.Signals, code: int) -> None:
    warm.start()
    api(bash_turns(project))
    client = subprocess.Popen([str(BINARY), "-p", "wait", "--output-format", "json",
                               "--permission-mode", "bypassPermissions"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert wait_until((project / "started").exists, 30)
    client.send_signal(sig)
    out, err = client.communicate(timeout=20)
    assert client.returncode == code, err
    assert json.loads(out)["result"].startswith(f"Stopped by {sig.name}")
    assert warm.was_warm
    assert wait_until(lambda: not marked(mark), 5), f"still alive: {marked(mark)}"


def test_kill_9_of_the_client_ends_the_run_and_its_commands(warm: Warm, project: Path,
                                                            api: Any, mark: str) -> None:
    warm.start()
    api(bash_turns(project))
    client = subprocess.Popen([str(BINARY), "-p", "wait", "--permission-mode",
                               "bypassPermissions"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    assert wait_until((project / "started").exists, 30)
    assert len(marked(mark)) >= 3  # the client, its warm child, the command (and its guardian)
    client.kill()
    client.wait()
    assert wait_until(lambda: not marked(mark), 5), f"still alive: {marked(mark)}"
    assert servers_in(warm.runtime), "the warm process itself stays"


def test_another_install_key_is_served_cold(warm: Warm, project: Path, api: Any) -> None:
    """A warm process of other code (here: other interpreter settings) is never used, and one
    asked with another key declines."""
    warm.start(PYTHONWARNINGS="ignore::DeprecationWarning")
    (path,) = warm.sockets()
    api(DONE)
    run = warm.run(["-p", "hi"])
    assert (run.returncode, run.stdout, warm.was_warm) == (0, "Done.\n", False)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(str(path))
        devnull = os.open(os.devnull, os.O_RDWR)
        try:
            wire.send_request(sock, {"key": "0.0.0-other", "argv": ["x", "-p", "hi"],
                                     "env": dict(os.environ)}, [devnull] * 3 + [devnull])
        finally:
            os.close(devnull)
        assert wire.LineReader(sock).next() == {"cold": "another version"}


@pytest.mark.parametrize("problem", ["group-readable", "foreign-owner"])
def test_a_runtime_directory_not_ours_alone_means_cold(warm: Warm, project: Path, api: Any,
                                                        problem: str) -> None:
    if problem == "group-readable":
        warm.runtime.chmod(0o750)
    else:
        os.chown(warm.runtime, 65534, 65534)
    assert place.runtime_dir(create=True) is None
    for _ in range(2):
        api(DONE)
        run = warm.run(["-p", "hi"])
        assert (run.returncode, run.stdout, warm.was_warm) == (0, "Done.\n", False)
    assert not warm.sockets() and not servers_in(warm.runtime)


def test_the_warm_process_exits_when_idle(warm: Warm) -> None:
    server = warm.start(CLAUDE_HARNESS_WARM_IDLE_SECONDS="1")
    assert server.wait(timeout=60) == 0
    assert not warm.sockets()


def test_off_by_environment_and_by_setting(warm: Warm, project: Path, api: Any,
                                           home: Path) -> None:
    warm.start()
    api(DONE)
    run = warm.run(["-p", "hi"], env={**os.environ, "CLAUDE_HARNESS_NO_DAEMON": "1"})
    assert (run.returncode, run.stdout, warm.was_warm) == (0, "Done.\n", False)
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text('{"warmStart": false}')
    api(DONE)
    run = warm.run(["-p", "hi"])
    assert (run.returncode, run.stdout, warm.was_warm) == (0, "Done.\n", False)


def test_interactive_runs_stay_cold(warm: Warm, project: Path) -> None:
    warm.start()
    run = warm.run(["--output-format", "text", "--version"])
    assert run.returncode == 0 and "claude-harness" in run.stdout
    assert not warm.was_warm


def test_no_fork_while_a_thread_is_alive(warm: Warm) -> None:
    """A preload that leaves a thread running: the warm process refuses to serve at all."""
    code = textwrap.dedent("""
        import sys, threading, time
        from claude_harness.warm.server import serve
        def preload():
            threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
        sys.exit(serve(lambda args: 0, lambda args: True, preload))
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert result.returncode == 1
    assert not warm.sockets()


def test_the_thin_client_imports_nothing_heavy() -> None:
    code = ("import sys; import claude_harness.cli, claude_harness.warm.client; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'anthropic', 'asyncio', 'pydantic', 'textual', 'prompt_toolkit', 'bashlex', "
            "'httpx2', 'mcp'}))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"


def test_a_socket_left_by_a_dead_server_is_replaced(warm: Warm, project: Path,
                                                    api: Any) -> None:
    server = warm.start()
    (path,) = warm.sockets()
    server.kill()
    server.wait()
    assert path.exists()  # left behind by `kill -9`
    api(DONE)
    run = warm.run(["-p", "hi"])
    assert (run.returncode, run.stdout, warm.was_warm) == (0, "Done.\n", False)
    assert wait_until(lambda: accepts_connections(path), 60), "no new warm process"
    api(DONE)
    run = warm.run(["-p", "hi"])
    assert (run.returncode, run.stdout, warm.was_warm) == (0, "Done.\n", True)
