"""The Bash checker: one analysis of a command, one decision chain (decision.py).

Modules, in import order: words (one word's pieces), expand (what a word becomes), parse (the
simple commands of a string), options (option tables and a getopt_long reader), effects (what
an invocation does), tables / readers / scripts / writers / git / find / patches (what each
known program does), trees (checks of names only known at run time), wrappers (programs that
run programs), programs (the registry), analysis, suggest, decision.
"""
