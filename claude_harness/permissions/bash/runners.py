"""Test runners and package managers: not read-only, but some of their options write files
or run programs a `Bash(npm run *)` / `Bash(python -m pytest *)` rule never meant to grant.

pytest: `--junitxml=F`, `--basetemp=D` (deleted and recreated), `-o cache_dir=D`,
`--report-log=F`... write where they say, so those paths go through the protected-path and
working-directory checks. npm and friends read configuration from flags anywhere on the line:
`--script-shell=`, `--node-options=` and the like run programs of the caller's choosing.

Indirections: a runner can take its arguments from a file (`pytest @args`: argparse reads one
argument per line, `gcc @rsp`) and work in another folder (`npm -C DIR`, `make -C DIR`,
`cargo --manifest-path DIR/Cargo.toml`, `yarn --cwd DIR`): there it runs that folder's
scripts and writes below it. Response files are read and their arguments checked (pytest) or
asked about (programs the checker does not know), and so are the `addopts` of a config file
named with `pytest -c FILE`; a change of folder is decided as a run in that folder, from the
table FOLDER_OPTIONS.
"""

from __future__ import annotations

import os
from pathlib import Path

from claude_harness.permissions.bash.args import Arg
from claude_harness.permissions.bash.effects import Effect, Invocation, PathUse, Scope, path_use

MAX_ARGS_FILE_BYTES = 65_536
MAX_ARGS_FILE_DEPTH = 5

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


def response_files(args: list[Arg], cwd: Path | None, eff: Effect, depth: int = 0) -> list[Arg]:
    """argparse's `fromfile_prefix_chars="@"`: every `@FILE` argument (anywhere, option
    values too) is replaced by FILE's lines, one argument each, themselves expanded. FILE is
    a read; a file that cannot be read here is a problem (its arguments cannot be checked)."""
    out: list[Arg] = []
    for arg in args:
        value = arg.value
        if value is None or not value.startswith("@") or len(value) < 2:
            out.append(arg)
            continue
        use = path_use(Arg(value[1:], source=value[1:]), cwd)
        eff.reads.append(use)
        text = _small_text(use.path) if depth < MAX_ARGS_FILE_DEPTH else None
        if text is None:
            eff.problem(f"{value} takes arguments from a file the checker cannot read")
            continue
        lines = [Arg(line, source=line) for line in text.splitlines()]
        out.extend(response_files(lines, cwd, eff, depth + 1))
    return out


