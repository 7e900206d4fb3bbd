"""The bubblewrap options that take every privilege away from a sandboxed command, root too.

Why each one (all of them matter most where the harness runs as root, the normal case in
containers and CI):
  --unshare-user, --uid/--gid   a user namespace. Run by root, bubblewrap can only map the id
                                inside to the caller's own id, so the command still owns what
                                root owns (that is how it writes the person's project). What it
                                loses is every capability: no clock, no hostname, no mounts, no
                                modules, no other user's files. Inside, root runs as
                                `nobody` (65534): uid 0 inside maps to nothing outside, and
                                programs that check for root see none.
  --cap-drop ALL                no capability in the namespace either, so the command cannot
                                undo the sandbox's own mounts (a read-only .git, a hidden
                                socket) from inside.
  --disable-userns              (bubblewrap 0.8 and later) no nested user namespace in which
                                the command would get capabilities back.
  --unshare-uts, --unshare-ipc  its own hostname and System V IPC, not the host's.
  /proc/sys and friends         read-only. They are owned by root, and the kernel lets their
                                owner write many of them without any capability; bubblewrap's
                                own covering is skipped on some kernels (gVisor among them).
A normal user keeps their own id: bubblewrap maps it to itself and drops all capabilities.
"""

from __future__ import annotations

import os

OVERFLOW_ID = 65534  # `nobody`/`nogroup`: the id that maps to no one
# The same /proc entries Docker and bubblewrap keep read-only: kernel tunables, the SysRq
# trigger (reboot, crash), IRQ affinity, bus and file system settings.
PROC_READ_ONLY = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs")


def sandbox_ids(uid: int | None = None, gid: int | None = None) -> tuple[int, int]:
    """The (uid, gid) the command runs as inside: root becomes `nobody`, others stay themselves."""
    uid = os.getuid() if uid is None else uid
    gid = os.getgid() if gid is None else gid
    if uid == 0:
        return OVERFLOW_ID, OVERFLOW_ID
    return uid, gid


def privilege_args(*, disable_userns: bool) -> list[str]:
    """The namespaces and capability options; goes before the mounts."""
    uid, gid = sandbox_ids()
    argv = ["--unshare-user", "--uid", str(uid), "--gid", str(gid), "--cap-drop", "ALL",
            "--unshare-uts", "--unshare-ipc"]
    if disable_userns:
        argv.append("--disable-userns")
    return argv


def proc_read_only_args() -> list[str]:
    """Read-only binds over /proc's writable tunables; goes after `--proc /proc`.

    The source is the host's /proc (bubblewrap binds from outside), which is fine: these files
    answer for the reading process's own namespaces, not for the mount they came through."""
    argv: list[str] = []
    for path in PROC_READ_ONLY:
        argv += ["--ro-bind-try", path, path]
    return argv
