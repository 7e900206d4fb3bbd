"""Replace a file so that a reader, a crash or a full disk sees the old content or the new one,
never a mix, and the file stays what it was (its mode and owner).

The steps: the new content goes to a temp file with a unique name beside the target (same
folder, so the rename cannot cross file systems), is flushed and fsynced; the temp file gets
the old file's permission bits and owner (a new file: the umask's usual mode, or `mode`); it is
renamed over the target and the folder is fsynced, so the rename itself survives a power cut.
Any failure removes the temp file and leaves the target untouched.

A symlink is written through, as Claude Code does: the link stays, the file it points to gets
the new content (replacing the link by a regular file would silently detach, say, a dotfile
managed from another folder).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile

StrPath = str | os.PathLike[str]


def write_target(path: StrPath) -> str:
    """The file a write to `path` changes: the end of its symlinks, or `path` itself."""
    return os.path.realpath(os.fspath(path))


def fsync_dir(folder: StrPath) -> None:
    """Make a rename in `folder` durable (best effort: some file systems cannot)."""
    try:
        fd = os.open(os.fspath(folder), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _current_umask() -> int:
    """The umask, read without changing it where the OS allows (os.umask() sets it to learn
    it, and a file another thread creates in that instant would get the wrong mode)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for row in status:
                if row.startswith("Umask:"):
                    return int(row.split()[1], 8)
    except (OSError, ValueError):
        pass
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


def _keep_identity(tmp: str, target: str, mode: int | None) -> None:
    """Give the temp file the target's mode and owner (a new file: `mode` or 0666 & ~umask)."""
    try:
        old = os.stat(target)
    except FileNotFoundError:
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_current_umask())
        return
    os.chmod(tmp, stat.S_IMODE(old.st_mode) if mode is None else mode)
    if (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
        with contextlib.suppress(OSError):  # not ours to give away; the content still lands
            os.chown(tmp, old.st_uid, old.st_gid)


def prepare_beside(target: str, data: bytes, *, mode: int | None = None,
                   tmp: str | None = None) -> str:
    """Write `data` to a fsynced temp file beside `target` with its mode and owner; returns the
    temp file's path (for a caller that renames several at once, like a rewind). `tmp` names
    it (a journal records the name before); by default a unique one. Cleans up on failure."""
    folder = os.path.dirname(target) or "."
    if tmp is None:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                                   dir=folder)
    else:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        _keep_identity(tmp, target, mode)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def atomic_write_bytes(path: StrPath, data: bytes, *, mode: int | None = None,
                       follow_symlinks: bool = True) -> os.stat_result:
    """Replace the file at `path` with `data` atomically (see the module docstring); returns
    the new file's stat. `mode` forces the permission bits (a token file: 0o600). Raises
    OSError (the target untouched, no temp file left) when it cannot."""
    target = write_target(path) if follow_symlinks else os.fspath(path)
    tmp = prepare_beside(target, data, mode=mode)
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(os.path.dirname(target) or ".")
    return os.stat(target)


def atomic_write_text(path: StrPath, text: str, *, encoding: str = "utf-8",
                      errors: str = "strict", mode: int | None = None,
                      follow_symlinks: bool = True) -> os.stat_result:
    """`atomic_write_bytes` of `text` encoded (newlines written as given)."""
    return atomic_write_bytes(path, text.encode(encoding, errors), mode=mode,
                              follow_symlinks=follow_symlinks)
