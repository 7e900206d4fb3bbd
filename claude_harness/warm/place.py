"""Where the warm process listens, and whether it may be used at all.

Why a key in the socket's name: a daemon serves only the exact code it imported. The key hashes
the package version, the interpreter, the install location and the newest modification time of
the package's files (an editable edit or an upgrade changes it), and the interpreter settings
that shape the standard streams; a run with another key never reaches an old daemon (that one
idles out). The directory must be ours alone (mode 0700, owned by our uid): anyone who could
bind a socket there could run our prompts with our credentials.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import zlib
from pathlib import Path

DISABLE_ENV = "CLAUDE_HARNESS_NO_DAEMON"
CACHE_DIR_ENV = "CLAUDE_HARNESS_CACHE_DIR"
RUNTIME_DIR_ENV = "CLAUDE_HARNESS_RUNTIME_DIR"  # a private directory of one's own (tests)
_PACKAGE_DIR = Path(__file__).resolve().parent.parent
# Read by the interpreter at start-up (stream encodings, flags): a child forked from a daemon
# started with other values would not behave as a cold run.
_INTERPRETER_ENV = ("PYTHONIOENCODING", "PYTHONUTF8", "PYTHONUNBUFFERED", "PYTHONPATH",
                    "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "PYTHONWARNINGS", "LANG",
                    "LC_ALL", "LC_CTYPE")


def cache_dir() -> Path:
    """The harness's cache folder: what cold starts keep for the next one (the Bash parser's
    tables, the dataclasses' compiled code). $CLAUDE_HARNESS_CACHE_DIR, else
    $XDG_CACHE_HOME/claude-harness or ~/.cache/claude-harness."""
    override = os.environ.get(CACHE_DIR_ENV)
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "claude-harness"


def disabled(env: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """CLAUDE_HARNESS_NO_DAEMON=1, or `"warmStart": false` in the user's settings."""
    if env.get(DISABLE_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
        return True
    return not _setting_allows(env)


def _setting_allows(env: dict[str, str] | os._Environ[str]) -> bool:
    config = env.get("CLAUDE_CONFIG_DIR") or os.path.join(env.get("HOME") or "~", ".claude")
    try:
        with open(os.path.join(os.path.expanduser(config), "settings.json"), "rb") as fh:
            settings = json.loads(fh.read() or b"{}")
    except (OSError, ValueError):
        return True  # no settings file, or one the run itself will report: the default
    return not (isinstance(settings, dict) and settings.get("warmStart") is False)


def private_dir(path: Path) -> bool:
    """A real directory (no symlink), owned by us, closed to everyone else."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return (stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()
            and not info.st_mode & 0o077)


def runtime_dir(*, create: bool) -> Path | None:
    """The private directory for the socket: $CLAUDE_HARNESS_RUNTIME_DIR, else
    $XDG_RUNTIME_DIR/claude-harness, else /tmp/claude-harness-warm-<uid>; None when it is not
    ours alone (then there is no warm start). Never the sandbox's temp folder
    (/tmp/claude-harness-<uid>, writable inside the sandbox): a sandboxed command could plant a
    socket there and be handed the next run's arguments, environment and streams."""
    override = os.environ.get(RUNTIME_DIR_ENV)
    if override:
        candidates = [Path(override)]
    else:
        xdg = os.environ.get("XDG_RUNTIME_DIR")
        base = [Path(xdg) / "claude-harness"] if xdg and private_dir(Path(xdg)) else []
        candidates = [*base, Path(f"/tmp/claude-harness-warm-{os.getuid()}")]
    directory = candidates[0]
    if create and not os.path.lexists(directory):
        try:
            os.mkdir(directory, 0o700)
        except OSError:
            return None
    return directory if private_dir(directory) else None


def install_key() -> str:
    """What the running code is: see the module's docstring."""
    from claude_harness import __version__

    newest, count = 0, 0
    for root, dirs, files in os.walk(_PACKAGE_DIR):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                count += 1
                newest = max(newest, os.stat(os.path.join(root, name)).st_mtime_ns)
    site = [p for p in sys.path if p.endswith("site-packages")]
    site_times = [_mtime(p) for p in site]
    parts = [__version__, sys.prefix, os.path.realpath(sys.executable), sys.version, str(_PACKAGE_DIR), str(newest), str(count),
             repr(site_times), repr(sys.flags), repr(sorted(sys._xoptions.items())),
             *(f"{k}={os.environ.get(k, '')}" for k in _INTERPRETER_ENV)]
    digest = zlib.crc32("\0".join(parts).encode("utf-8", "surrogateescape"))
    return f"{__version__}-{digest:08x}"


def _mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def socket_path(directory: Path, key: str) -> Path:
    return directory / f"warm-{key}.sock"
