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


def find(inv: Invocation, scope: Scope) -> Effect:
    args = inv.args
    cwd = inv.cwd
    eff = Effect(read_only=True)
    i = 0
    follow = False
    while i < len(args) and args[i].value in {"-H", "-L", "-P"} | {None}:
        if args[i].value is None:
            return Effect.failed("find option cannot be known in advance")
        follow = follow or args[i].value == "-L"
        i += 1
    if i < len(args) and (args[i].value or "").startswith(("-D", "-O")):
        return Effect.failed("find -D / -O options are not modelled")
    starts: list[Arg] = []
    while i < len(args):
        value = args[i].value
        if value is None:
            return Effect.failed("find start point cannot be known in advance")
        if value.startswith("-") or value in {"(", "!"}:
            break
        starts.append(args[i])
        i += 1
    if not starts:
        starts = [Arg(".", source=".")]
    trees = tuple(p for p in (path_use(s, cwd).path for s in starts) if p is not None)
    consumers: list[tuple[list[Arg], bool]] = []
    deletes = False
    narrowed = False
    prints_other = False  # -printf, -ls...: output that is not plain names
    conjunction = True  # no -o / ! / ( ): every test must hold for an entry to be listed
    names: list[str] = []
    inames: list[str] = []
    path_patterns: list[str] = []
    symlinks = True
    while i < len(args):
        value = args[i].value
        i += 1
        if value is None:
            return Effect.failed("find expression cannot be known in advance")
        if value == "-follow":
            follow = True
        if value in _NO_ARG:
            deletes = deletes or value == "-delete"
            prints_other = prints_other or value == "-ls"
            conjunction = conjunction and value not in {"-o", "-or", "!", "-not", ",", "(", ")"}
            continue
        if value in _ONE_ARG or value in _FILE_TESTS or re.fullmatch(r"-newer[amcB][amcBt]", value):
            if i >= len(args):
                return Effect.failed(f"find {value} needs a value")
            operand = args[i]
            i += 1
            if value in _FILE_TESTS or (value.startswith("-newer") and not value.endswith("t")
                                         and len(value) == 8):
                eff.reads.append(path_use(operand, cwd, names_only=True))
            if value in _NAME_FILTERS and _narrow(operand.value):
                narrowed = True
            if value in {"-name", "-iname"} and operand.value is not None:
                (names if value == "-name" else inames).append(operand.value)
            if value in {"-path", "-wholename"} and operand.value is not None:
                path_patterns.append(operand.value)
            elif value in _NAME_FILTERS - {"-name", "-iname"}:
                conjunction = False  # a filter we do not model: assume it lets anything by
            if value == "-type" and operand.value is not None and "l" not in operand.value:
                symlinks = False
            prints_other = prints_other or value == "-printf"
            continue
        if value == "-files0-from":
            return Effect.failed("find -files0-from reads start points from a file")
        if value in _WRITES:
            n = _WRITES[value]
            if i + n > len(args):
                return Effect.failed(f"find {value} needs a value")
            eff.writes.append(path_use(args[i], cwd))
            eff.problem(f"find {value} writes the file {args[i].text}")
            i += n
            continue
        if value in _EXECS:
            end = i
            while end < len(args) and args[end].value not in {";", "+"}:
                end += 1
            if end >= len(args) or end == i:
                return Effect.failed(f"find {value} without a command or a terminating ;")
            template = args[i:end]
            if args[end].value == "+" and (template[-1].value != "{}"):
                return Effect.failed(f"find {value} ... + must end with {{}}")
            consumers.append((template, value.endswith("dir")))
            if value.startswith("-ok"):
                eff.problem(f"find {value} asks on the terminal before running a command")
            prints_other = True
            i = end + 1
            continue
        return Effect.failed(f"find: unknown primary {value}")
    for start in starts:
        eff.reads.append(path_use(start, cwd, recursive=True, follow=follow, names_only=True))
    filtered = conjunction and not (names and inames)
    members = Members(trees, "find", names=tuple(names or inames) if filtered else (),
                      paths=tuple(path_patterns) if filtered else (),
                      icase=bool(inames) and filtered, symlinks=symlinks or not conjunction,
                      shown=tuple(s.text for s in starts))
    if len(trees) != len(starts) or follow:
        members = Members((), "find")  # a start point that cannot be known: nothing passes
    for template, in_dir in consumers:
        eff.runs.append(_consumer(template, members, cwd, in_dir=in_dir))
    if not prints_other and not follow and trees:
        eff.listing = members
    if deletes:
        eff.read_only = False
        for start in starts:
            use = path_use(start, cwd, recursive=True)
            eff.writes.append(use)
            eff.deletes.append(PathUse(use.text, use.path, recursive=True, partial=narrowed,
                                       pattern=use.pattern, members=members))
    return eff


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
