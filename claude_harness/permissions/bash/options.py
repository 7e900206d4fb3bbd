"""Option tables, and a parser that reads argv the way GNU getopt_long does.

Why tables: a program's danger hides in its options (`sed -l 5 w`, `sort -o f`, `date -uf FILE`,
`--in-pl`). Checking option strings one by one misses arities (what the next word is),
clusters (`-uf FILE` is `-u -f FILE`), attached values (`-es/a/b/`), long `--opt=value` and the
unique-prefix abbreviations getopt accepts (`--in` is `--in-place`). Each read-only program gets
a table of EVERY option it knows, with its arity and its role; anything outside the table is
an unknown option, and an unknown option means the command is not understood.

Spec syntax, one entry per whitespace-separated token:

    -n|--lines=         required value (the next word, or attached: -n5, --lines=5)
    --color?            optional value, attached only (--color=auto, -i.bak)
    --arg==             two values (jq --arg NAME VALUE)
    -r|--recursive:recursive     a role after the colon (several: `:read,pattern`)
    #                   -NUM is accepted (head -5)

Roles are free words the program's own module interprets (read, write, exec, pattern...).
"""

from __future__ import annotations

__all__ = ["Arg", "OptionError", "OptionTable", "Opt", "Parsed", "parse", "table"]

from dataclasses import dataclass, field

from claude_harness.permissions.bash.args import Arg


@dataclass(frozen=True)
class Opt:
    name: str  # canonical: the first long name in the spec (without --), else the letter
    arity: int  # 0 flag, 1 value, 2 two values
    optional: bool = False  # value only when attached
    roles: frozenset[str] = frozenset()


@dataclass
class OptionTable:
    short: dict[str, Opt] = field(default_factory=dict)
    long: dict[str, Opt] = field(default_factory=dict)  # without the leading "--"
    numeric: bool = False
    permute: bool = True  # GNU: options may follow operands (until `--`)
    negatable: bool = False  # git's parse-options: `--no-X` turns X off

    def find_long(self, name: str) -> Opt | str:
        """Exact match, else the unique option `name` abbreviates; a message when none is."""
        if name in self.long:
            return self.long[name]
        hits = {opt for key, opt in self.long.items() if key.startswith(name)}
        if len(hits) == 1:
            return hits.pop()
        if hits:
            return f"option --{name} is ambiguous"
        if self.negatable and name.startswith("no-"):
            found = self.find_long(name[3:])
            if isinstance(found, Opt):  # `--no-X` is a plain flag, whatever X takes
                return Opt(f"no-{found.name}", 0)
        return f"unknown option --{name}"


def table(spec: str, *, numeric: bool = False, permute: bool = True) -> OptionTable:
    out = OptionTable(numeric=numeric, permute=permute)
    for token in spec.split():
        if token == "#":
            out.numeric = True
            continue
        head, _, role_text = token.partition(":")
        roles = frozenset(r for r in role_text.split(",") if r)
        arity, optional = 0, False
        if head.endswith("=="):
            head, arity = head[:-2], 2
        elif head.endswith("="):
            head, arity = head[:-1], 1
        elif head.endswith("?"):
            head, arity, optional = head[:-1], 1, True
        names = head.split("|")
        longs = [n[2:] for n in names if n.startswith("--")]
        opt = Opt(longs[0] if longs else names[0].lstrip("-"), arity, optional, roles)
        for name in names:
            if name.startswith("--"):
                out.long[name[2:]] = opt
            elif name.startswith("-") and len(name) == 2:
                out.short[name[1]] = opt
            else:
                raise ValueError(f"bad option spelling {name!r} in table")
    return out


@dataclass
class Parsed:
    """argv read through a table: options with their values, and the operands."""

    options: list[tuple[Opt, list[str | None]]] = field(default_factory=list)
    operands: list[Arg] = field(default_factory=list)

    def has(self, role: str) -> bool:
        return any(role in opt.roles for opt, _ in self.options)

    def values(self, role: str) -> list[str | None]:
        return [v for opt, vals in self.options if role in opt.roles for v in vals]

    def named(self, name: str) -> list[list[str | None]]:
        return [vals for opt, vals in self.options if opt.name == name]


class OptionError(ValueError):
    """argv does not fit the table: an unknown option, a missing value, an unknown word."""


def parse(tab: OptionTable, args: list[Arg], program: str, *,
          unknown_operands: bool = False) -> Parsed:
    """Read `args` (argv without the program name) as getopt_long would. Raises OptionError.

    An argument whose value cannot be known may itself be an option, so it is an error unless
    `unknown_operands` (for programs none of whose options matter).
    """
    out = Parsed()
    i = 0
    only_operands = False
    while i < len(args):
        arg = args[i]
        i += 1
        value = arg.value
        if only_operands:
            out.operands.append(arg)
            continue
        if arg.members is not None:  # names fed by xargs / find -exec: checked to be operands
            out.operands.append(arg)
            continue
        if value is None:
            if unknown_operands:
                out.operands.append(arg)
                continue
            raise OptionError(
                f"{program}: {arg.source!r} cannot be known in advance and may be an option")
        if value == "--":
            only_operands = True
            continue
        if not value.startswith("-") or value == "-":
            out.operands.append(arg)
            if not tab.permute:
                only_operands = True
            continue
        if value.startswith("--"):
            i = _long(tab, args, i, value, out, program)
        else:
            i = _short(tab, args, i, value, out, program)
    return out


def _take(args: list[Arg], i: int, n: int, program: str, spelled: str) -> tuple[list[str | None], int]:
    if i + n > len(args):
        raise OptionError(f"{program}: option {spelled} needs a value")
    vals = []
    for arg in args[i : i + n]:
        if arg.split:
            raise OptionError(f"{program}: the value of {spelled} may be several words")
        vals.append(arg.value)
    return vals, i + n


def _long(tab: OptionTable, args: list[Arg], i: int, word: str, out: Parsed, program: str) -> int:
    name, eq, attached = word[2:].partition("=")
    found = tab.find_long(name)
    if isinstance(found, str):
        raise OptionError(f"{program}: {found}")
    opt = found
    if opt.arity == 0:
        if eq:
            raise OptionError(f"{program}: option --{opt.name} takes no value")
        out.options.append((opt, []))
        return i
    if eq:
        first: list[str | None] = [attached]
        if opt.arity == 2:
            more, i = _take(args, i, 1, program, word)
            first += more
        out.options.append((opt, first))
        return i
    if opt.optional:
        out.options.append((opt, []))
        return i
    vals, i = _take(args, i, opt.arity, program, word)
    out.options.append((opt, vals))
    return i


def _short(tab: OptionTable, args: list[Arg], i: int, word: str, out: Parsed, program: str) -> int:
    if tab.numeric and word[1:].isdigit():
        return i
    j = 1
    while j < len(word):
        letter = word[j]
        opt = tab.short.get(letter)
        if opt is None:
            raise OptionError(f"{program}: unknown option -{letter}")
        j += 1
        if opt.arity == 0:
            out.options.append((opt, []))
            continue
        rest = word[j:]
        if rest:
            vals: list[str | None] = [rest]
            if opt.arity == 2:
                more, i = _take(args, i, 1, program, word)
                vals += more
            out.options.append((opt, vals))
            return i
        if opt.optional:
            out.options.append((opt, []))
            return i
        vals, i = _take(args, i, opt.arity, program, f"-{letter}")
        out.options.append((opt, vals))
        return i
    return i
