"""Front matter of command, skill, agent and rule files, read by a real YAML parser (PyYAML).

    ---
    description: Review the staged diff
    allowed-tools: Bash(git diff:*), Read        # a comma separated string, or a YAML list
    argument-hint: [file] [focus]                # not valid YAML: see the leniency below
    ---
    body...

Leniency, as Claude Code 2.1 reads these files (observed by running it on the same files):
- YAML 1.2 scalars: only `true`/`false` are booleans (`yes`, `on` stay text) and dates stay text,
  so `description: yes` is the word "yes", as in Claude Code's parser.
- A block that fails to parse is tried once more with leading tabs turned into spaces and every
  plain `key: value` line whose value holds YAML punctuation (`[`, `{`, `: `, `#`, `*`, ...) quoted,
  so real files such as `argument-hint: [file] [focus]` or `description: Fix: the bug` load.
- A block that still fails yields no fields and an `error`; the caller decides what that means
  (an agent without fields is skipped, a skill falls back to its folder name and first line).
A file that does not start with `---` has no front matter.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from claude_harness.permissions.rule_lists import split_rule_list

if TYPE_CHECKING:
    import yaml


@functools.cache
def _loader() -> type[yaml.SafeLoader]:
    """SafeLoader with YAML 1.2 core booleans and no timestamp resolution (values stay text).

    Built (and PyYAML imported) at the first front matter block read, not at import: a session
    with no command, agent or skill files never pays for PyYAML at start."""
    import yaml

    class _Loader(yaml.SafeLoader):
        pass

    _Loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers
                if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    _Loader.add_implicit_resolver(
        "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
        list("tTfF"),
    )
    return _Loader

_SIMPLE_LINE = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*):\s+(.+)$")
_NEEDS_QUOTES = re.compile(r"[{}\[\]*&#!|>%@`]|: ")
TRUE_WORDS = frozenset({"true", "yes", "1", "on"})


@dataclass
class FrontMatter:
    """The fields (as YAML values), the body, and what went wrong reading them."""

    data: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    warnings: list[str] = field(default_factory=list)
    present: bool = False  # the file had a `---` block
    error: str | None = None  # the block is not YAML even after the lenient retry

    def text(self, key: str, default: str = "") -> str:
        """A scalar field as text; lists are joined with ", "; missing or null -> default."""
        value = self.data.get(key)
        if value is None:
            return default
        if isinstance(value, list):
            return ", ".join(_scalar_text(v) for v in value if v is not None)
        if isinstance(value, dict):
            return default
        return _scalar_text(value)

    def items(self, key: str) -> list[str] | None:
        """A list field given as a YAML list or as a comma separated string; None if absent."""
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, list):
            return [_scalar_text(v).strip() for v in value if v is not None and str(v).strip()]
        if isinstance(value, dict):
            return None
        return split_rule_list(_scalar_text(value))

    def flag(self, key: str, default: bool = False) -> bool:
        """A boolean field: YAML `true`, or the words true/yes/on/1 as text."""
        value = self.data.get(key)
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            return value.strip().lower() in TRUE_WORDS
        if isinstance(value, int):
            return value != 0
        return default

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None and self.text(key).strip() != ""


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def split_front_matter(text: str) -> tuple[str | None, str]:
    """(the YAML block or None, the body); a block with no closing `---` is no block."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    if not text.startswith("---"):
        return None, text
    lines = text.split("\n")
    if lines[0].strip() != "---":
        return None, text
    for end in range(1, len(lines)):
        if lines[end].strip() == "---":
            return "\n".join(lines[1:end]), "\n".join(lines[end + 1:])
    return None, text


def quote_problem_values(block: str) -> str:
    """Quote plain `key: value` lines whose value YAML would misread (the lenient retry)."""
    out: list[str] = []
    for line in block.split("\n"):
        match = _SIMPLE_LINE.match(line)
        if match is not None:
            key, value = match.group(1), match.group(2)
            quoted = value[0] in "\"'" and value.endswith(value[0]) and len(value) > 1
            if not quoted and value[0] not in "\"'" and _NEEDS_QUOTES.search(value):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                line = f'{key}: "{escaped}"'
        out.append(line)
    return "\n".join(out)


def load_yaml_block(block: str) -> tuple[dict[str, Any], str | None]:
    """Parse a front matter block: (mapping, None) or ({}, error) when it is not usable."""
    import yaml

    loader = _loader()
    try:
        value = yaml.load(block, Loader=loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as first:
        retry = quote_problem_values(re.sub(r"^\t+", lambda m: "  " * len(m.group(0)), block,
                                            flags=re.M))
        try:
            value = yaml.load(retry, Loader=loader)  # noqa: S506 - a SafeLoader subclass
        except yaml.YAMLError:
            return {}, _yaml_error(first)
    if value is None:
        return {}, None
    if not isinstance(value, dict):
        return {}, "the front matter is not a set of `key: value` fields"
    return {str(k): v for k, v in value.items()}, None


def _yaml_error(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    where = f" (front matter line {mark.line + 1})" if mark is not None else ""
    return f"front matter is not valid YAML: {problem}{where}"


def parse_front_matter(text: str) -> FrontMatter:
    """Split a Markdown file into its front matter fields and its body."""
    block, body = split_front_matter(text)
    if block is None:
        result = FrontMatter(body=body)
        if body.startswith("---\n") or body.strip() == "---":
            result.warnings.append("front matter has no closing `---`; the whole file is the body")
        return result
    data, error = load_yaml_block(block)
    result = FrontMatter(data=data, body=body.lstrip("\n"),
                         present=True, error=error)
    if error:
        result.warnings.append(error)
    return result
