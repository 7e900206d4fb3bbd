"""Option parsing shared by the per-program checks: GNU long-option abbreviations, clusters.

Why: bash passes `--upload-pa=x` and git reads it as `--upload-pack`; `-uo f` is `-u -o f`.
Every dangerous-flag check must see options the way the program will.
"""

from __future__ import annotations


def skip_options(words: list[str], with_value: set[str]) -> list[str]:
    i = 0
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        flag = words[i]
        i += 1
        if flag in with_value and "=" not in flag and i < len(words):
            i += 1
    if i < len(words) and words[i] == "--":
        i += 1
    return words[i:]


def long_option_matches(arg: str, dangerous: tuple[str, ...]) -> str | None:
    """GNU-style long options may be abbreviated: `--upload-pa` is `--upload-pack`."""
    if not arg.startswith("--") or len(arg) < 3:
        return None
    name = arg.split("=", 1)[0]
    for opt in dangerous:
        if opt.startswith(name) or name.startswith(opt):
            return opt
    return None


def short_cluster_has(arg: str, letters: str) -> bool:
    return arg.startswith("-") and not arg.startswith("--") and any(c in arg[1:2] for c in letters)


def positionals(args: list[str]) -> list[str]:
    out: list[str] = []
    after_dd = False
    for a in args:
        if after_dd or not a.startswith("-") or a == "-":
            out.append(a)
        elif a == "--":
            after_dd = True
    return out
