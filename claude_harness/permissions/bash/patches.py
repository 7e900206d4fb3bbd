"""The files a patch will write, read from the patch itself (for `git apply` and `patch`).

Why: `git apply p.diff` can create `.claude/settings.json` or `.git/hooks/...`; the command line
does not say so, the patch does. The patch file is read at decision time and every target
(`+++`, `diff --git`, renames and copies) becomes a write; a patch that cannot be read (from a
pipe, too large, missing) makes the targets unknown.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from claude_harness.permissions.bash.effects import Invocation, PathUse
from claude_harness.permissions.bash.options import Arg

MAX_PATCH_BYTES = 2_000_000
_HEADER = re.compile(r"^(?:\+\+\+|---) (\S+)|^diff --git (\S+) (\S+)|^(?:rename|copy) (?:to|from) (.+)$",
                     re.MULTILINE)


def _strip(path: str, n: int) -> str:
    if path == "/dev/null":
        return ""
    parts = path.split("/")
    return "/".join(parts[n:]) if len(parts) > n else parts[-1]


def targets(text: str, strip: int) -> list[str]:
    """Every path a patch touches, with `strip` leading components removed (patch -pN)."""
    out: list[str] = []
    for m in _HEADER.finditer(text):
        for raw in (m.group(1), m.group(2), m.group(3)):
            if raw:
                name = _strip(raw.split("\t", 1)[0], strip)
                if name:
                    out.append(name)
        if m.group(4):
            out.append(m.group(4).strip())
    return out


def patch_writes(args: list[Arg], inv: Invocation, *, strip_default: int,
                 base: Path | None) -> list[PathUse]:
    """Writes of `git apply [opts] PATCH...` / `patch [opts] [-i PATCH]` (stdin: inv.stdin_file),
    relative to `base` (git: the repository root; patch: the working directory)."""
    strip = strip_default
    directory = ""
    sources: list[PathUse] = []
    values = [a.value for a in args]
    skip = False
    for i, value in enumerate(values):
        if skip:
            skip = False
            continue
        if value is None:
            return [PathUse("files named in a patch that cannot be known", None)]
        if re.fullmatch(r"-p\d+", value) or value.startswith("--strip="):
            strip = int(re.sub(r"\D", "", value) or 0)
        elif value == "-p" and i + 1 < len(values):
            strip = int(values[i + 1] or 0) if (values[i + 1] or "").isdigit() else strip
            skip = True
        elif value.startswith("--directory="):
            directory = value.split("=", 1)[1]
        elif value in {"-i", "--input"} and i + 1 < len(values):
            sources.append(_source(values[i + 1], inv))
            skip = True
        elif value.startswith("--input="):
            sources.append(_source(value.split("=", 1)[1], inv))
        elif value in {"-d", "--directory", "-o", "--output", "-r", "--reject-file", "-B",
                       "--prefix", "-D", "--ifdef", "-F", "--fuzz", "-V", "--version-control",
                       "-z", "--suffix", "--exclude", "--include", "--whitespace", "-C",
                       "--build-fake-ancestor"}:
            return [PathUse("files a patch writes (options not modelled)", None)]
        elif not value.startswith("-") or value == "-":
            sources.append(_source(value, inv))
    if not sources:
        sources = [inv.stdin_file or PathUse("a patch on standard input", None)]
    out: list[PathUse] = []
    for source in sources:
        text = _read(source)
        if text is None:
            return [PathUse(f"files named in the patch {source.text}", None)]
        for name in targets(text, strip):
            name = os.path.join(directory, name) if directory else name
            out.append(PathUse(name, (base / name) if base is not None else None))
    return out


def _source(value: str | None, inv: Invocation) -> PathUse:
    if value is None or value == "-":
        return inv.stdin_file or PathUse("a patch on standard input", None)
    path = Path(value) if value.startswith("/") else (inv.cwd / value if inv.cwd else None)
    return PathUse(value, path)


def _read(source: PathUse) -> str | None:
    if source.path is None:
        return None
    try:
        if source.path.stat().st_size > MAX_PATCH_BYTES:
            return None
        return source.path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
