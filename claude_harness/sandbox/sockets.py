"""Which unix sockets of the host's servers a sandboxed command could reach, and how to hide them.

Why: a unix socket ignores read-only mounts and the network namespace. A tmux server's socket
lets a command `tmux run-shell` outside the sandbox; docker.sock, the D-Bus buses, an ssh-agent,
an X server, an editor's RPC socket are the same kind of door. Inside the sandbox the command
still owns what the harness's user owns, so file modes do not close them: they must not be
there at all.

The rule, in three parts:
  runtime folders   /run (and /var/run), $XDG_RUNTIME_DIR: where servers keep sockets, pid
                    files and locks, nothing a build needs. Each is replaced by an empty
                    read-only folder (the sandbox's writable paths inside them are put back).
  scanned folders   every socket in /tmp, /var/tmp, /var/lib and $HOME, two levels deep
                    (tmux-<uid>/, .X11-unix/, ssh-*/, lxd/ and incus/, .ssh/ control sockets,
                    .gnupg/), and at the top of each writable folder. A folder that holds sockets is hidden whole (one mount for
                    a tmux folder with hundreds of stale sockets); where it also holds or lies
                    on the way to the sandbox's own paths, each socket is covered by /dev/null.
  named sockets     any socket an environment variable names, wherever it is ($TMUX,
                    $SSH_AUTH_SOCK, $DBUS_SESSION_BUS_ADDRESS, $DOCKER_HOST, ...): the command
                    inherits the environment, so these are the doors it is told about.
Abstract sockets need nothing here: they belong to the network namespace, which is the
sandbox's own. The harness's own relay socket (the proxy) is the one socket left visible.

Scanning costs one stat per folder: a folder's listing is kept until its mtime changes.
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

SCAN_DEPTH = 2
_ADDRESS_PREFIXES = ("unix://", "unix:path=", "unix:", "path=")
_MAX_VALUE_LENGTH = 4096


@dataclass
class SocketPlan:
    masked: list[Path] = field(default_factory=list)  # runtime folders: an empty read-only one
    hidden_dirs: list[Path] = field(default_factory=list)  # folders holding only what to hide
    hidden_files: list[Path] = field(default_factory=list)  # sockets covered one by one


def runtime_dirs(environ: Mapping[str, str]) -> list[Path]:
    """The runtime folders that exist, without one inside another."""
    candidates = [Path("/run"), Path("/var/run")]
    xdg = environ.get("XDG_RUNTIME_DIR", "")
    if xdg.startswith("/"):
        candidates.append(Path(xdg))
    real: list[Path] = []
    for path in candidates:
        resolved = Path(os.path.realpath(path))
        if resolved.is_dir() and resolved != Path("/") and resolved not in real:
            real.append(resolved)
    return [p for p in real if not any(other in p.parents for other in real)]


def scan_roots(environ: Mapping[str, str]) -> list[Path]:
    roots = [Path("/tmp"), Path("/var/tmp"), Path("/var/lib")]
    home = environ.get("HOME", "")
    if home.startswith("/") and home != "/":
        roots.append(Path(home))
    return roots


def plan_sockets(environ: Mapping[str, str], writable: Iterable[Path],
                 keep: Path | None = None) -> SocketPlan:
    """What to mount so that no socket but `keep` is reachable (see the module docstring)."""
    writable = [Path(os.path.realpath(p)) for p in writable]
    keep = Path(os.path.realpath(keep)) if keep is not None else None
    plan = SocketPlan(masked=runtime_dirs(environ))
    found: list[Path] = []
    for root in scan_roots(environ):
        found += _CACHE.sockets(Path(os.path.realpath(root)), SCAN_DEPTH)
    for root in writable:
        found += _CACHE.sockets(root, 1)
    found += named_sockets(environ)
    scan_tops = {Path(os.path.realpath(r)) for r in scan_roots(environ)} | set(writable)
    for sock in dict.fromkeys(found):
        if sock == keep or _inside(sock, plan.masked):
            continue
        folder = sock.parent
        if folder in scan_tops or _touches(folder, writable):
            plan.hidden_files.append(sock)
        elif folder not in plan.hidden_dirs:
            plan.hidden_dirs.append(folder)
    plan.hidden_dirs = [d for d in plan.hidden_dirs if not _inside_any_other(d, plan.hidden_dirs)]
    plan.hidden_files = [f for f in plan.hidden_files if not _inside(f, plan.hidden_dirs)]
    return plan


def named_sockets(environ: Mapping[str, str]) -> list[Path]:
    """Sockets the environment names: a path, `unix:path=...`, `unix://...`, tmux's
    `path,pid,index`, or lists of those."""
    out: list[Path] = []
    for value in environ.values():
        if "/" not in value or len(value) > _MAX_VALUE_LENGTH:
            continue
        for part in value.replace(";", ",").split(","):
            text = part.strip()
            for prefix in _ADDRESS_PREFIXES:
                text = text.removeprefix(prefix)
            if not text.startswith("/"):
                continue
            try:
                if stat.S_ISSOCK(os.stat(text).st_mode):
                    out.append(Path(os.path.realpath(text)))
            except (OSError, ValueError):
                continue
    return out


def _inside(path: Path, folders: Iterable[Path]) -> bool:
    return any(folder == path or folder in path.parents for folder in folders)


def _inside_any_other(path: Path, folders: list[Path]) -> bool:
    return any(other != path and other in path.parents for other in folders)


def _touches(folder: Path, writable: list[Path]) -> bool:
    """Whether hiding `folder` whole would hide a writable path or cover one's parent."""
    return any(folder == w or folder in w.parents or w in folder.parents for w in writable)


class _ListingCache:
    """Folder listings (socket names, subfolder names), reused while the folder's mtime holds."""

    def __init__(self) -> None:
        self._listings: dict[str, tuple[tuple[int, int], list[str], list[str]]] = {}
        self._lock = threading.Lock()

    def sockets(self, root: Path, depth: int) -> list[Path]:
        out: list[Path] = []
        stack = [(str(root), 1)]
        while stack:
            folder, level = stack.pop()
            listing = self._listing(folder)
            if listing is None:
                continue
            sockets, subdirs = listing
            out += [Path(folder, name) for name in sockets]
            if level < depth:
                stack += [(os.path.join(folder, name), level + 1) for name in subdirs]
        return out

    def _listing(self, folder: str) -> tuple[list[str], list[str]] | None:
        try:
            info = os.lstat(folder)
        except OSError:
            return None
        if not stat.S_ISDIR(info.st_mode):
            return None
        key = (info.st_ino, info.st_mtime_ns)
        cached = self._listings.get(folder)
        if cached is not None and cached[0] == key:
            return cached[1], cached[2]
        sockets: list[str] = []
        subdirs: list[str] = []
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    _classify(entry, sockets, subdirs)
        except OSError:
            return None
        with self._lock:
            self._listings[folder] = (key, sockets, subdirs)
        return sockets, subdirs


def _classify(entry: os.DirEntry[str], sockets: list[str], subdirs: list[str]) -> None:
    try:
        if entry.is_dir(follow_symlinks=False):
            subdirs.append(entry.name)
        elif not entry.is_file(follow_symlinks=False) and not entry.is_symlink():
            if stat.S_ISSOCK(entry.stat(follow_symlinks=False).st_mode):
                sockets.append(entry.name)
    except OSError:
        pass


_CACHE = _ListingCache()