def _small_text(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        if not path.is_file() or path.stat().st_size > MAX_ARGS_FILE_BYTES:
            return None
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def response_file_problem(inv: Invocation, eff: Effect) -> None:
    """A program the checker does not know, given `@FILE` where FILE exists (gcc, javac,
    java, clang, ld... read their arguments from it): those arguments are unseen."""
    for arg in inv.args:
        value = arg.value or ""
        if value.startswith("@") and len(value) > 1 and inv.cwd is not None:
            path = Path(os.path.expanduser(value[1:]))
            if (inv.cwd / path).exists():
                eff.problem(f"{inv.name} {value}: arguments from a response file the checker "
                            "does not read")


# Options that make a runner work in another folder: "dir" (the value is the folder) or
# "file" (the value is a file in it: a manifest, a makefile). Short options also attached
# (`-Cdir`), long ones also as `--opt=value`.
FOLDER_OPTIONS: dict[str, dict[str, str]] = {
    "npm": {"-C": "dir", "--prefix": "dir"},
    "npx": {"-C": "dir", "--prefix": "dir"},
    "pnpm": {"-C": "dir", "--dir": "dir", "--prefix": "dir"},
    "yarn": {"--cwd": "dir"},
    "bun": {"--cwd": "dir"},
    "make": {"-C": "dir", "--directory": "dir", "-f": "file", "--file": "file",
             "--makefile": "file", "-I": "dir", "--include-dir": "dir"},
    "ninja": {"-C": "dir", "-f": "file"},
    "cargo": {"-C": "dir", "--manifest-path": "file", "--target-dir": "dir"},
    "go": {"-C": "dir"},
    "mvn": {"-f": "file", "--file": "file"},
    "gradle": {"-p": "dir", "--project-dir": "dir", "-b": "file", "--build-file": "file"},
    "poetry": {"-C": "dir", "--directory": "dir", "-P": "dir", "--project": "dir"},
    "uv": {"--directory": "dir", "--project": "dir"},
    "just": {"-d": "dir", "--working-directory": "dir", "-f": "file", "--justfile": "file"},
    "cmake": {"-S": "dir", "-B": "dir", "--build": "dir"},
    "tox": {"-c": "file", "--conf": "file", "--workdir": "dir", "--root": "dir"},
    "nox": {"-f": "file", "--noxfile": "file"},
    "rake": {"-C": "dir", "--directory": "dir", "-f": "file", "--rakefile": "file"},
    "composer": {"-d": "dir", "--working-dir": "dir"},
    "meson": {"-C": "dir"},
    "pip": {"-t": "dir", "--target": "dir", "--prefix": "dir", "--root": "dir"},
}
FOLDER_OPTIONS.update({"gmake": FOLDER_OPTIONS["make"], "gradlew": FOLDER_OPTIONS["gradle"],
                       "mvnw": FOLDER_OPTIONS["mvn"], "pip3": FOLDER_OPTIONS["pip"]})


def folder_uses(program: str, inv: Invocation) -> list[PathUse]:
    """The folders a runner is sent to by its options: it runs what is there and writes
    below it, so each is a recursive write (outside the working directories: ask; a
    protected folder: ask in every mode)."""
    table = FOLDER_OPTIONS.get(program)
    if table is None:
        return []
    out: list[PathUse] = []
    args = inv.args
    for i, arg in enumerate(args):
        value = arg.value
        if value is None:
            continue
        if value == "--":
            break
        found = _folder_option(value, table, args[i + 1] if i + 1 < len(args) else None)
        if found is None:
            continue
        kind, target = found
        use = path_use(target, inv.cwd, recursive=True)
        if kind == "file" and use.path is not None and not use.path.is_dir():
            use = PathUse(use.text, use.path.parent, recursive=True)
        out.append(use)
    return out


def _folder_option(value: str, table: dict[str, str], following: Arg | None
                   ) -> tuple[str, Arg] | None:
    """(kind, the folder argument) when `value` is one of the table's options."""
    missing = Arg(None, source="?")
    if value.startswith("--"):
        name, eq, attached = value.partition("=")
        if name in table:
            return table[name], (Arg(attached, source=attached) if eq else following or missing)
        return None
    if value.startswith("-") and len(value) >= 2 and value[:2] in table:
        rest = value[2:]
        return table[value[:2]], (Arg(rest, source=rest) if rest else following or missing)
    return None


def pytest(inv: Invocation, scope: Scope) -> Effect:
    eff = Effect()
    cwd = inv.cwd
    args = response_files(inv.args, cwd, eff)
    args = args + _config_addopts(args, cwd, eff)
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


def _config_addopts(args: list[Arg], cwd: Path | None, eff: Effect) -> list[Arg]:
    """`pytest -c FILE` / `--config-file=FILE`: FILE's `addopts` are options of this run (a
    file written a step earlier can say `--basetemp=~/.ssh`), so they are read and checked
    with the rest. A config file that cannot be read here is a problem."""
    out: list[Arg] = []
    values = [a.value for a in args]
    for i, value in enumerate(values):
        target: str | None = ""
        if value in {"-c", "--config-file"}:
            target = values[i + 1] if i + 1 < len(values) else None
        elif value is not None and value.startswith("--config-file="):
            target = value.split("=", 1)[1]
        elif value is not None and value.startswith("-c") and len(value) > 2 and \
                not value.startswith("--"):
            target = value[2:]
        if target == "":
            continue
        path = path_use(Arg(target, source=target or "?"), cwd).path
        addopts = _addopts(path)
        if addopts is None:
            eff.problem(f"pytest -c {target}: a config file the checker cannot read")
            continue
        out.extend(Arg(word, source=word) for word in addopts)
    return out


def _addopts(path: Path | None) -> list[str] | None:
    """The `addopts` of a pytest config file (ini, cfg or toml), split as pytest splits them;
    None when the file cannot be read or parsed."""
    import configparser
    import shlex
    import tomllib

    text = _small_text(path)
    if text is None or path is None:
        return None
    try:
        if path.suffix == ".toml":
            table = tomllib.loads(text).get("tool", {}).get("pytest", {})
            section = table.get("ini_options", table)
            raw = section.get("addopts", "")
            return list(raw) if isinstance(raw, list) else shlex.split(str(raw))
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_string(text)
        for name in ("pytest", "tool:pytest"):
            if parser.has_section(name):
                return shlex.split(parser.get(name, "addopts", fallback=""))
        return []
    except (ValueError, configparser.Error, tomllib.TOMLDecodeError):
        return None


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
               "--call", "--cache", "--npmrc", "--config", "--workspaces-update",
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
