"""Bounded capture of one output stream: a head, a tail ring and a byte count.

A command may print gigabytes; the model only ever sees about 30 000 characters of it, cut in the
middle. Holding the whole stream to cut it afterwards would let `yes` exhaust our memory, so the
capture keeps the first `head_limit` bytes, a ring of the last `tail_limit` bytes, and counts the
rest. It also keeps a small "recent" buffer for live progress, and, while the stream might still be
an image (its first bytes carry an image signature), the whole stream up to an image size cap.

A `sink` sees every chunk too: the command's OutputFile, so nothing past the bounds is lost.

Writes come from a reader thread and reads from the event loop, so every method takes the lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from claude_harness.tools.bash.image import IMAGE_SNIFF_BYTES, sniff_image

DEFAULT_HEAD_BYTES = 15_000
DEFAULT_TAIL_BYTES = 15_000
RECENT_BYTES = 4_096  # what a progress event may carry: the latest output, not all of it


@dataclass(frozen=True)
class CapturedText:
    """What a capture held when it was read: kept text plus how many bytes were left out."""

    head: str
    tail: str
    omitted_bytes: int
    total_bytes: int

    def render(self, stream_name: str) -> str:
        """The text with a note where the middle was dropped."""
        if not self.omitted_bytes:
            return self.head + self.tail
        note = (
            f"\n[... {self.omitted_bytes:,} bytes of {stream_name} cut from the middle "
            f"({self.total_bytes:,} bytes in total) ...]\n"
        )
        return self.head + note + self.tail

    @property
    def kept_chars(self) -> int:
        return len(self.head) + len(self.tail)

    def shrink(self, limit: int) -> CapturedText:
        """Drop more of the middle so at most `limit` characters are kept (counted as omitted)."""
        if self.kept_chars <= limit:
            return self
        tail_keep = min(len(self.tail), limit - min(len(self.head), limit // 2))
        head_keep = min(len(self.head), limit - tail_keep)
        head, tail = self.head[:head_keep], self.tail[len(self.tail) - tail_keep :]
        dropped = self.head[head_keep:] + self.tail[: len(self.tail) - tail_keep]
        return CapturedText(
            head, tail, self.omitted_bytes + len(dropped.encode("utf-8", "replace")), self.total_bytes
        )


def fit_streams(stdout: CapturedText, stderr: CapturedText, limit: int) -> tuple[str, str]:
    """Render both streams within `limit` characters together, each cut in its own middle.

    A stream that fits in half the budget keeps all of it; the other gets the rest, so a quiet
    stderr never loses its few lines to a flood on stdout (or the other way round).
    """
    small, large = sorted((stdout, stderr), key=lambda c: c.kept_chars)
    small_fit = small.shrink(max(limit // 2, limit - large.kept_chars))
    large_fit = large.shrink(limit - small_fit.kept_chars)
    fitted = {id(small): small_fit, id(large): large_fit}
    return fitted[id(stdout)].render("stdout"), fitted[id(stderr)].render("stderr")


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


class StreamCapture:
    """Bounded, thread-safe sink for one stream (stdout or stderr)."""

    def __init__(
        self,
        head_limit: int = DEFAULT_HEAD_BYTES,
        tail_limit: int = DEFAULT_TAIL_BYTES,
        image_limit: int = 0,
        sink: Callable[[bytes], None] | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._sink = sink
        self._head_limit = head_limit
        self._tail_limit = tail_limit
        self._image_limit = image_limit
        self._reset()

    def _reset(self) -> None:
        self._head = bytearray()
        self._tail = bytearray()
        self._total = 0
        self._recent = bytearray()
        self._recent_dropped = 0
        # None once the stream is known not to be a (small enough) image.
        self._full: bytearray | None = bytearray() if self._image_limit else None
        self._oversized_image: str | None = None  # media type of an image over the limit

    # -- writing (reader thread) -------------------------------------------------------------

    def write(self, chunk: bytes) -> None:
        if not chunk:
            return
        # The file first: whatever TaskOutput can show from memory is then already on disk, so
        # a Read of the output file right after never sees less than TaskOutput did.
        if self._sink is not None:
            self._sink(chunk)
        with self._lock:
            self._total += len(chunk)
            self._keep_head_and_tail(chunk)
            self._keep_recent(chunk)
            self._keep_full(chunk)

    def _keep_head_and_tail(self, chunk: bytes) -> None:
        room = self._head_limit - len(self._head)
        if room > 0:
            self._head += chunk[:room]
            chunk = chunk[room:]
        if not chunk:
            return
        self._tail += chunk
        excess = len(self._tail) - self._tail_limit
        if excess > 0:
            del self._tail[:excess]

    def _keep_recent(self, chunk: bytes) -> None:
        self._recent += chunk
        excess = len(self._recent) - RECENT_BYTES
        if excess > 0:
            self._recent_dropped += excess
            del self._recent[:excess]

    def _keep_full(self, chunk: bytes) -> None:
        if self._full is None:
            return
        self._full += chunk
        if len(self._full) >= IMAGE_SNIFF_BYTES and sniff_image(bytes(self._full)) is None:
            self._full = None
        elif len(self._full) > self._image_limit:
            self._oversized_image = sniff_image(bytes(self._full[:IMAGE_SNIFF_BYTES]))
            self._full = None

    # -- reading (event loop) ----------------------------------------------------------------

    @property
    def total_bytes(self) -> int:
        with self._lock:
            return self._total

    def take_recent(self) -> str:
        """Output written since the last call (at most RECENT_BYTES of it), for progress events."""
        with self._lock:
            data, dropped = bytes(self._recent), self._recent_dropped
            self._recent.clear()
            self._recent_dropped = 0
        text = _decode(data)
        return f"[... {dropped:,} bytes ...]\n{text}" if dropped else text

    def snapshot(self) -> CapturedText:
        with self._lock:
            return self._snapshot_locked()

    def take(self) -> CapturedText:
        """Everything held since the last take, then start afresh (background shells' reads)."""
        with self._lock:
            snap = self._snapshot_locked()
            self._reset()
            return snap

    def _snapshot_locked(self) -> CapturedText:
        omitted = self._total - len(self._head) - len(self._tail)
        return CapturedText(_decode(bytes(self._head)), _decode(bytes(self._tail)), omitted, self._total)

    def image_bytes(self) -> bytes | None:
        """The whole stream when it is an image no larger than the image limit."""
        with self._lock:
            if self._full is None or sniff_image(bytes(self._full[:IMAGE_SNIFF_BYTES])) is None:
                return None
            return bytes(self._full)

    def oversized_image(self) -> str | None:
        """The media type when the stream started like an image but outgrew the image limit."""
        with self._lock:
            return self._oversized_image
