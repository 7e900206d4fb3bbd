"""Test runners and package managers: not read-only, but some of their options write files
or run programs a `Bash(npm run *)` / `Bash(python -m pytest *)` rule never meant to grant.

pytest: `--junitxml=F`, `--basetemp=D` (deleted and recreated), `-o cache_dir=D`,
`--report-log=F`... write where they say, so those paths go through the protected-path and
working-directory checks. npm and friends read configuration from flags anywhere on the line:
`--script-shell=`, `--node-options=` and the like run programs of the caller's choosing.
"""

from __future__ import annotations

from claude_harness.permissions.bash.args import Arg
from claude_harness.permissions.bash.effects import Effect, Invocation, PathUse, Scope, path_use

_PYTEST_WRITES = ("--junitxml", "--junit-xml", "--basetemp", "--result-log", "--resultlog",
                  "--report-log", "--html", "--json-report-file", "--alluredir", "--cov-report",
                  "--debug", "--lsof-output", "--log-file")
_PYTEST_READS = ("--rootdir", "--config-file", "--confcutdir", "--inifile")
_PYTEST_VALUE = {"-o", "--override-ini", "-c", "--config-file", "--rootdir", "-p", "-k", "-m",
                 "--deselect", "--ignore", "--ignore-glob", "--confcutdir", "--tb", "-W",
                 "--maxfail", "--durations", "--import-mode", "--log-file", "--log-level", "-n",
                 "--cov", "--timeout", "--capture", "-r", "--color", "--code-highlight",
                 "--junit-prefix", "--basetemp", "--junitxml", "--junit-xml", "--report-log",
                 "--html", "--json-report-file", "--alluredir", "--cov-report", "--result-log"}


def _long_match(name: str, options: tuple[str, ...]) -> str | None:
    """argparse accepts unique prefixes: `--junit=` is `--junitxml=` (or `--junit-xml`)."""
    if name in options:
        return name
    hits = [o for o in options if o.startswith(name)] if len(name) > 3 else []
    return hits[0] if hits else None


def pytest(inv: Invocation, scope: Scope) -> Effect:
    eff = Effect()
    args = inv.args
    cwd = inv.cwd
    i = 0
    while i < len(args):
        value = args[i].value
        i += 1
        if value is None:
            eff.reads.append(PathUse(args[i - 1].text, None, guess=True))
            continue
        if value == "--":
            continue
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            target = attached if eq else None
            hit = _long_match(name, _PYTEST_WRITES)
            if hit is None and _long_match(name, ("--override-ini",)):
                hit = "--override-ini"
            if hit is not None and target is None and hit in _PYTEST_VALUE and i < len(args):
                target = args[i].value
                i += 1
            read = _long_match(name, _PYTEST_READS) if hit is None else None
            if read is not None:
                target = attached if eq else (args[i].value if i < len(args) else None)
                i += 0 if eq else 1
                eff.reads.append(path_use(Arg(target, source=target or "?"), cwd, guess=True))
                continue
            if hit == "--override-ini":
                _override(target, eff, cwd)
            elif hit is not None:
                _pytest_write(hit, target, eff, cwd)
            elif name in _PYTEST_VALUE and not eq:
                i += 1
            elif name == "--pastebin":
                eff.problem("pytest --pastebin sends output to a web service")
            continue
        if value.startswith("-o"):
            target = value[2:] or (args[i].value if i < len(args) else None)
            if not value[2:]:
                i += 1
            _override(target, eff, cwd)
            continue
        if value == "-c":
            target = args[i].value if i < len(args) else None
            eff.reads.append(path_use(Arg(target, source=target or "?"), cwd, guess=True))
            i += 1
            continue
        if value in _PYTEST_VALUE:
            i += 1
            continue
        if value.startswith("-"):
            continue
        eff.reads.append(path_use(args[i - 1], cwd, guess=True))
    return eff


def _pytest_write(option: str, target: str | None, eff: Effect, cwd) -> None:
    if option == "--cov-report" and target is not None:
        target = target.split(":", 1)[1] if ":" in target else None
        if target is None:
            return
    if target is None:
        if option == "--debug":
            target = "pytestdebug.log"
        else:
            eff.writes.append(PathUse(f"{option}=?", None))
            return
    use = path_use(Arg(target, source=target), cwd, recursive=option == "--basetemp")
    eff.writes.append(use)
    if option == "--basetemp":  # pytest empties the base directory before it starts
        eff.deletes.append(use)


def _override(setting: str | None, eff: Effect, cwd) -> None:
    """-o KEY=VALUE: `cache_dir` is written; `addopts` adds options we have not read."""
    if setting is None:
        eff.problem("pytest -o value cannot be known in advance")
        return
    key, _, value = setting.partition("=")
    key = key.strip()
    if key == "cache_dir":
        eff.writes.append(path_use(Arg(value, source=value), cwd, recursive=True))
    elif value.strip():  # pythonpath=, testpaths=, rootdir-like values: paths it reads
        for part in value.replace(",", " ").split():
            if part.startswith(("/", "~", "..")):
                eff.reads.append(path_use(Arg(part, source=part), cwd, guess=True))
    elif key in {"addopts", "junit_family"} or key.startswith("junit"):
        if key == "addopts":
            eff.problem("pytest -o addopts= adds options the checker has not read")


_NPM_DANGER = ("--script-shell", "--node-options", "--shell", "--editor", "--browser", "--git",
               "--viewer", "--userconfig", "--globalconfig", "--onload-script", "--init-module",
               "--call", "--prefix", "--cache", "--npmrc", "--config", "--workspaces-update",
               "--scripts-prepend-node-path", "--node-gyp", "--foreground-scripts")


def npm(inv: Invocation, scope: Scope) -> Effect:
    """npm-style CLIs take config flags anywhere before `--` (with abbreviations); a flag's
    path value outside the project (`--logs-dir=../x`) is a place it writes."""
    eff = Effect()
    for arg in inv.args:
        value = arg.value or ""
        if value.startswith("--") and "=" in value:
            target = value.split("=", 1)[1]
            if target.startswith(("/", "~", "..", ".")):
                eff.writes.append(path_use(Arg(target, source=target), inv.cwd, guess=True))
    for arg in inv.args:
        value = arg.value
        if value is None:
            continue
        if value == "--":
            break
        if not value.startswith("--") or len(value) < 4:
            if value == "-c":
                eff.problem(f"{inv.name} -c runs a shell command")
            continue
        name = value.split("=", 1)[0]
        hit = next((d for d in _NPM_DANGER if d.startswith(name) or name == d), None)
        if hit:
            eff.problem(f"{inv.name} option {value} (means {hit}) runs or loads a program")
    return eff


def python_module(inv: Invocation) -> Invocation | None:
    """`python -m pytest ARGS` as `pytest ARGS` (simple leading flags only)."""
    args = inv.args
    i = 0
    while i < len(args) and (args[i].value or "").startswith("-") and args[i].value != "-m":
        if args[i].value not in {"-B", "-u", "-q", "-s", "-S", "-E", "-I", "-O", "-OO", "-v"}:
            return None
        i += 1
    if i + 1 < len(args) and args[i].value == "-m" and args[i + 1].value in {"pytest", "py.test"}:
        return Invocation([Arg("pytest", source="pytest"), *args[i + 2 :]], inv.cwd)
    return None
