"""The bubblewrap command line that puts one shell command in the sandbox.

Layout, in mount order (later mounts cover earlier ones):
  /                       read-only (the whole file system stays readable)
  writable paths          read-write binds of themselves (parents before children)
  runtime folders         /run, $XDG_RUNTIME_DIR: empty (sockets.py), read-only at the end;
                          over a writable folder that holds them, under one inside them
  protected paths         read-only binds of themselves, inside the writable ones
  missing protected names an empty read-only tmpfs, so they cannot be created either
  the host's sockets      their folders empty and read-only, or each one covered by /dev/null
  hidden paths            an empty read-only tmpfs (folders) or /dev/null (files); allowRead
                          paths inside them are bound back read-only
  /dev, /proc             a minimal /dev and the new PID namespace's own /proc, its kernel
                          tunables read-only
Namespaces and privileges (privileges.py): a user namespace with no capabilities (root runs as
`nobody` inside), its own UTS and IPC namespaces, a new PID namespace (the command is PID 1's
child; everything in it dies with it, and it cannot see or signal the user's other processes),
a new network namespace with only loopback, a new session (no terminal to inject keystrokes
into). `--die-with-parent` ties the sandbox to its parent.

With allowed domains, a relay started inside the sandbox listens on 127.0.0.1:3128 and forwards
to the harness's proxy on a unix socket; HTTP(S)_PROXY point at it. The relay waits until it
listens before the command starts, so the first request never races it.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from claude_harness.sandbox.paths import FilesystemPlan
from claude_harness.sandbox.privileges import privilege_args, proc_read_only_args

PROXY_PORT = 3128


@dataclass(frozen=True)
class NetworkBridge:
    socat: str
    socket_path: Path


def bwrap_argv(bwrap: str, plan: FilesystemPlan, cwd: Path, temp_dir: Path,
               bridge: NetworkBridge | None, *, disable_userns: bool = False) -> list[str]:
    """Everything before `/bin/bash -c script`: bwrap's options, `--`, and the relay if any."""
    argv = [bwrap, "--new-session", "--die-with-parent", "--unshare-pid", "--unshare-net",
            *privilege_args(disable_userns=disable_userns), "--ro-bind", "/", "/"]
    argv += _writable_and_masked(plan)
    for path in plan.read_only:
        argv += ["--ro-bind", str(path), str(path)]
    for path in [*plan.blocked_dirs, *plan.sockets.hidden_dirs]:
        argv += ["--tmpfs", str(path), "--remount-ro", str(path)]
    for path in plan.sockets.hidden_files:
        argv += ["--ro-bind", "/dev/null", str(path)]
    argv += _hidden(plan)
    for path in plan.sockets.masked:
        argv += ["--remount-ro", str(path)]
    argv += ["--dev", "/dev", "--proc", "/proc", *proc_read_only_args(),
             "--setenv", "TMPDIR", str(temp_dir)]
    argv += _proxy_env(bridge)
    if cwd.is_dir():
        argv += ["--chdir", str(cwd)]
    argv.append("--")
    if bridge is not None:
        argv += ["/bin/bash", "-c", _relay_script(bridge), "sandbox-relay"]
    return argv


def _writable_and_masked(plan: FilesystemPlan) -> list[str]:
    """The writable binds and the emptied runtime folders, in an order where neither covers the
    other: a writable folder that holds a masked one (`allowWrite: ["//"]` holds /run) is bound
    first, the mask goes on top of it, and writable folders inside a masked one are bound back
    after it."""
    masked = list(plan.sockets.masked)

    def inside_a_mask(path: Path) -> bool:
        return any(path != m and path.is_relative_to(m) for m in masked)

    writable = sorted(plan.writable, key=lambda p: len(p.parts))
    argv: list[str] = []
    for path in (p for p in writable if not inside_a_mask(p)):
        argv += ["--bind", str(path), str(path)]
    for path in masked:
        argv += ["--tmpfs", str(path)]
    for path in (p for p in writable if inside_a_mask(p)):
        argv += ["--bind", str(path), str(path)]
    return argv


def _proxy_env(bridge: NetworkBridge | None) -> list[str]:
    if bridge is None:
        return []
    argv: list[str] = []
    proxy = f"http://127.0.0.1:{PROXY_PORT}"
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        argv += ["--setenv", name, proxy]
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        argv += ["--unsetenv", name]
    return argv


def _hidden(plan: FilesystemPlan) -> list[str]:
    argv: list[str] = []
    for path in plan.hidden:
        if path.is_dir():
            argv += ["--tmpfs", str(path)]
            for allowed in plan.readable_inside(path):
                argv += ["--ro-bind", str(allowed), str(allowed)]
            argv += ["--remount-ro", str(path)]
        elif path.exists():
            argv += ["--ro-bind", "/dev/null", str(path)]
    return argv


def _relay_script(bridge: NetworkBridge) -> str:
    """Start the relay, wait until it accepts, then become the command.

    The wait polls with bash's own /dev/tcp (no process per try): a refused connect on loopback
    returns at once, and socat listens within a few milliseconds; 20,000 tries bound the wait.
    """
    listen = f"TCP-LISTEN:{PROXY_PORT},bind=127.0.0.1,fork,reuseaddr"
    connect = f"UNIX-CONNECT:{bridge.socket_path}"
    return (
        f"{shlex.quote(bridge.socat)} {listen} {shlex.quote(connect)} >/dev/null 2>&1 &\n"
        f"for ((i = 0; i < 20000; i++)); do\n"
        f"  {{ exec 3<>/dev/tcp/127.0.0.1/{PROXY_PORT}; }} 2>/dev/null && {{ exec 3>&-; break; }}\n"
        f"done\n"
        f'exec "$@"'
    )
