"""Split a list of rules as people write them on the command line or in front matter:
`Bash(git add *), Read Grep` → ["Bash(git add *)", "Read", "Grep"].

Stdlib only: the CLI parses flags with it before anything heavy is imported.
"""

from __future__ import annotations


def split_rule_list(text: str) -> list[str]:
    """Split on commas and white space outside parentheses."""
    items: list[str] = []
    depth = 0
    current = ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if depth == 0 and (ch == "," or ch.isspace()):
            if current.strip():
                items.append(current.strip())
            current = ""
            continue
        current += ch
    if current.strip():
        items.append(current.strip())
    return items
