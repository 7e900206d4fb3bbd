"""Content-addressed blobs for file checkpoints: each version stored once, mostly as a delta.

A version is named by a hash of its bytes, so a file that goes back to an earlier state, or two
files with the same text, cost nothing more. Most versions differ from the previous version of
the same file by one edit, so a version is stored as "the base's first P bytes, this middle, the
base's last S bytes" (one compressed middle, usually a few hundred bytes), or compressed whole
when that is smaller. Every MAX_CHAIN deltas a whole copy is stored, so decoding any version
reads at most MAX_CHAIN + 1 blobs.

All blobs of a session live in ONE append-only pack file (a thousand small files would each take
a disk block): record = b"CB" + digest (16 bytes) + payload length (4 bytes) + payload, where the
payload is b"F" + deflate(content) or b"D" + depth (1) + base digest (16) + prefix and suffix
lengths (varints) + deflate(middle). Each record is appended and fsynced before the tool changes
the file; a record cut by a crash is dropped when the pack is opened again.
"""

from __future__ import annotations

import hashlib
import os
import struct
import threading
import zlib
from collections import OrderedDict
from pathlib import Path

MAX_CHAIN = 32
COMPRESS_LEVEL = 6
DIGEST_BYTES = 16
_RECORD = struct.Struct(f">2s{DIGEST_BYTES}sI")
_DELTA = struct.Struct(f">B{DIGEST_BYTES}s")  # then two varints: prefix, suffix
_MAGIC = b"CB"
_CACHE_BYTES = 16 * 1024 * 1024  # decoded versions kept in memory (chains share their bases)


def content_hash(data: bytes) -> str:
    """The name of a version: 128 bits of BLAKE2b, hex (collisions are not a practical risk)."""
    return hashlib.blake2b(data, digest_size=DIGEST_BYTES).hexdigest()


