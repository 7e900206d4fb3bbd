"""find: start points, tests, and the actions that delete, write or run commands.

Why a grammar of its own: find's expression is not options but primaries, each with its own
arity (`-newer FILE`, `-fprintf FILE FMT`, `-exec CMD... ;`). Reading it primary by primary
tells which words are start points (listed), which are files (`-newer F`, `-fprint F`),
which commands run for each name (`-exec`, `-execdir`, `-ok`), and whether `-delete` removes
everything below a critical directory. Primaries not listed here are not understood.
"""

from __future__ import annotations

import re

from claude_harness.permissions.bash.args import Arg, Members
from claude_harness.permissions.bash.effects import Effect, Invocation, PathUse, Scope, path_use

_NO_ARG = {
    "-depth", "-d", "-follow", "-help", "--help", "-ignore_readdir_race", "-mount",
    "-noignore_readdir_race", "-noleaf", "-version", "--version", "-xdev", "-daystart", "-warn",
    "-nowarn", "-empty", "-executable", "-false", "-nogroup", "-nouser", "-readable", "-true",
    "-writable", "-ls", "-print", "-print0", "-prune", "-quit", "-delete", "-not", "-a", "-and",
    "-o", "-or", "(", ")", "!", ",",
}
_ONE_ARG = {
    "-maxdepth", "-mindepth", "-regextype", "-amin", "-atime", "-cmin", "-context", "-ctime",
    "-fstype", "-gid", "-group", "-ilname", "-iname", "-inum", "-ipath", "-iregex",
    "-iwholename", "-links", "-lname", "-mmin", "-mtime", "-name", "-path", "-perm", "-regex",
    "-size", "-type", "-uid", "-used", "-user", "-wholename", "-xtype", "-printf",
}
_FILE_TESTS = {"-anewer", "-cnewer", "-newer", "-samefile"}
_WRITES = {"-fls": 1, "-fprint": 1, "-fprint0": 1, "-fprintf": 2}
_EXECS = {"-exec", "-execdir", "-ok", "-okdir"}
_NAME_FILTERS = {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex",
                 "-iregex", "-lname", "-ilname"}


def _narrow(pattern: str | None) -> bool:
    """A name filter that does not match everything (`*.pyc` yes, `*` or `.*` no)."""
    if pattern is None:
        return False
    return bool(re.sub(r"[*?.\[\]!^/\\]", "", pattern))


class _NotUnderstood(Exception):
    """find's argv does not fit its grammar (the message says where)."""


