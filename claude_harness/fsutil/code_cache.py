"""The compiled code of the dataclasses' generated methods, kept from one cold start to the next.

Why: every dataclass compiles its methods from source text at class creation (a frozen one
five or six: `__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`). The
~330 a headless run defines cost about 100 ms of a 400 ms cold start, nearly all of it in
`compile`, and the text is the same at every start. So the `exec` the dataclasses module calls
is routed through a table of code objects keyed by that exact text, and the table is kept,
marshalled, in the user's cache directory. Compiling the same text with the same interpreter
gives the same code, so a class made from the table is the class `compile` would have made;
a text not in the table is compiled as before and the table saved at exit.

Safety: the file holds code that runs in this process, so it is used only when it is a regular
file owned by us and writable by nobody else, in a folder no one else can write (the sandbox
keeps Bash commands from writing it: sandbox/paths.py protects it like a virtualenv), written by
this interpreter (its version is in the file). Anything off means the methods are compiled as if
the file did not exist. `CLAUDE_HARNESS_NO_CODE_CACHE=1` turns it off.
"""

from __future__ import annotations

import atexit
import builtins
import marshal
import os
import stat
import sys
from pathlib import Path
from types import CodeType
from typing import Any

from claude_harness.fsutil.atomic import atomic_write_bytes
from claude_harness.warm.place import cache_dir

DISABLE_ENV = "CLAUDE_HARNESS_NO_CODE_CACHE"
_FORMAT = 1
_MAX_BYTES = 8 << 20  # past this, a save keeps only what this process used


def cache_file() -> Path:
    return cache_dir() / f"dataclass-code-{sys.implementation.cache_tag}.marshal"


def _stamp() -> tuple[int, str, int]:
    return (_FORMAT, sys.version, marshal.version)


class CodeCache:
    """Source text → code object; `exec` is what the dataclasses module calls instead of the
    built-in one."""

    def __init__(self, path: Path, codes: dict[str, CodeType]) -> None:
        self.path = path
        self.codes = codes
        self.used: set[str] = set()
        self.compiled = 0  # texts this process had to compile (0: nothing to save)

    def exec(self, source: Any, globals: Any = None, locals: Any = None) -> None:  # noqa: A002
        if type(source) is str:
            code = self.codes.get(source)
            if code is None:
                # dont_inherit: compiled with no __future__ flags, as dataclasses' own exec is
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self.codes[source] = code
                self.compiled += 1
            self.used.add(source)
            source = code
        builtins.exec(source, globals, locals)

    def save(self) -> None:
        """Write the table if this process compiled something (atomically, mode 0600)."""
        if not self.compiled:
            return
        codes = self.codes
        blob = marshal.dumps((_stamp(), codes))
        if len(blob) > _MAX_BYTES:  # old versions' texts pile up: keep what is in use
            blob = marshal.dumps((_stamp(), {t: c for t, c in codes.items() if t in self.used}))
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            atomic_write_bytes(self.path, blob, mode=0o600, follow_symlinks=False)
        except OSError:
            pass  # a cache: the next start compiles again
        self.compiled = 0


def install() -> CodeCache | None:
    """Route dataclasses' compiling through the cache (once per process); None when off."""
    import dataclasses

    current = vars(dataclasses).get("exec")
    if isinstance(getattr(current, "__self__", None), CodeCache):
        return current.__self__  # type: ignore[union-attr, no-any-return]
    if current is not None or os.environ.get(DISABLE_ENV, "").strip().lower() in ("1", "true", "yes"):
        return None
    path = cache_file()
    cache = CodeCache(path, _read(path))
    dataclasses.exec = cache.exec  # type: ignore[attr-defined]
    atexit.register(cache.save)
    return cache


def _read(path: Path) -> dict[str, CodeType]:
    """The saved table, or {} when there is none or it is not beyond doubt ours and whole."""
    try:
        if not _private(path.parent, os.stat(path.parent)):
            return {}
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return {}
    try:
        if not _private(path, os.fstat(fd), regular=True):
            return {}
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            stamp, codes = marshal.loads(fh.read())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    finally:
        if fd >= 0:
            os.close(fd)
    if stamp != _stamp() or type(codes) is not dict \
            or not all(type(t) is str and type(c) is CodeType for t, c in codes.items()):
        return {}
    return codes


def _private(path: Path, info: os.stat_result, *, regular: bool = False) -> bool:
    """Ours and writable by no one else (a regular file, when `regular`)."""
    if regular and not stat.S_ISREG(info.st_mode):
        return False
    return info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
