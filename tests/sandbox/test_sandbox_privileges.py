"""The sandbox takes every privilege away, as root too, and leaves nothing that runs later.

Each attack is first run outside the sandbox (dangerouslyDisableSandbox, through the same Bash
tool) against targets that belong to the test alone (its temp dirs, its own tmux server), which
proves the attack is real; then the same command runs sandboxed and must fail without a trace.
Commands that would touch the host if they worked are written so that success changes nothing
(the clock set to now, a hostname or sysctl written back to its own value): a regression shows
as a failed assertion, never as a changed machine.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from claude_harness.sandbox.privileges import OVERFLOW_ID
from tests.sandbox.conftest import SandboxFactory, needs_bwrap
from tests.sandbox.test_sandboxed_bash import bash
from tests.tools.conftest import make_ctx

pytestmark = needs_bwrap
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed")
ZERO_CAPS = "0000000000000000"


async def test_no_capability_survives_even_for_root(sandbox: SandboxFactory) -> None:
    _, ctx = sandbox()
    run = await bash(ctx, "grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb):' /proc/self/status; id -u; "
                          "cat /proc/self/uid_map")
    lines = run.stdout.splitlines()
    caps = dict(line.split(":\t") for line in lines[:5])
    assert caps == dict.fromkeys(("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"), ZERO_CAPS)
    inside, outside, count = lines[6].split()
    if os.getuid() == 0:  # root runs as nobody inside: uid 0 inside maps to nothing outside
        assert int(lines[5]) == OVERFLOW_ID and int(inside) == OVERFLOW_ID
    assert (int(outside), int(count)) == (os.getuid(), 1)


async def test_clock_hostname_and_sysctls_stay_the_hosts(sandbox: SandboxFactory) -> None:
    _, ctx = sandbox()
    host_name = socket.gethostname()
    clock = await bash(ctx, 'date -s "@$(date +%s)"')  # now: harmless even if it worked
    assert clock.exit_code != 0 and "not permitted" in clock.stderr
    name = await bash(ctx, 'hostname "$(hostname)"; echo "rc=$?"; '
                           'cat /proc/sys/kernel/hostname > /proc/sys/kernel/hostname')
    assert "rc=0" not in name.stdout and name.exit_code != 0
    sysctl = await bash(ctx, "cat /proc/sys/vm/swappiness > /proc/sys/vm/swappiness")
    assert sysctl.exit_code != 0 and "Read-only file system" in sysctl.stderr
    assert socket.gethostname() == host_name


def _venv(folder: Path) -> Path:
    """A real virtualenv (no pip: it is not needed to show a .pth running); its site-packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    [site] = folder.glob("lib/python*/site-packages")
    return site


PLANTS = {  # what a sandboxed command might leave for something outside to run later
    ".mcp.json": 'echo \'{"mcpServers": {"x": {"command": "sh"}}}\' > .mcp.json',
    ".vscode/tasks.json": "mkdir -p .vscode && echo '{\"tasks\": []}' > .vscode/tasks.json",
    ".husky/pre-commit": "mkdir -p .husky && echo 'touch /tmp/pwn' > .husky/pre-commit",
    ".git/commondir": "echo ../../elsewhere/.git > .git/commondir",
    ".idea/workspace.xml": "mkdir -p .idea && echo '<project/>' > .idea/workspace.xml",
    ".claude/settings.json": "mkdir -p .claude && echo '{}' > .claude/settings.json",
}


def _twin(tmp_path: Path, name: str) -> Path:
    """A project like the sandbox fixture's, for the unsandboxed proof of an attack."""
    twin = tmp_path / name
    (twin / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(twin)], check=True)
    return twin


async def test_nothing_that_runs_later_can_be_planted(
    sandbox: SandboxFactory, project: Path, tmp_path: Path
) -> None:
    shutil.rmtree(project / ".claude")  # missing: it must not be creatable either
    site = _venv(project / ".venv")
    twin = _twin(tmp_path, "twin")
    twin_site = _venv(twin / ".venv")
    _, ctx = sandbox()
    twin_ctx = make_ctx(twin)
    pth = "echo 'import os; open(\"pwned-by-pth\", \"w\")' > {site}/evil.pth"
    for rel, command in PLANTS.items():
        proof = await bash(twin_ctx, command, dangerouslyDisableSandbox=True)
        assert proof.exit_code == 0 and (twin / rel).is_file(), (rel, proof.stderr)
        run = await bash(ctx, command)
        assert run.exit_code != 0, rel
        assert not (project / rel).is_file(), rel
    proof = await bash(twin_ctx, pth.format(site=twin_site), dangerouslyDisableSandbox=True)
    subprocess.run([str(twin / ".venv" / "bin" / "python"), "-c", "pass"], cwd=twin, check=True)
    assert proof.exit_code == 0 and (twin / "pwned-by-pth").exists()  # the .pth really runs
    run = await bash(ctx, pth.format(site=site))
    assert run.exit_code != 0 and "Read-only file system" in run.stderr
    assert not (site / "evil.pth").exists()
    pip = await bash(ctx, ".venv/bin/python -m ensurepip 2>&1")
    assert "Read-only file system" in pip.stdout and not list(site.glob("pip*"))


