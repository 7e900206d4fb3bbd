"""Everything a command printed, stdout and stderr in arrival order, in a file the model can Read.

The inline result shows at most BASH_MAX_OUTPUT_LENGTH characters; what does not fit is not
thrown away but kept here, and the result says where. Small outputs never touch the disk: bytes
are held in memory until they pass `spill_at`, then the file is created with them and every later
chunk is appended as it arrives (unbuffered, so a Read of a background shell's file sees the
latest output). A runaway command stops being recorded at MAX_FILE_BYTES.

Writes come from the process's reader thread; every method takes the lock.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import BinaryIO

MAX_FILE_BYTES = 256 * 1024 * 1024


class OutputFile:
    def __init__(self, path: Path, spill_at: int, max_bytes: int = MAX_FILE_BYTES) -> None:
        self.path = path
        self._spill_at = spill_at
        self._max_bytes = max_bytes
        self._lock = threading.Lock()
        self._buffer = bytearray()
        self._handle: BinaryIO | None = None
        self._total = 0
        self._kept = 0
        self._failed = ""

    # ── writing (reader thread) ────────────────────────────────────────────────────────────

    def write(self, chunk: bytes) -> None:
        with self._lock:
            self._total += len(chunk)
            if self._handle is None and not self._failed:
                self._buffer += chunk
                if len(self._buffer) > self._spill_at:
                    self._open_locked()
            elif self._handle is not None:
                self._append_locked(chunk)

    def spill(self) -> Path:
        """Put what was printed so far on disk and keep appending (a command going background)."""
        with self._lock:
            if self._handle is None and not self._failed:
                self._open_locked()
        return self.path

    def _open_locked(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._handle = open(self.path, "wb", buffering=0)  # noqa: SIM115 - kept open
        except OSError as exc:
            self._failed = exc.strerror or str(exc)
            self._buffer.clear()
            return
        pending, self._buffer = bytes(self._buffer), bytearray()
        self._append_locked(pending)

    def _append_locked(self, chunk: bytes) -> None:
        assert self._handle is not None
        room = self._max_bytes - self._kept
        if room <= 0:
            return
        try:
            self._handle.write(chunk[:room])
        except OSError as exc:
            self._failed = exc.strerror or str(exc)
            self._close_locked()
            return
        self._kept += min(len(chunk), room)

    # ── reading ────────────────────────────────────────────────────────────────────────────

    @property
    def spilled(self) -> bool:
        """The output is (also) on disk at `path`."""
        with self._lock:
            return self._handle is not None or self._kept > 0

    @property
    def total_bytes(self) -> int:
        with self._lock:
            return self._total

    @property
    def problem(self) -> str:
        """Why the file could not be written, if it could not."""
        return self._failed

    def close(self) -> None:
        with self._lock:
            self._close_locked()

    def _close_locked(self) -> None:
        if self._handle is not None:
            try:
                self._handle.close()
            except OSError:
                pass
            self._handle = None