class _FindReader:
    """One pass over find's argv: global options, start points, then the expression."""

    def __init__(self, inv: Invocation) -> None:
        self.args = inv.args
        self.cwd = inv.cwd
        self.i = 0
        self.eff = Effect(read_only=True)
        self.follow = False
        self.starts: list[Arg] = []
        self.consumers: list[tuple[list[Arg], bool]] = []
        self.deletes = False
        self.narrowed = False  # a name filter that does not match everything
        self.prints_other = False  # -printf, -ls, -exec...: output that is not plain names
        self.conjunction = True  # no -o / ! / ( ): every test must hold for an entry
        self.names: list[str] = []
        self.inames: list[str] = []
        self.path_patterns: list[str] = []
        self.symlinks = True  # False: -type f / -type d lists no symlink

    def value(self, what: str) -> str:
        value = self.args[self.i].value
        if value is None:
            raise _NotUnderstood(f"find {what} cannot be known in advance")
        return value

    def read(self) -> Effect:
        self.global_options()
        self.start_points()
        while self.i < len(self.args):
            primary = self.value("expression")
            self.i += 1
            self.primary(primary)
        return self.effect()

    def global_options(self) -> None:
        while self.i < len(self.args) and self.value("option") in {"-H", "-L", "-P"}:
            self.follow = self.follow or self.args[self.i].value == "-L"
            self.i += 1
        if self.i < len(self.args) and self.value("option").startswith(("-D", "-O")):
            raise _NotUnderstood("find -D / -O options are not modelled")

    def start_points(self) -> None:
        while self.i < len(self.args):
            value = self.value("start point")
            if value.startswith("-") or value in {"(", "!"}:
                break
            self.starts.append(self.args[self.i])
            self.i += 1
        if not self.starts:
            self.starts = [Arg(".", source=".")]

    def primary(self, value: str) -> None:
        if value == "-follow":
            self.follow = True
        if value in _NO_ARG:
            self.deletes = self.deletes or value == "-delete"
            self.prints_other = self.prints_other or value == "-ls"
            self.conjunction = self.conjunction and value not in {
                "-o", "-or", "!", "-not", ",", "(", ")"}
        elif value in _ONE_ARG or value in _FILE_TESTS or re.fullmatch(
                r"-newer[amcB][amcBt]", value):
            self.test(value)
        elif value == "-files0-from":
            raise _NotUnderstood("find -files0-from reads start points from a file")
        elif value in _WRITES:
            self.write(value)
        elif value in _EXECS:
            self.exec(value)
        else:
            raise _NotUnderstood(f"find: unknown primary {value}")

    def test(self, value: str) -> None:
        if self.i >= len(self.args):
            raise _NotUnderstood(f"find {value} needs a value")
        operand = self.args[self.i]
        self.i += 1
        if value in _FILE_TESTS or (value.startswith("-newer") and not value.endswith("t")
                                    and len(value) == 8):
            self.eff.reads.append(path_use(operand, self.cwd, names_only=True))
        if value in _NAME_FILTERS and _narrow(operand.value):
            self.narrowed = True
        if value in {"-name", "-iname"} and operand.value is not None:
            (self.names if value == "-name" else self.inames).append(operand.value)
        if value in {"-path", "-wholename"} and operand.value is not None:
            self.path_patterns.append(operand.value)
        elif value in _NAME_FILTERS - {"-name", "-iname"}:
            self.conjunction = False  # a filter we do not model: assume it lets anything by
        if value == "-type" and operand.value is not None and "l" not in operand.value:
            self.symlinks = False
        self.prints_other = self.prints_other or value == "-printf"

    def write(self, value: str) -> None:
        n = _WRITES[value]
        if self.i + n > len(self.args):
            raise _NotUnderstood(f"find {value} needs a value")
        target = self.args[self.i]
        self.eff.writes.append(path_use(target, self.cwd))
        self.eff.problem(f"find {value} writes the file {target.text}")
        self.i += n

    def exec(self, value: str) -> None:
        end = self.i
        while end < len(self.args) and self.args[end].value not in {";", "+"}:
            end += 1
        if end >= len(self.args) or end == self.i:
            raise _NotUnderstood(f"find {value} without a command or a terminating ;")
        template = self.args[self.i : end]
        if self.args[end].value == "+" and template[-1].value != "{}":
            raise _NotUnderstood(f"find {value} ... + must end with {{}}")
        self.consumers.append((template, value.endswith("dir")))
        if value.startswith("-ok"):
            self.eff.problem(f"find {value} asks on the terminal before running a command")
        self.prints_other = True
        self.i = end + 1

    def members(self) -> Members:
        """Which entries the expression can hand on (to -exec, -delete, or a pipe)."""
        trees = tuple(p for p in (path_use(s, self.cwd).path for s in self.starts) if p)
        if len(trees) != len(self.starts) or self.follow:
            return Members((), "find")  # a start point that cannot be known: nothing passes
        filtered = self.conjunction and not (self.names and self.inames)
        return Members(trees, "find", names=tuple(self.names or self.inames) if filtered else (),
                       paths=tuple(self.path_patterns) if filtered else (),
                       icase=bool(self.inames) and filtered,
                       symlinks=self.symlinks or not self.conjunction,
                       shown=tuple(s.text for s in self.starts))

    def effect(self) -> Effect:
        eff = self.eff
        for start in self.starts:
            eff.reads.append(path_use(start, self.cwd, recursive=True, follow=self.follow,
                                      names_only=True))
        members = self.members()
        for template, in_dir in self.consumers:
            eff.runs.append(_consumer(template, members, self.cwd, in_dir=in_dir))
        if not self.prints_other and members.trees:
            eff.listing = members
        if self.deletes:
            eff.read_only = False
            for start in self.starts:
                use = path_use(start, self.cwd, recursive=True)
                eff.writes.append(use)
                eff.deletes.append(PathUse(use.text, use.path, recursive=True,
                                           partial=self.narrowed, pattern=use.pattern,
                                           members=members))
        return eff


def find(inv: Invocation, scope: Scope) -> Effect:
    try:
        return _FindReader(inv).read()
    except _NotUnderstood as exc:
        return Effect.failed(str(exc))


def _consumer(template: list[Arg], members: Members, cwd, *, in_dir: bool) -> Invocation:
    """The command -exec runs: `{}` becomes a name from the trees."""
    argv: list[Arg] = []
    for arg in template:
        value = arg.value
        if value == "{}":
            argv.append(Arg(None, source="{}", members=members))
        elif value is not None and "{}" in value:
            argv.append(Arg(None, source=value))
        else:
            argv.append(arg)
    return Invocation(argv, None if in_dir else cwd)