async def test_everyday_work_still_flows(sandbox: SandboxFactory, project: Path) -> None:
    _, ctx = sandbox()
    script = ("import socket; s = socket.socket(socket.AF_UNIX); s.bind('own.sock'); s.listen();"
              " c = socket.socket(socket.AF_UNIX); c.connect('own.sock'); print('own socket ok')")
    run = await bash(ctx, f"echo 'x = 1' > src/mod.py && python3 -c \"{script}\" && "
                          "python3 -c 'import sys; sys.path.insert(0, \"src\"); import mod; "
                          "print(mod.x)' && rm own.sock && git status --short | wc -l")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[:2] == ["own socket ok", "1"]
    assert (project / "src" / "mod.py").read_text() == "x = 1\n"


@pytest.fixture
def tmux_server() -> Iterator[Path]:
    """A tmux server of the test's own on a socket in a fresh folder of /tmp (where tmux keeps
    its servers), killed and removed afterwards. Yields the socket's path."""
    folder = Path(tempfile.mkdtemp(prefix="ch-sandbox-tmux-", dir="/tmp"))
    sock = folder / "sock"
    subprocess.run(["tmux", "-S", str(sock), "new-session", "-d", "-s", "t", "sleep 600"],
                   check=True, stdin=subprocess.DEVNULL)
    try:
        yield sock
    finally:
        subprocess.run(["tmux", "-S", str(sock), "kill-server"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@needs_tmux
async def test_a_tmux_server_outside_cannot_be_reached(
    sandbox: SandboxFactory, project: Path, tmux_server: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "ran-outside"
    attack = f"tmux -S {tmux_server} run-shell 'touch {marker}'"
    _, ctx = sandbox()
    proof = await bash(ctx, attack, dangerouslyDisableSandbox=True)
    assert proof.exit_code == 0 and marker.exists()  # the server runs what it is sent
    marker.unlink()
    run = await bash(ctx, f"{attack}; ls -A /run | wc -l")
    assert not marker.exists()
    assert "no server running" in run.stderr or "error connecting" in run.stderr
    assert run.stdout.strip() == "0"  # the runtime folders are empty inside


@needs_tmux
async def test_the_socket_tmux_names_is_hidden_wherever_it_is(
    sandbox: SandboxFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The harness running inside tmux: $TMUX names the server, deep in a folder no scan
    reaches, next to the project."""
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    sock = deep / "sock"
    marker = tmp_path / "ran-outside"
    subprocess.run(["tmux", "-S", str(sock), "new-session", "-d", "-s", "t", "sleep 600"],
                   check=True, stdin=subprocess.DEVNULL)
    try:
        monkeypatch.setenv("TMUX", f"{sock},1,0")
        _, ctx = sandbox()
        proof = await bash(ctx, f"tmux run-shell 'touch {marker}'", dangerouslyDisableSandbox=True)
        assert proof.exit_code == 0 and marker.exists()
        marker.unlink()
        run = await bash(ctx, f"tmux run-shell 'touch {marker}'")
        assert run.exit_code != 0 and not marker.exists()
    finally:
        subprocess.run(["tmux", "-S", str(sock), "kill-server"], capture_output=True)
        sock.unlink(missing_ok=True)


class _UnixServer:
    """A unix socket server of the test's own that counts the connections it accepts."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.accepted = 0
        self._counted = threading.Condition()
        self._sock = socket.socket(socket.AF_UNIX)
        self._sock.bind(str(path))
        self._sock.listen()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            with self._counted:
                self.accepted += 1
                self._counted.notify_all()
            conn.close()

    def wait_for(self, count: int, timeout: float = 30.0) -> int:
        """The count once it reaches `count` (or the deadline passes): a connect returns as
        soon as the kernel queues it, before this thread has accepted it."""
        with self._counted:
            self._counted.wait_for(lambda: self.accepted >= count, timeout=timeout)
            return self.accepted

    def close(self) -> None:
        self._sock.close()
        self.path.unlink(missing_ok=True)


CONNECT = "python3 -c \"import socket, sys; socket.socket(socket.AF_UNIX).connect(sys.argv[1])\" "


@pytest.mark.parametrize("where", ["home/.ssh/control.sock", "proj/dev-server.sock", "env"])
async def test_the_hosts_sockets_are_out_of_reach(
    sandbox: SandboxFactory, tmp_path: Path, home: Path, where: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An ssh control master in ~/.ssh, a server's socket at the top of the project, and an
    agent socket the environment names, deep where no scan looks."""
    path = tmp_path / ("deep/er/agent.sock" if where == "env" else where)
    path.parent.mkdir(parents=True, exist_ok=True)
    if where == "env":
        monkeypatch.setenv("SSH_AUTH_SOCK", str(path))
    server = _UnixServer(path)
    try:
        _, ctx = sandbox()
        proof = await bash(ctx, CONNECT + str(path), dangerouslyDisableSandbox=True)
        assert proof.exit_code == 0 and server.wait_for(1) == 1
        run = await bash(ctx, CONNECT + str(path))
        assert run.exit_code != 0, run.stdout
        # its folder emptied (FileNotFound) or the socket itself covered (refused): nothing
        # reached the server, so nothing is queued for it either
        assert "FileNotFoundError" in run.stderr or "ConnectionRefusedError" in run.stderr
        assert server.accepted == 1
    finally:
        server.close()


def test_the_differential_fixture_drops_the_same_privileges() -> None:
    """What the permission checker allows runs in tests/permissions' own bubblewrap world: it
    must not keep root's power either, or an allowed `date -s` would set the host's clock."""
    from tests.permissions.sandbox_fixture import run_sandboxed

    copy = Path(tempfile.mkdtemp(prefix="ch-priv-", dir="/dev/shm" if os.access(
        "/dev/shm", os.W_OK) else "/var/tmp"))
    try:
        (copy / "tmp").mkdir()
        rc, out, err, _, _ = run_sandboxed(
            copy, copy, "grep ^CapEff: /proc/self/status; "
                        "cat /proc/sys/vm/swappiness > /proc/sys/vm/swappiness", cwd=copy)
        assert out.split() == ["CapEff:", ZERO_CAPS]
        assert rc != 0 and "Read-only file system" in err
    finally:
        shutil.rmtree(copy, ignore_errors=True)


async def test_a_sandboxed_command_cannot_plant_the_warm_start_socket(
        sandbox: SandboxFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm start hands a run's arguments, environment (the API key) and streams to whoever
    listens on its socket: the folder that holds it is out of a sandboxed command's reach, so a
    command cannot listen there in its place (the default folder is outside the sandbox's
    writable temp folder; under $XDG_RUNTIME_DIR it is masked)."""
    from claude_harness.sandbox.tempdir import session_temp_dir
    from claude_harness.warm import place

    monkeypatch.delenv(place.RUNTIME_DIR_ENV, raising=False)
    runtime = tmp_path / "xdg"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    folders = [place.runtime_dir(create=True)]
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    folders.append(place.runtime_dir(create=False) or Path(f"/tmp/claude-harness-warm-{os.getuid()}"))
    assert folders[0] is not None and folders[0].is_relative_to(runtime)
    assert not folders[1].is_relative_to(session_temp_dir())
    _, ctx = sandbox()
    for folder in folders:
        plant = folder / "warm-planted.sock"
        run = await bash(ctx, f"python3 -c \"import socket; socket.socket(socket.AF_UNIX)"
                              f".bind('{plant}')\"; echo rc=$?")
        assert "rc=0" not in run.stdout and not plant.exists(), (folder, run.stdout, run.stderr)


@pytest.mark.parametrize("present", [True, False], ids=["cache-present", "cache-missing"])
async def test_the_harness_cache_inside_the_project_cannot_be_planted(
    sandbox: SandboxFactory, project: Path, monkeypatch: pytest.MonkeyPatch, present: bool
) -> None:
    """Run in $HOME, the project holds ~/.cache/claude-harness, whose compiled code the next
    cold start runs outside the sandbox (fsutil/code_cache.py): a sandboxed command may neither
    replace it nor create it."""
    cache = project / ".cache" / "claude-harness"
    monkeypatch.setenv("CLAUDE_HARNESS_CACHE_DIR", str(cache))
    if present:
        cache.mkdir(parents=True)
        (cache / "dataclass-code-cpython-311.marshal").write_bytes(b"ours")
    _, ctx = sandbox()
    run = await bash(ctx, f"mkdir -p {cache} && echo evil > {cache}/dataclass-code-x.marshal; "
                          f"echo evil > {cache}/dataclass-code-cpython-311.marshal")
    assert run.exit_code != 0 and "Read-only file system" in run.stderr, run.stderr
    assert not (cache / "dataclass-code-x.marshal").exists()
    if present:
        assert (cache / "dataclass-code-cpython-311.marshal").read_bytes() == b"ours"
    work = await bash(ctx, "echo fine > .cache/beside.txt 2>&1 || mkdir -p .cache && "
                           "echo fine > .cache/beside.txt && cat .cache/beside.txt")
    assert work.exit_code == 0 and work.stdout.strip() == "fine", work.stderr  # the rest stays