def common_prefix(a: bytes, b: bytes) -> int:
    """Length of the longest common prefix (binary search over C-speed slice comparisons)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """Length of the longest common suffix, at most `limit` (so it never overlaps the prefix)."""
    lo, hi = 0, min(len(a), len(b), limit)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _deflate(data: bytes) -> bytes:
    """Raw deflate: zlib's stream without its 6 bytes of header and checksum (the content hash
    already checks every decoded version)."""
    packer = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def _inflate(data: bytes) -> bytes:
    return zlib.decompress(data, -15)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _read_varint(data: bytes, offset: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[offset]
        offset += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, offset


class BlobError(Exception):
    """A blob is missing or damaged: that version cannot be restored."""


class BlobStore:
    """Put and get file versions by content hash. Thread-safe (tools write from worker threads)."""

    def __init__(self, pack: Path) -> None:
        self.pack = pack
        self._lock = threading.Lock()
        self._where: dict[str, tuple[int, int]] = {}  # digest -> (payload offset, length)
        self._depths: dict[str, int] = {}
        self._cache: OrderedDict[str, bytes] = OrderedDict()
        self._cached_bytes = 0
        self._scan()

    def has(self, digest: str) -> bool:
        return digest in self._where

    def __len__(self) -> int:
        return len(self._where)

    def put(self, data: bytes, base: str | None = None) -> str:
        """Store `data` (a delta against `base` when that is smaller); return its hash."""
        return self.put_many([(data, base)])[0]

    def put_many(self, items: list[tuple[bytes, str | None]]) -> list[str]:
        """Store several versions with one append and one fsync; their hashes, in order."""
        digests = [content_hash(data) for data, _ in items]
        with self._lock:
            records: list[tuple[str, bytes]] = []
            for digest, (data, base) in zip(digests, items, strict=True):
                if digest not in self._where and digest not in dict(records):
                    records.append((digest, self._encode(data, base)))
                    self._remember(digest, data)
            if records:
                self._append(records)
        return digests

    def get(self, digest: str) -> bytes:
        """The bytes of a stored version; BlobError if it is missing or does not check out."""
        with self._lock:
            return self._get_locked(digest)

    def stored_bytes(self) -> int:
        """Bytes on disk (the benchmark's storage figure)."""
        return self.pack.stat().st_size if self.pack.exists() else 0

    # ── encoding ───────────────────────────────────────────────────────────────────────────

    def _encode(self, data: bytes, base: str | None) -> bytes:
        whole = b"F" + _deflate(data)
        if base is None or base not in self._where:
            return whole
        depth = self._depths.get(base, 0) + 1
        if depth > MAX_CHAIN:
            return whole
        try:
            base_data = self._get_locked(base)
        except BlobError:
            return whole
        prefix = common_prefix(base_data, data)
        suffix = common_suffix(base_data, data, min(len(base_data), len(data)) - prefix)
        middle = data[prefix : len(data) - suffix]
        header = _DELTA.pack(depth, bytes.fromhex(base)) + _varint(prefix) + _varint(suffix)
        delta = b"D" + header + _deflate(middle)
        return delta if len(delta) < len(whole) else whole

    def _get_locked(self, digest: str) -> bytes:
        cached = self._cache.get(digest)
        if cached is not None:
            self._cache.move_to_end(digest)
            return cached
        payload = self._read(digest)
        try:
            if payload[:1] == b"F":
                data = _inflate(payload[1:])
            elif payload[:1] == b"D":
                _, base = _DELTA.unpack_from(payload, 1)
                prefix, offset = _read_varint(payload, 1 + _DELTA.size)
                suffix, offset = _read_varint(payload, offset)
                base_data = self._get_locked(base.hex())
                middle = _inflate(payload[offset:])
                data = base_data[:prefix] + middle + base_data[len(base_data) - suffix :]
            else:
                raise BlobError(f"blob {digest[:12]} has an unknown format")
        except (zlib.error, struct.error, IndexError) as exc:
            raise BlobError(f"blob {digest[:12]} is damaged ({exc})") from exc
        if content_hash(data) != digest:
            raise BlobError(f"blob {digest[:12]} does not match its hash")
        self._remember(digest, data)
        return data

    def _remember(self, digest: str, data: bytes) -> None:
        if len(data) > _CACHE_BYTES // 4:
            return
        self._cache[digest] = data
        self._cached_bytes += len(data)
        while self._cached_bytes > _CACHE_BYTES:
            _, dropped = self._cache.popitem(last=False)
            self._cached_bytes -= len(dropped)

    # ── the pack file ──────────────────────────────────────────────────────────────────────

    def _scan(self) -> None:
        """Index every whole record; cut off a record a crash left half-written."""
        try:
            raw = self.pack.read_bytes()
        except FileNotFoundError:
            return
        offset = 0
        while offset + _RECORD.size <= len(raw):
            magic, digest, length = _RECORD.unpack_from(raw, offset)
            start = offset + _RECORD.size
            if magic != _MAGIC or start + length > len(raw):
                break
            key = digest.hex()
            self._where[key] = (start, length)
            if raw[start : start + 1] == b"D":
                self._depths[key] = _DELTA.unpack_from(raw, start + 1)[0]
            offset = start + length
        if offset < len(raw):
            with open(self.pack, "r+b") as handle:
                handle.truncate(offset)

    def _append(self, records: list[tuple[str, bytes]]) -> None:
        self.pack.parent.mkdir(parents=True, exist_ok=True)
        with open(self.pack, "ab") as handle:
            offset = handle.tell()
            chunks, places = [], []
            for digest, payload in records:
                places.append((digest, offset + _RECORD.size, payload))
                chunk = _RECORD.pack(_MAGIC, bytes.fromhex(digest), len(payload)) + payload
                chunks.append(chunk)
                offset += len(chunk)
            try:
                handle.write(b"".join(chunks))
                handle.flush()
                os.fsync(handle.fileno())
            except BaseException:  # a half-written record would hide every later one
                handle.truncate(places[0][1] - _RECORD.size)
                raise
        for digest, start, payload in places:
            self._where[digest] = (start, len(payload))
            if payload[:1] == b"D":
                self._depths[digest] = _DELTA.unpack_from(payload, 1)[0]

    def _read(self, digest: str) -> bytes:
        where = self._where.get(digest)
        if where is None:
            raise BlobError(f"blob {digest[:12]} is missing")
        offset, length = where
        try:
            with open(self.pack, "rb") as handle:
                handle.seek(offset)
                payload = handle.read(length)
        except OSError as exc:
            raise BlobError(f"blob {digest[:12]} cannot be read ({exc.strerror or exc})") from exc
        if len(payload) != length:
            raise BlobError(f"blob {digest[:12]} is cut short")
        return payload
