"""Can the sandbox run here, and if not, exactly why (for /sandbox and the start-up notice).

Checked once per process: Linux, a `bwrap` binary (sandbox.bwrapPath or PATH), and a trial run
of it with the namespaces and privilege dropping the sandbox uses (privileges.py), which is what
fails where user namespaces are disabled (a hardened kernel, an unprivileged container): the
sandbox never runs with fewer of them. Whether this bubblewrap can also forbid nested user
namespaces (`--disable-userns`, 0.8 and later) is read from its `--help`. Network
filtering also needs `socat` (sandbox.socatPath or PATH) to relay the proxy into the sandbox;
without it, commands keep no network at all, and the reason says so.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache

from claude_harness.sandbox.privileges import privilege_args, proc_read_only_args

TRIAL_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class Availability:
    """Whether the sandbox can run; `reason` says why not (or what is degraded)."""

    available: bool
    reason: str = ""
    bwrap: str | None = None
    socat: str | None = None  # None: no relay, so no network even for allowed domains
    disable_userns: bool = False  # this bwrap has --disable-userns

    @property
    def network_reason(self) -> str:
        if self.socat is None:
            return ("socat is not installed, so sandboxed commands cannot reach even the "
                    "allowed domains (install socat, or set sandbox.socatPath)")
        return ""


@cache
def check_availability(bwrap_path: str | None = None,
                       socat_path: str | None = None) -> Availability:
    if not sys.platform.startswith("linux"):
        return Availability(False, f"the sandbox needs Linux with bubblewrap (this is {sys.platform})")
    bwrap = bwrap_path or shutil.which("bwrap")
    if bwrap is None:
        return Availability(False, "bubblewrap (bwrap) is not installed: install the "
                            "'bubblewrap' package, or set sandbox.bwrapPath")
    socat = socat_path or shutil.which("socat")
    disable_userns = _supports(bwrap, "--disable-userns")
    problem = _trial_run(bwrap, disable_userns)
    if problem:
        return Availability(False, problem, bwrap, socat)
    return Availability(True, "", bwrap, socat, disable_userns)


def _supports(bwrap: str, option: str) -> bool:
    try:
        done = subprocess.run([bwrap, "--help"], capture_output=True, text=True,
                              timeout=TRIAL_TIMEOUT_SECONDS, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return option in done.stdout + done.stderr


def _trial_run(bwrap: str, disable_userns: bool) -> str:
    """Run `true` in the namespaces the sandbox uses; the problem in words, or ""."""
    argv = [bwrap, *privilege_args(disable_userns=disable_userns), "--ro-bind", "/", "/",
            "--dev", "/dev", "--proc", "/proc", *proc_read_only_args(), "--unshare-pid",
            "--unshare-net", "--die-with-parent", "--", "/bin/true"]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=TRIAL_TIMEOUT_SECONDS,
                              stdin=subprocess.DEVNULL)
    except OSError as exc:
        return f"bubblewrap ({bwrap}) could not be run: {exc}"
    except subprocess.TimeoutExpired:
        return f"bubblewrap ({bwrap}) did not finish a trial run in {TRIAL_TIMEOUT_SECONDS:g} s"
    if done.returncode == 0:
        return ""
    detail = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
    hint = ""
    if "namespace" in detail.lower() or "permission" in detail.lower():
        hint = (" (user namespaces are probably disabled here: check "
                "/proc/sys/kernel/unprivileged_userns_clone and "
                "/proc/sys/user/max_user_namespaces, or run outside this container)")
    return f"bubblewrap cannot create the sandbox: {detail}{hint}"
