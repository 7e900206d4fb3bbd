"""Benchmark the interactive app in a real terminal (tmux): first paint, keystroke echo with a
2,000-message session, idle CPU and memory.

    python scripts/bench_tui.py [--messages 2000] [--idle 10] [--keys 30]

What it prints:
- startup: time from spawning the process to the first frame that shows the focused prompt
  (polled with `tmux capture-pane` every 5 ms, so figures are upper bounds by a few ms);
  the same for a bare Textual app with an Input, as the floor on this machine;
- echo: median / p90 time from `tmux send-keys` to the character appearing on screen, after
  a session of N messages went through the conversation (user prompts and Markdown answers,
  mounted the way a live session mounts them, so pruning is exercised);
- idle CPU over `--idle` seconds after that session, and the process's RSS.

The app runs against the project's scripted Messages API server with a throwaway HOME and
data dir; nothing touches the network or the real home directory.
"""

from __future__ import annotations

import argparse
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

def child(messages: int, pid_file: Path, ready_file: Path) -> None:
    import asyncio

    from claude_harness.tui.app import HarnessApp

    pid_file.write_text(str(os.getpid()))

    def factory() -> object:
        return _engine(Path.cwd())

    app = HarnessApp(cwd=Path.cwd(), session_factory=factory)

    async def fill() -> None:
        while not app.ready:
            await asyncio.sleep(0.05)
        if messages:
            await _fill(app, messages)
        ready_file.write_text("ready")

    app.call_later(lambda: app.run_worker(fill(), group="bench"))
    app.run()


def _engine(cwd: Path) -> object:
    """The session as bootstrap builds it for the app."""
    from claude_harness.bootstrap import build_session
    from claude_harness.options import RunOptions

    return build_session(RunOptions(cwd=cwd))


async def _fill(app: object, count: int) -> None:
    from claude_harness.tui.widgets.assistant_text import AssistantTextView
    from claude_harness.tui.widgets.user_prompt import UserPromptView

    conversation = app.conversation  # type: ignore[attr-defined]
    messages = app.view.messages  # type: ignore[attr-defined]
    answer = ("Here is a short answer with `code` and a list:\n\n- one\n- two\n\n"
              "```python\nprint('hello')\n```\n")
    for i in range(0, count, 2):
        messages.append({"role": "user", "content": f"question {i}"})
        messages.append({"role": "assistant", "content": [{"type": "text", "text": answer}]})
        await conversation.add(UserPromptView(f"question {i}"), AssistantTextView(answer))


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
    parser.add_argument("--startup-only", action="store_true", help="only time the first paint")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--pid-file", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--ready-file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.messages, args.pid_file, args.ready_file)
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


def _measure(args: argparse.Namespace) -> int:
    from claude_harness.testing.mock_api import MockApiServer

    with tempfile.TemporaryDirectory() as tmp, MockApiServer({"turns": []}) as server:
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

        pid_file, ready_file = base / "pid", base / "ready"
        t0 = start(f"{py} {Path(__file__).resolve()} --child --messages {args.messages} "
                   f"--pid-file {pid_file} --ready-file {ready_file}", env, proj)
        while not ready_file.exists() and time.perf_counter() - t0 < 600:
            time.sleep(0.1)
        fill_time = time.perf_counter() - t0
        pid = int(pid_file.read_text())
        print(f"session of {args.messages} messages mounted through the live path in "
              f"{fill_time:.1f} s")
        time.sleep(1.0)
        latencies = []
        for i in range(args.keys):
            char = "abcdefghijklmnopqrstuvwxyz"[i % 26]
            typed = "x" * 0 + "".join("abcdefghijklmnopqrstuvwxyz"[j % 26] for j in range(i + 1))
            sent = time.perf_counter()
            tmux("send-keys", "-t", SESSION, "-l", char)
            got = wait_screen(lambda s, t=typed: t in s, timeout=5, interval=0.002)
            if got is not None:
                latencies.append(time.perf_counter() - sent)
            time.sleep(0.05)
        tmux("send-keys", "-t", SESSION, "C-u")
        if latencies:
            latencies.sort()
            p90 = latencies[int(len(latencies) * 0.9) - 1]
            print(f"keystroke-to-echo with {args.messages} messages: median "
                  f"{statistics.median(latencies) * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms "
                  f"({len(latencies)}/{args.keys} keys seen)  target < 50 ms median")
        else:
            print("keystroke-to-echo: no key echoed (FAILED)")
        time.sleep(1.0)
        before = cpu_seconds(pid)
        time.sleep(args.idle)
        used = cpu_seconds(pid) - before
        print(f"CPU while idle for {args.idle:.0f} s: {100 * used / args.idle:.2f} %  target < 1 %")
        print(f"memory (RSS) after the {args.messages}-message session: {rss_mib(pid):.0f} MiB")
        tmux("kill-session", "-t", SESSION)
    return 0


def _fmt(values: list[float | None]) -> str:
    seen = [v for v in values if v is not None]
    if not seen:
        return "never drew (FAILED)"
    return (f"median {statistics.median(seen):.2f} s (runs: "
            + ", ".join(f"{v:.2f}" if v is not None else "fail" for v in values) + ")")


if __name__ == "__main__":
    sys.exit(main())
