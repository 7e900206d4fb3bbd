"""Benchmark the interactive app in a real terminal (tmux): first paint, the cost of appending
to a long conversation, resuming a long session, keystroke echo (with a long session, and while a
command streams), idle CPU and memory.

    python scripts/bench_tui.py [--messages 2000] [--idle 10] [--keys 30] [--stream-lines 10000]

What it prints:
- startup: time from spawning the process to the first frame that shows the focused prompt
  (polled with `tmux capture-pane` every 5 ms, so figures are upper bounds by a few ms);
  the same for a bare Textual app with an Input, as the floor on this machine;
- append: the cost of adding one prompt + answer pair through the live path, measured inside
  the app (wall time and CPU time up to the next refresh), at 20 messages and at N messages;
  N messages go through the conversation the way a live session mounts them;
- echo: median / p90 time from `tmux send-keys` to the character appearing on screen, after
  that session;
- idle CPU over `--idle` seconds after that session, and the process's RSS;
- resume: an N-message session handed to the conversation's load_history (what `-r` does):
  time until its tail has been drawn, measured inside the app, and the tail seen on screen;
  then the whole path: `claude-harness -r <id>` of a stored N-message transcript, from the
  process start to the tail on screen (the startup figure above is part of it);
- streaming: keystroke echo while a Bash tool call prints `--stream-lines` lines over a few
  seconds (its progress flows into the tool call's widget), and while a background command
  (run_in_background) prints as many into its output file.

The app runs against the project's scripted Messages API server with a throwaway HOME and
data dir; nothing touches the network or the real home directory.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = "default mode"  # the footer: present once the first frame is painted
SESSION = "bench-tui"
SOCKET = f"bench-tui-{os.getpid()}"  # our own tmux server: no interference with other sessions


# ── the child process: the real app, optionally filled with a long session ───────────────────

def child(args: argparse.Namespace) -> None:
    import asyncio

    from claude_harness.frontends.tui.app import HarnessApp

    args.pid_file.write_text(str(os.getpid()))

    def factory() -> object:
        return _engine(Path.cwd(), allow_bash=args.scenario == "stream")

    app = HarnessApp(cwd=Path.cwd(), session_factory=factory)

    async def run() -> None:
        while not app.ready:
            await asyncio.sleep(0.05)
        results: dict[str, object] = {}
        if args.scenario == "fill" and args.messages:
            results = await _fill(app, args.messages)
        elif args.scenario == "resume":
            results = await _resume(app, args.messages)
        args.ready_file.write_text(json.dumps(results))

    app.call_later(lambda: app.run_worker(run(), group="bench"))
    app.run()


def _engine(cwd: Path, allow_bash: bool = False) -> object:
    """The session as bootstrap builds it for the app."""
    from claude_harness.session.bootstrap import build_session
    from claude_harness.session.options import RunOptions

    return build_session(RunOptions(cwd=cwd, allowed_tools=["Bash"] if allow_bash else []))


ANSWER = ("Here is a short answer with `code` and a list:\n\n- one\n- two\n\n"
          "```python\nprint('hello')\n```\n")
TIMED_PAIRS = 10


async def _refreshed(app: object) -> None:
    """Wait until the app has drawn everything queued so far."""
    import asyncio

    done = asyncio.Event()
    app.call_after_refresh(done.set)  # type: ignore[attr-defined]
    await done.wait()


async def _add_pair(app: object, i: int, timed: list[tuple[float, float]] | None) -> None:
    from claude_harness.frontends.tui.widgets.assistant_text import AssistantTextView
    from claude_harness.frontends.tui.widgets.user_prompt import UserPromptView

    messages = app.view.messages  # type: ignore[attr-defined]
    messages.append({"role": "user", "content": f"question {i}"})
    messages.append({"role": "assistant", "content": [{"type": "text", "text": ANSWER}]})
    wall, cpu = time.perf_counter(), time.process_time()
    await app.conversation.add(UserPromptView(f"question {i}"),  # type: ignore[attr-defined]
                               AssistantTextView(ANSWER))
    if timed is not None:
        await _refreshed(app)
        timed.append((time.perf_counter() - wall, time.process_time() - cpu))


async def _fill(app: object, count: int) -> dict[str, object]:
    """Mount `count` messages the way a live session does; time the first and last pairs."""
    early: list[tuple[float, float]] = []
    late: list[tuple[float, float]] = []
    for i in range(0, count, 2):
        timed = early if i < 2 * TIMED_PAIRS else late if i >= count - 2 * TIMED_PAIRS else None
        await _add_pair(app, i, timed)
    return {"append_early": early, "append_late": late}


def _session(count: int) -> list[dict[str, object]]:
    """A stored session of `count` messages: prompts, tool calls with results, answers."""
    messages: list[dict[str, object]] = []
    for n in range(count // 4):
        messages += [
            {"role": "user", "content": f"question {n}"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": f"t{n}", "name": "Read",
                                               "input": {"file_path": f"/src/f{n}.py"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{n}",
                                          "content": f"contents of file {n}"}]},
            {"role": "assistant", "content": [{"type": "text", "text": ANSWER}]},
        ]
    return messages


async def _resume(app: object, count: int) -> dict[str, object]:
    """Hand a long stored session to the conversation as a resume would; time the tail."""
    from claude_harness.frontends.tui.router import history_widgets

    messages = _session(count)
    conversation = app.conversation  # type: ignore[attr-defined]
    await conversation.clear()
    wall, cpu = time.perf_counter(), time.process_time()
    await conversation.load_history(messages, history_widgets)
    await _refreshed(app)
    return {"resume": (time.perf_counter() - wall, time.process_time() - cpu),
            "last_question": f"question {count // 4 - 1}"}


# ── the parent: tmux driving and measuring ───────────────────────────────────────────────────

def tmux(*args: str) -> str:
    return subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True).stdout


def capture() -> str:
    return tmux("capture-pane", "-p", "-t", SESSION)


def wait_screen(predicate, timeout: float, interval: float = 0.005) -> float | None:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if predicate(capture()):
            return time.perf_counter() - start
        time.sleep(interval)
    return None


def start(command: str, env: dict[str, str], cwd: Path) -> float:
    tmux("kill-session", "-t", SESSION)
    exports = " ".join(f"{k}={v}" for k, v in env.items())
    t0 = time.perf_counter()
    subprocess.run(["tmux", "-L", SOCKET, "new-session", "-d", "-s", SESSION, "-x", "120", "-y", "40", "-c",
                    str(cwd), f"env {exports} {command}"], check=True)
    return t0


def time_startup(command: str, marker: str, env: dict[str, str], cwd: Path) -> float | None:
    t0 = start(command, env, cwd)
    elapsed = wait_screen(lambda s: marker in s, timeout=15)
    result = None if elapsed is None else time.perf_counter() - t0
    tmux("kill-session", "-t", SESSION)
    return result


BARE_APP = ("from textual.app import App\nfrom textual.widgets import Input\n"
            "class A(App):\n    def compose(self):\n        yield Input(placeholder='bare-ready')\n"
            "A().run()\n")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--keys", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stream-lines", type=int, default=10_000)
    parser.add_argument("--startup-only", action="store_true", help="only time the first paint")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--scenario", default="fill", help=argparse.SUPPRESS)
    parser.add_argument("--pid-file", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--ready-file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return 0
    if shutil.which("tmux") is None:
        print("tmux is required", file=sys.stderr)
        return 1

    # a keeper session holds the private tmux server up between runs (killing the last session
    # stops the server, and a new-session racing that shutdown fails)
    subprocess.run(["tmux", "-L", SOCKET, "new-session", "-d", "-s", "keeper", "sleep 3600"],
                   check=True)
    try:
        return _measure(args)
    finally:
        tmux("kill-server")
        folder = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
        (folder / SOCKET).unlink(missing_ok=True)  # a killed server leaves its socket file


def _start_child(args: argparse.Namespace, scenario: str, env: dict[str, str], base: Path,
                 proj: Path) -> tuple[int, dict[str, object]]:
    """Start the app in the given scenario; wait until it says it is ready; (pid, results)."""
    pid_file, ready_file = base / f"{scenario}.pid", base / f"{scenario}.ready"
    for stale in (pid_file, ready_file):  # an earlier run of the same scenario left them
        stale.unlink(missing_ok=True)
    t0 = start(f"{sys.executable} {Path(__file__).resolve()} --child --scenario {scenario} "
               f"--messages {args.messages} --pid-file {pid_file} --ready-file {ready_file}",
               env, proj)
    while not ready_file.exists() and time.perf_counter() - t0 < 900:
        time.sleep(0.1)
    time.sleep(0.2)  # the results file is written in one go; let it land
    return int(pid_file.read_text()), json.loads(ready_file.read_text() or "{}")


def _echo_latencies(keys: int) -> list[float]:
    """Type `keys` characters one by one; the time each took to appear on screen."""
    latencies = []
    for i in range(keys):
        char = "abcdefghijklmnopqrstuvwxyz"[i % 26]
        typed = "".join("abcdefghijklmnopqrstuvwxyz"[j % 26] for j in range(i + 1))
        sent = time.perf_counter()
        tmux("send-keys", "-t", SESSION, "-l", char)
        got = wait_screen(lambda s, t=typed: t in s, timeout=5, interval=0.002)
        if got is not None:
            latencies.append(time.perf_counter() - sent)
        time.sleep(0.05)
    tmux("send-keys", "-t", SESSION, "C-u")
    return latencies


def _print_echo(what: str, latencies: list[float], keys: int) -> None:
    if not latencies:
        print(f"keystroke-to-echo {what}: no key echoed (FAILED)")
        return
    latencies.sort()
    p90 = latencies[max(0, int(len(latencies) * 0.9) - 1)]
    print(f"keystroke-to-echo {what}: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"p90 {p90 * 1000:.1f} ms ({len(latencies)}/{keys} keys seen)  target < 50 ms median")


def _ms(pairs: list[list[float]], index: int) -> str:
    return f"{statistics.median(p[index] for p in pairs) * 1000:.1f} ms" if pairs else "n/a"


def _measure(args: argparse.Namespace) -> int:
    from claude_harness.testing.mock_api import MockApiServer

    stream_script = {"turns": [
        {"content": [{"type": "tool_use", "name": "Bash", "input": {
            "command": f"for i in $(seq 1 {args.stream_lines}); do echo \"streamed line $i\"; "
                       "if (( i % 100 == 0 )); then sleep 0.05; fi; done",
            "description": "Stream many lines"}}]},
        "The command finished."]}
    background_script = {"turns": [
        {"content": [{"type": "tool_use", "name": "Bash", "input": {
            "command": stream_script["turns"][0]["content"][0]["input"]["command"],
            "description": "Stream many lines", "run_in_background": True}}]},
        "It streams in the background."]}
    with tempfile.TemporaryDirectory() as tmp, MockApiServer({"turns": []}) as server, \
            MockApiServer(stream_script) as stream_server, \
            MockApiServer(background_script) as background_server:
        base = Path(tmp)
        proj, home = base / "proj", base / "home"
        proj.mkdir()
        home.mkdir()
        from claude_harness.config.trust import trust_folder

        trust_folder(home / "data", proj.resolve())  # measure the app, not the first-run question
        env = {"HOME": str(home), "CLAUDE_HARNESS_DATA_DIR": str(home / "data"),
               "ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "bench",
               "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
        py = sys.executable

        bare_file = base / "bare.py"
        bare_file.write_text(BARE_APP)
        bare = [time_startup(f"{py} {bare_file}", "bare-ready", env, proj) for _ in range(args.runs)]
        cli = [time_startup(f"{py} -m claude_harness", MARKER, env, proj) for _ in range(args.runs)]
        print(f"startup, bare Textual app with an Input: {_fmt(bare)}")
        print(f"startup, claude-harness (python -m claude_harness): {_fmt(cli)}  target < 0.8 s")
        if args.startup_only:
            return 0

        # 1. a long session through the live path: append cost, echo, idle CPU, memory
        began = time.perf_counter()
        pid, results = _start_child(args, "fill", env, base, proj)
        print(f"session of {args.messages} messages mounted through the live path in "
              f"{time.perf_counter() - began:.1f} s")
        early, late = results.get("append_early", []), results.get("append_late", [])
        print(f"append one prompt + answer pair (median of {len(early)}): at 20 messages "
              f"{_ms(early, 0)} wall / {_ms(early, 1)} CPU; at {args.messages} messages "
              f"{_ms(late, 0)} wall / {_ms(late, 1)} CPU  target: no more at {args.messages}")
        time.sleep(1.0)
        _print_echo(f"with {args.messages} messages", _echo_latencies(args.keys), args.keys)
        time.sleep(1.0)
        before = cpu_seconds(pid)
        time.sleep(args.idle)
        used = cpu_seconds(pid) - before
        print(f"CPU while idle for {args.idle:.0f} s: {100 * used / args.idle:.2f} %  target < 1 %")
        print(f"memory (RSS) after the {args.messages}-message session: {rss_mib(pid):.0f} MiB")
        tmux("kill-session", "-t", SESSION)

        # 2. resuming a long session: its tail drawn, the rest left for scrolling
        pid, results = _start_child(args, "resume", env, base, proj)
        wall, cpu = results.get("resume", (float("nan"), float("nan")))
        seen = str(results.get("last_question", "")) in capture()
        print(f"resume a {args.messages}-message session: tail drawn in {wall * 1000:.0f} ms "
              f"({cpu * 1000:.0f} ms CPU), tail on screen: {seen}  target < 500 ms")
        print(f"memory (RSS) after resuming {args.messages} messages: {rss_mib(pid):.0f} MiB")
        tmux("kill-session", "-t", SESSION)
        session_id = _stored_session(home / "data", proj, args.messages)
        last = f"question {args.messages // 4 - 1}"
        whole = [time_startup(f"{py} -m claude_harness -r {session_id}", last, env, proj)
                 for _ in range(args.runs)]
        print(f"claude-harness -r <a {args.messages}-message session>: process start to its "
              f"tail on screen {_fmt(whole)}")

        # 3. keystrokes while a command streams its output into the conversation, then while
        #    one streams in the background (into its output file)
        keys = min(args.keys, 20)
        for server_url, marker, what in (
                (stream_server.url, "streamed line", "a command streams"),
                (background_server.url, "It streams in the background.",
                 "a background command streams")):
            _start_child(args, "stream", {**env, "ANTHROPIC_BASE_URL": server_url}, base, proj)
            tmux("send-keys", "-t", SESSION, "-l", "run the streaming command")
            tmux("send-keys", "-t", SESSION, "Enter")
            if wait_screen(lambda s, m=marker: m in s, timeout=30) is None:
                screen = tmux("capture-pane", "-p", "-t", SESSION)
                print(f"streaming ({what}): the command never started (FAILED); screen:\n"
                      f"{screen}")
            else:
                _print_echo(f"while {what} {args.stream_lines:,} lines", _echo_latencies(keys),
                            keys)
            tmux("kill-session", "-t", SESSION)
    return 0


def _stored_session(data: Path, proj: Path, count: int) -> str:
    """A transcript of `count` messages in the data dir, as an earlier session left it."""
    from claude_harness.session.store.transcript import Transcript

    transcript = Transcript.create(data, proj.resolve())
    for message in _session(count):
        transcript.append_message(message)
    transcript.close()
    return transcript.session_id


def _fmt(values: list[float | None]) -> str:
    seen = [v for v in values if v is not None]
    if not seen:
        return "never drew (FAILED)"
    return (f"median {statistics.median(seen):.2f} s (runs: "
            + ", ".join(f"{v:.2f}" if v is not None else "fail" for v in values) + ")")


if __name__ == "__main__":
    sys.exit(main())
