"""sed and awk: the "text filters" that can write files and run commands.

Why: `sed -n` looks read-only, yet `w FILE`, `W`, `e`, `r` and `-i` write or execute
(CVE-2025-64755). Instead of listing the dangerous forms, sed scripts are checked against an
allowlist of print/delete/substitute forms; awk programs against the words that reach outside.
"""

from __future__ import annotations

import re

from claude_harness.permissions.bash_options import short_cluster_has

_SED_SAFE_SCRIPT = re.compile(
    r"""^(
        (\d+|\$)?(,(\d+|\$|/[^/]*/))?[pdq=]?       # 10p  1,5p  $p  5q  =
      | /[^/]*/(,(\d+|\$|/[^/]*/))?[pd]?          # /re/p  /a/,/b/p
      | (\d+|\$|/[^/]*/)?(,(\d+|\$|/[^/]*/))?s(?P<d>[/|#:,])((?!(?P=d)).)*(?P=d)((?!(?P=d)).)*(?P=d)[gIip0-9]*
      | [pdq=]?
    )$""",
    re.VERBOSE,
)


def sed_scripts(args: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(scripts, flags, files) of a sed invocation."""
    scripts: list[str] = []
    flags: list[str] = []
    files: list[str] = []
    i = 0
    explicit = False
    while i < len(args):
        arg = args[i]
        if arg in {"-e", "--expression"} and i + 1 < len(args):
            scripts.append(args[i + 1])
            explicit = True
            i += 2
            continue
        if arg.startswith("--expression="):
            scripts.append(arg.split("=", 1)[1])
            explicit = True
        elif arg.startswith("-e") and len(arg) > 2:
            scripts.append(arg[2:])
            explicit = True
        elif arg.startswith("-") and arg != "-":
            flags.append(arg)
        else:
            files.append(arg)
        i += 1
    if not explicit and files:
        scripts.append(files.pop(0))
    return scripts, flags, files


def sed_script_is_safe(script: str) -> bool:
    parts = [p.strip() for p in re.split(r"[;\n]", script)]
    return all(_SED_SAFE_SCRIPT.match(p) for p in parts)


def sed_in_place(args: list[str]) -> bool:
    return any(a == "-i" or a.startswith("-i") or a.startswith("--in-place") or
               (a.startswith("-") and not a.startswith("--") and "i" in a[1:])
               for a in args if a.startswith("-"))


def sed_hazards(args: list[str]) -> list[str]:
    scripts, flags, _files = sed_scripts(args)
    hazards: list[str] = []
    for flag in flags:
        if flag in {"-f", "--file"} or flag.startswith("--file") or short_cluster_has(flag, "f"):
            hazards.append("sed reads its script from a file")
    for script in scripts:
        if not sed_script_is_safe(script):
            hazards.append(f"sed script {script!r} may write files or run commands")
    return hazards


_AWK_SAFE_FLAGS = ("-F", "-v", "-e", "--source", "--field-separator", "--assign", "-S",
                   "--sandbox", "-b", "--characters-as-bytes", "-c", "--traditional", "-P",
                   "--posix", "-n", "--non-decimal-data", "-M", "--bignum", "-N",
                   "--use-lc-numeric", "--")


def awk_hazards(args: list[str]) -> list[str]:
    """Allowlisted flags only: gawk's -f/-i/-E load code, -l loads a library, -d/-p/-o write
    files; and no argument may mention what reaches outside (system, pipes, getline...)."""
    for arg in args:
        if arg.startswith("-") and arg != "-" and not arg.startswith(_AWK_SAFE_FLAGS):
            return [f"awk option {arg} loads code or writes files"]
    # every argument, not just "the program": -v values and assignments are awk code too
    danger = re.compile(r"system|\||>|getline|fflush|close|ENVIRON|@load|@include")
    if any(danger.search(a) for a in args):
        return ["awk program may run commands or write files"]
    return []
