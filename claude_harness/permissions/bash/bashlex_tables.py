"""Load bashlex with its LALR parser tables from a cache file, not rebuilt at every start.

Why: bashlex's copy of PLY builds its tables from the grammar each time it is imported (about
60 ms, most of the first Bash check's cost in a cold process). The tables depend only on the
grammar, so they are computed once and kept as JSON in the user's cache directory, keyed by a
hash of the grammar's productions and precedence, bashlex's table generator and Python's
version. Anything off
(no cache directory, a file unreadable, of another shape or another key) means the tables are
built as before (and the cache rewritten): the parser is the same either way, which
tests/permissions/test_bashlex_tables.py checks table for table.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from claude_harness.fsutil.atomic import atomic_write_text
from claude_harness.warm.place import cache_dir


def load_bashlex() -> ModuleType:
    """`import bashlex`, its tables from the cache when they are there."""
    if "bashlex" in sys.modules:
        return sys.modules["bashlex"]
    spec = importlib.util.find_spec("bashlex")
    if spec is None or spec.loader is None:
        import bashlex  # let the ImportError say what is missing

        return bashlex
    package = importlib.util.module_from_spec(spec)
    sys.modules["bashlex"] = package
    try:
        yacc: Any = importlib.import_module("bashlex.yacc")  # its LRTable is swapped below
        original, lint = yacc.LRTable, yacc.ParserReflect.validate_modules
        yacc.LRTable = _cached_table_class(original)
        # PLY's check for a p_ function defined twice in bashlex's own source: it only warns,
        # and reading and tokenizing parser.py for it cost ~3 ms of the first Bash check
        yacc.ParserReflect.validate_modules = _no_lint
        try:
            spec.loader.exec_module(package)
        finally:
            yacc.LRTable, yacc.ParserReflect.validate_modules = original, lint
    except Exception:
        for name in [n for n in sys.modules if n == "bashlex" or n.startswith("bashlex.")]:
            del sys.modules[name]
        import bashlex  # as before, tables built

        return bashlex
    return package


def _no_lint(_reflect: Any) -> None:
    return None


def grammar_key(grammar: Any) -> str:
    """The grammar's productions and precedence, and which table generator (bashlex's copy of
    PLY, by its content) under which Python: an upgrade of either gets tables of its own, and
    a reinstall of the same versions (a new venv) finds the tables the last one saved."""
    yacc_file = sys.modules["bashlex.yacc"].__file__ or ""
    try:
        generator = hashlib.sha256(Path(yacc_file).read_bytes()).hexdigest()
    except OSError:
        generator = yacc_file
    parts = [generator, sys.version, repr(grammar.Precedence),
             repr([(p.name, p.prod, p.prec) for p in grammar.Productions])]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _cached_table_class(original: type) -> type:
    class CachedLRTable(original):  # type: ignore[misc, valid-type]
        """The tables from the cache file for this grammar, or built and then saved."""

        def __init__(self, grammar: Any, log: Any = None) -> None:
            key = grammar_key(grammar)
            path = cache_dir() / f"bashlex-tables-{key[:16]}.json"
            tables = _read(path, key)
            if tables is None:
                super().__init__(grammar, log)
                _write(path, key, self.lr_action, self.lr_goto)
                return
            self.grammar = grammar
            self.log = log
            self.lr_action, self.lr_goto = tables
            self.lr_productions = grammar.Productions
            self.sr_conflicts, self.rr_conflicts = [], []

    return CachedLRTable


def _read(path: Path, key: str) -> tuple[dict[int, dict[str, int]], dict[int, dict[str, int]]]\
        | None:
    try:
        data = json.loads(path.read_bytes())
        if data.get("key") != key:
            return None
        return _states(data["action"]), _states(data["goto"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _states(rows: Any) -> dict[int, dict[str, int]]:
    """[[state, {symbol: n}], ...] back to PLY's {state: {symbol: n}}; ValueError if the shape
    is anything else."""
    table: dict[int, dict[str, int]] = {}
    for state, row in rows:
        # the types of a row's keys and values, gathered in C (a per-entry check in Python
        # cost ~2 ms of the first Bash check: 8,000 entries)
        if type(state) is not int or type(row) is not dict \
                or not set(map(type, row)) <= _STR or not set(map(type, row.values())) <= _INT:
            raise ValueError("not a parser table")
        table[state] = row
    return table


_STR, _INT = {str}, {int}


def _write(path: Path, key: str, action: dict[int, dict[str, int]],
           goto: dict[int, dict[str, int]]) -> None:
    """Atomically (fsutil's writer: a reader never sees half a file); silently nothing when it
    cannot."""
    data = json.dumps({"key": key, "action": [[s, r] for s, r in action.items()],
                       "goto": [[s, r] for s, r in goto.items()]})
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        atomic_write_text(path, data)
    except OSError:
        pass
