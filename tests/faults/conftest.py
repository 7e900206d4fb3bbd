"""Fixtures for the fault tests: the e2e project and scripted server, and a tiny real file system
that can be filled up or made read-only (a tmpfs, mounted when we are allowed to mount)."""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.conftest import api, project  # noqa: F401 - fixtures shared with the e2e tests


@dataclass
class TinyFs:
    """A mounted tmpfs of `size` bytes: fill it, free it, make it read-only or writable."""

    root: Path

    def fill(self) -> None:
        """Write a filler file until the file system refuses: ENOSPC for everyone after."""
        fd = os.open(self.root / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            for size in (65_536, 4096, 1):  # big steps, then the last partial page
                try:
                    while os.write(fd, b"\0" * size):
                        pass
                except OSError:
                    pass
        finally:
            os.close(fd)

    def exhaust_inodes(self) -> None:
        """Create empty files until no inode is left: even mkdir fails with ENOSPC."""
        spare = self.root / "inodes"
        spare.mkdir(exist_ok=True)
        try:
            for i in range(1_000_000):
                (spare / str(i)).touch()
        except OSError:
            pass

    def leave_free(self, free_bytes: int) -> None:
        """Fill the file system, then give back about `free_bytes`."""
        self.fill()
        filler = self.root / "filler"
        os.truncate(filler, max(0, filler.stat().st_size - free_bytes))

    def free(self) -> None:
        (self.root / "filler").unlink(missing_ok=True)
        shutil.rmtree(self.root / "inodes", ignore_errors=True)

    def remount(self, option: str) -> None:
        subprocess.run(["mount", "-o", f"remount,{option}", str(self.root)], check=True)


def _can_mount() -> bool:
    return os.geteuid() == 0 and Path("/proc/filesystems").read_text().find("tmpfs") >= 0


@pytest.fixture
def tiny_fs(tmp_path: Path) -> Iterator[TinyFs]:
    """A 256 KiB tmpfs mounted under tmp_path (skipped where mounting is not allowed)."""
    if not _can_mount():
        pytest.skip("mounting a tmpfs needs root")
    root = tmp_path / f"tiny-{uuid.uuid4().hex[:6]}"
    root.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k,nr_inodes=64", "tmpfs",
                           str(root)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield TinyFs(root)
    finally:
        subprocess.run(["umount", "-l", str(root)], check=False)
