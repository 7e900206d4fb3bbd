"""What one program invocation does, in terms the permission chain can check.

Every program the checker knows turns its argv into an `Effect`: the files it reads, writes and
deletes (each a `PathUse`), the commands it runs in turn, and the `problems` that make it
impossible to approve without a human (an unknown option, an option that runs code, a value
that cannot be known). `read_only` is True only when the program does nothing but read what
`reads` lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from claude_harness.permissions.bash.args import Arg, Members


@dataclass(frozen=True)
class PathUse:
    """A file or directory a command touches. `path` None: it cannot be known in advance."""

    text: str  # as written, for messages
    path: Path | None  # absolute, `..` kept (resolved later, symlinks first)
    recursive: bool = False  # every file below is read (grep -r) or written (rm -r)
    follow: bool = False  # symlinks below are followed
    names_only: bool = False  # only names and metadata (ls, find, stat), not contents
    members: Members | None = None  # any entry below some trees (xargs, find -exec {})
    pattern: str | None = None  # the glob this came from (for "could match" checks)
    guess: bool = False  # an operand of a program we do not know: maybe a file, maybe not
    partial: bool = False  # a deletion of only some entries below (find -name X -delete)
    edit: bool = False  # an edit of the file in place (sed -i): needs Edit permission
    entry: bool = False  # only the directory entry itself is looked at (ls -d, stat, test -e)


def path_use(arg: Arg, cwd: Path | None, **kw: object) -> PathUse:
    """The PathUse an argument names, relative to `cwd`."""
    if arg.members is not None:
        return PathUse(arg.source, None, members=arg.members, **kw)  # type: ignore[arg-type]
    value = arg.value
    pattern = arg.pattern
    if pattern is not None and not pattern.startswith("/"):
        pattern = str(cwd / pattern) if cwd is not None else None
    if value is None or (cwd is None and not value.startswith("/")):
        return PathUse(arg.text, None, pattern=pattern, **kw)  # type: ignore[arg-type]
    path = Path(value) if value.startswith("/") else cwd / value  # type: ignore[operator]
    if process_specific(path):
        return PathUse(arg.text, None, pattern=pattern, **kw)  # type: ignore[arg-type]
    return PathUse(arg.text, path, pattern=pattern, **kw)  # type: ignore[arg-type]


def process_specific(path: Path) -> bool:
    """`/proc/self/cwd`, `/proc/$$/root`...: what they lead to depends on the process that
    opens them (the command's shell, not the checker), so they cannot be resolved here."""
    parts = path.parts
    return len(parts) > 2 and parts[1] == "proc" and (
        parts[2] in {"self", "thread-self"} or parts[2].isdigit()) and not (
        len(parts) == 5 and parts[3] == "fd" and parts[4].isdigit())


@dataclass(frozen=True)
class Scope:
    """What a handler needs to know beyond its argv."""

    project: Path  # the project root: rules are anchored there, and git's "own" repository
    variables_changed: bool = False  # the script assigns variables: values are unknown
    positionals_unknown: bool = False  # an inner script run with arguments (`sh -c S a b`)
    git_moved: bool = False  # an earlier git call of this command moved HEAD, refs or index


@dataclass
class Invocation:
    """A program about to run: its expanded argv and where."""

    argv: list[Arg]
    cwd: Path | None
    stdin_script: str | None = None  # a here-document / here-string / `echo S |` feeding it
    stdin_file: PathUse | None = None  # `< FILE`

    @property
    def name(self) -> str | None:
        return self.argv[0].value if self.argv else None

    @property
    def args(self) -> list[Arg]:
        return self.argv[1:]


@dataclass
class Effect:
    reads: list[PathUse] = field(default_factory=list)
    writes: list[PathUse] = field(default_factory=list)
    deletes: list[PathUse] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    read_only: bool = False
    runs: list[Invocation] = field(default_factory=list)  # programs it starts (xargs, -exec)
    scripts: list[tuple[str, Path | None]] = field(default_factory=list)  # shell code it runs
    foreign_git: str = ""  # why this git invocation may run another repository's config
    listing: Members | None = None  # its output is only names of entries below these trees
    understood: bool = True  # False: the argv did not fit the program's table
    forms: list[list[str]] = field(default_factory=list)  # more argvs deny rules should see
    opaque_code: str = ""  # it runs shell code that cannot be seen: nothing can be checked

    def problem(self, why: str) -> Effect:
        if why not in self.problems:
            self.problems.append(why)
        self.read_only = False
        return self

    @classmethod
    def failed(cls, why: str) -> Effect:
        """Not understood: any operand may be a file read or written (see analysis)."""
        return cls(problems=[why], understood=False)
