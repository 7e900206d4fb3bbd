"""Family 1: expansions a parser folds away but bash still runs.

Command substitution inside a tilde prefix (`~$(cmd)`), array subscripts that bash evaluates as
arithmetic wherever a variable NAME is expected (`test -v`, `[[ -v ]]`, `printf -v`, `read`,
`let`, arithmetic comparisons in `[[ ]]`), parameter-expansion operators that run their operand,
and prompt expansion of a variable's content. Every payload creates a marker under /tmp.
"""

from __future__ import annotations

from tests.permissions.corpus.configs import NOT_BYPASS
from tests.permissions.corpus.model import Attack, attacks

M = "/tmp/pwned_f1"

_HINT = "a substitution anywhere in a word (tilde prefix, subscript, operand) is code"

_COMMANDS = [
    # a substitution inside a tilde prefix, in every slot of every reader
    f"ls ~$(touch {M})", f"ls ~`touch {M}`", f"ls -- ~$(touch {M})", f"cat ~$(touch {M})/README.md",
    f"grep ~$(touch {M}) README.md", f"grep -e ~`touch {M}` README.md", f"grep -rn ~$(touch {M}) src",
    f"awk ~$(touch {M}) f", f"awk -v x=~$(touch {M}) 1 f", f"sed -n ~$(touch {M})p f",
    f"head -n ~$(touch {M}) f", f"wc -l ~`touch {M}`", f"find . -name ~$(touch {M})",
    f"git log --grep=~$(touch {M})", f"git show HEAD:~$(touch {M})", f"echo ~$(touch {M})",
    f"cat f >/dev/null ~$(touch {M})", f"ls 2>/dev/null <~$(touch {M})", f"cat <<< ~$(touch {M})",
    f"ls ~+$(touch {M})", f"jq . ~$(touch {M})",
    # array subscripts evaluated where a variable name is expected
    f"test -v 'a[$(touch {M})]'", f"[ -v 'a[$(touch {M})]' ]", f"[[ -v a[$(touch {M})] ]]",
    f"test -v \"a[\\$(touch {M})]\"", f"[ -v \"a[\\`touch {M}\\`]\" ]",
    f"[[ -v 'x[`touch {M}`]' ]]", f"if [[ -v a[$(touch {M})] ]]; then :; fi",
    f"printf -v 'a[$(touch {M})]' x", f"read 'a[$(touch {M})]' < f", f"let 'a[$(touch {M})]'",
    f"declare -i n; n='a[$(touch {M})]'", f"(( a[$(touch {M})] ))",
    f"for ((i=a[$(touch {M})]; 0; )); do :; done",
    # arithmetic comparisons in [[ ]] evaluate both sides as expressions
    f"[[ 'a[$(touch {M})]' -eq 0 ]]", f"[[ x -eq 'a[$(touch {M})]' ]]",
    f"[[ 'a[$(touch {M})]' -lt 1 ]]", f"[[ 1 -ne 'b[`touch {M}`]' ]] || true",
    # parameter expansion operands and subscripts
    f"echo ${{a[$(touch {M})]}}", f"echo ${{x:-$(touch {M})}}", f"x=abc; echo ${{x:$(touch {M})}}",
    f"echo \"${{HOME#$(touch {M})}}\"", f"a=(1); [ \"${{#a[$(touch {M})]}}\" ]", f"echo $((a[$(touch {M})]))",
    f"echo $[a[$(touch {M})]]", f"echo a{{b,$(touch {M})}}", f"echo $'\\x41'$(touch {M})",
    # a variable's content expanded as a prompt, or by the trace prompt
    f"x='$(touch {M})'; echo ${{x@P}}", f"PS4='$(touch {M})'; set -x; :",
    # substitutions in words bash evaluates but a parser may skip
    f"case x in $(touch {M})) ;; esac", f"for f in $(touch {M}); do :; done", f"x=~$(touch {M})",
    f"grep -E \"$(touch {M})x\" f",
]

# Round 2: names bash assigns or evaluates later, code bash runs on its own schedule, and the
# OUTPUT of a read-only substitution used as a program, an option or a script.
_LATER = [
    f"x='a[$(touch {M})]'; echo ${{!x}}", f"declare -n ref='a[$(touch {M})]'; echo $ref",
    f"sleep 0 & wait -n -p 'a[$(touch {M})]'", f"mapfile -C 'touch {M} #' -c 1 < f",
    f": ${{x:=$(touch {M})}}", f"echo \"$(echo \"$(touch {M})\")\"", f"trap 'touch {M}' EXIT; ls",
    f"trap 'touch {M}' DEBUG; ls", f"shopt -s expand_aliases; alias ls='touch {M}'\nls",
    f"hash -p /usr/bin/touch ls; ls {M}", f"function f {{ touch {M}; }}; f", f"f() {{ touch {M}; }}; f",
    f"coproc touch {M}", f"$0 -c 'touch {M}'", f"$(echo touch) {M}", f"`echo touch` {M}",
    "find . $(echo -delete)", f"find . -maxdepth 0 $(printf -- '-fprint\n{M}')",
    f"sort $(printf -- '-o\n{M}') f", "sed -n \"$(cat evil.sed)\" f", f"cat <(touch {M})",
    f"echo $(printf -- '%s' \"$(touch {M})\")", f"ls $(echo .) $(touch {M})",
]

FAMILY_1: list[Attack] = (attacks(1, NOT_BYPASS, *_COMMANDS, hint=_HINT)
                          + attacks(1, NOT_BYPASS, *_LATER,
                                    hint="names bash evaluates later, and substituted output "
                                         "used as a program, option or script, are code"))
