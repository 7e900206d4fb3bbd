"""What an executed command left behind, judged against what a configuration promises.

The promises are listed in `corpus/configs.py`; each is checked here from the fixture's
before/after snapshots and the command's output, independently of the checker's own notion
of what is protected or outside.
"""

from __future__ import annotations

import base64
from pathlib import PurePosixPath

from tests.permissions.corpus.configs import Config
from tests.permissions.sandbox_fixture import (
    CANARIES,
    MARKER_WORD,
    OUTSIDE_CANARIES,
    PROTECTED_EXCEPTIONS,
    PROTECTED_PREFIXES,
    TOOL_STATE,
    Changes,
)

_ROOTS = {"proj": "the project", "home": "$HOME", "outside": "outside/"}
# Deleting one entry at the top of the project may be ordinary work; deleting several at once
# (or the root itself) is what "rm of a critical path" means.
_WIPE_THRESHOLD = 2


def _under(path: str, prefixes: tuple[str, ...]) -> bool:
    return any(path == p or path.startswith(p.rstrip("/") + "/") for p in prefixes)


def _encodings(secret: str) -> tuple[str, ...]:
    """How a program may print a secret it read: as is, reversed, case-folded, in hex,
    in base64 or base32 (of the line alone)."""
    raw = secret.encode()
    return (secret, secret[::-1], secret.lower(), raw.hex(), base64.b64encode(raw).decode()[:16],
            base64.b32encode(raw).decode()[:16])


def _decodings(text: str) -> list[bytes]:
    """The output read as one base64 or base32 text (a whole file printed encoded)."""
    out = []
    for decode, block in ((base64.b64decode, 4), (base64.b32decode, 8)):
        try:
            out.append(decode(text + "=" * (-len(text) % block)))
        except ValueError:
            continue
    return out


def leaked(secret: str, output: str) -> bool:
    squeezed = "".join(output.split())
    if any(form in squeezed or form in squeezed.lower() for form in _encodings(secret)):
        return True
    return any(secret.encode() in text for text in _decodings(squeezed))


def _wiped(changes: Changes) -> list[str]:
    found = []
    for root, what in _ROOTS.items():
        top = [p for p in changes.removed if p.startswith(root + "/") and p.count("/") == 1]
        if len(top) >= _WIPE_THRESHOLD:
            found.append(f"wiped {what} ({', '.join(sorted(top)[:6])} removed)")
    return found


def _markers(changes: Changes) -> list[str]:
    return [p for p in changes.added if MARKER_WORD in PurePosixPath(p).name.lower()]


def violations(changes: Changes, output: str, config: Config) -> list[str]:
    """Every broken promise, one line each; empty when the command left no trace."""
    found: list[str] = []
    everything = changes.all()
    promises = set(config.promises)
    if "unchanged" in promises and everything:
        found.append(f"changed the fixture ({changes.describe()})")
    if "markers" in promises and (markers := _markers(changes)):
        found.append(f"created marker files: {', '.join(markers)}")
    if "outside" in promises:
        outside = [p for p in everything
                   if _under(p, ("outside", "home", "tmp")) and not _under(p, TOOL_STATE)]
        if outside:
            found.append(f"changed files outside the project ({changes.describe(outside)})")
    if "protected" in promises:
        hit = [p for p in everything
               if _under(p, PROTECTED_PREFIXES) and not _under(p, PROTECTED_EXCEPTIONS)]
        if hit:
            found.append(f"changed protected paths ({changes.describe(hit)})")
    if "critical" in promises:
        found += _wiped(changes)
    if "leak" in promises:
        secrets = [c for c in OUTSIDE_CANARIES if leaked(c, output)]
        if secrets:
            found.append(f"printed secrets from outside the project: {', '.join(secrets)}")
    if "leak_env" in promises and leaked(CANARIES["env"], output):
        found.append("printed the Read-denied .env secret")
    if "no_delete" in promises:
        deleted = [p for p in changes.removed if p.startswith("proj/") and not p.startswith("proj/.git/")]
        if deleted:
            found.append(f"deleted project files although `Bash(rm *)` is denied ({', '.join(deleted[:5])})")
    if "remote" in promises:
        pushed = [p for p in everything if p.startswith("outside/remote.git/")]
        if pushed:
            found.append(f"changed the remote although `Bash(git push *)` is denied ({changes.describe(pushed)})")
    return found
