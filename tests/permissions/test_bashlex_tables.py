"""bashlex's parser tables from the cache file are the tables bashlex builds, and the parser
they make reads commands exactly as the one built from scratch; a damaged cache file is
rebuilt, never trusted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

COMMANDS = [
    "ls -la | grep foo > out.txt 2>&1",
    "for f in *.py; do echo \"$f\"; done && rm -rf build || true",
    "echo $(cat <(ls) | wc -l) `date`; x=1 y=2 env",
    "if [ -f a ]; then cat a; elif b; then :; else exit 1; fi",
    "cat <<EOF\nhello $USER\nEOF\n",
    "case $x in a|b) echo ab;; *) echo other;; esac",  # bashlex cannot: the same error
    "{ echo a; echo b; } | (sort; uniq) &",
    "f() { echo inside; }; f",
]

PROBE = """
import json, sys
from claude_harness.permissions.bash.bashlex_tables import load_bashlex
bashlex = load_bashlex()
parser = bashlex.parser.yaccparser
trees = []
for command in json.loads(sys.argv[1]):
    try:
        trees.append([node.dump() for node in bashlex.parse(command)])
    except Exception as exc:
        trees.append(f"error: {exc}")
print(json.dumps({"action": sorted((s, sorted(r.items())) for s, r in parser.action.items()),
                  "goto": sorted((s, sorted(r.items())) for s, r in parser.goto.items()),
                  "trees": trees}))
"""


def probe(cache: Path) -> dict:
    env = {**os.environ, "CLAUDE_HARNESS_CACHE_DIR": str(cache)}
    result = subprocess.run([sys.executable, "-c", PROBE, json.dumps(COMMANDS)], env=env,
                            capture_output=True, text=True, check=True, timeout=120)
    return json.loads(result.stdout)


def test_cached_tables_parse_as_the_built_ones(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    built = probe(cache)  # no cache yet: built, then written
    (table,) = cache.glob("bashlex-tables-*.json")
    assert oct(cache.stat().st_mode & 0o777) == "0o700"
    cached = probe(cache)
    assert cached == built
    unread = [c for c, tree in zip(COMMANDS, built["trees"], strict=True) if isinstance(tree, str)]
    assert unread == [c for c in COMMANDS if c.startswith("case")]


def test_a_damaged_cache_file_is_rebuilt(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    built = probe(cache)
    (table,) = cache.glob("bashlex-tables-*.json")
    data = json.loads(table.read_text())
    data["action"][0][1] = {"WORD": "not a number"}
    table.write_text(json.dumps(data))
    assert probe(cache) == built
    assert json.loads(table.read_text())["action"] != data["action"]  # rewritten
    table.write_text("{truncated")
    assert probe(cache) == built


def test_an_unwritable_cache_directory_still_parses(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert probe(tmp_path / "cache") == probe(blocker / "cache")  # cannot be created


def test_a_reinstall_of_the_same_bashlex_reads_the_tables_saved_before(tmp_path: Path) -> None:
    """A new venv (the same bashlex copied again, its files newer) finds the saved tables: the
    key is the table generator's content, not its file's time."""
    import shutil

    import bashlex

    cache = tmp_path / "cache"
    installs = []
    for name in ("venv-a", "venv-b"):
        site = tmp_path / name
        shutil.copytree(Path(bashlex.__file__).parent, site / "bashlex")
        os.utime(site / "bashlex" / "yacc.py", ns=(len(installs) + 1, len(installs) + 1))
        installs.append(site)
    env = {**os.environ, "CLAUDE_HARNESS_CACHE_DIR": str(cache)}
    written = []
    for site in installs:
        subprocess.run([sys.executable, "-c", PROBE, json.dumps(COMMANDS)],
                       env={**env, "PYTHONPATH": f"{site}{os.pathsep}{os.getcwd()}"},
                       capture_output=True, text=True, check=True, timeout=120)
        written += [(t.name, t.stat().st_mtime_ns) for t in cache.glob("bashlex-tables-*.json")]
    assert len(written) == 2 and written[0] == written[1]  # read, not built and written again
