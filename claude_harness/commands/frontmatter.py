"""Front matter of command and agent files: the YAML subset these files use, without PyYAML.

    ---
    description: Review the staged diff
    allowed-tools: Bash(git diff:*), Read        # a comma (or space) separated string
    tools:                                       # or a block list
      - Read
      - Grep
    argument-hint: "[file] [focus]"              # quoted strings, with escapes
    arguments: [file, focus]                     # flow lists
    notes: |                                     # block scalars (| keeps lines, > folds them)
      first line
      second line
    ---
    body...

Anything fancier (nested mappings, anchors) is kept as its raw text and reported as a warning
rather than guessed at. A file that does not start with `---` has no front matter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from claude_harness.permissions.rule_lists import split_rule_list

Value = str | list[str]

_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_.-]*)\s*:(?:\s+(.*)|\s*)$")


@dataclass
class FrontMatter:
    data: dict[str, Value] = field(default_factory=dict)
    body: str = ""
    warnings: list[str] = field(default_factory=list)

    def text(self, key: str, default: str = "") -> str:
        value = self.data.get(key)
        if isinstance(value, list):
            return ", ".join(value)
        return value if value is not None else default

    def items(self, key: str) -> list[str] | None:
        """A list field given as a YAML list or as a comma/space separated string."""
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, list):
            return [v for v in value if v]
        return split_rule_list(value)

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.data.get(key)
        if isinstance(value, str):
            return value.strip().lower() in ("true", "yes", "on", "1")
        return default


def parse_front_matter(text: str) -> FrontMatter:
    """Split a Markdown file into its front matter fields and its body."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return FrontMatter(body=text)
    for end in range(1, len(lines)):
        if lines[end].strip() in ("---", "..."):
            break
    else:
        return FrontMatter(body=text, warnings=["front matter has no closing `---`; "
                                                "the whole file is used as the body"])
    result = FrontMatter(body="\n".join(lines[end + 1:]).lstrip("\n"))
    _parse_lines(lines[1:end], result)
    return result


def _parse_lines(lines: list[str], out: FrontMatter) -> None:
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or line.lstrip().startswith("#"):
            i += 1
            continue
        match = _KEY.match(line)
        if match is None or line[0].isspace():
            out.warnings.append(f"front matter line not understood: {line.strip()!r}")
            i += 1
            continue
        key, raw = match.group(1), _strip_comment(match.group(2) or "")
        block, i = _indented_block(lines, i + 1)
        out.data[key] = _value(key, raw, block, out.warnings)


def _indented_block(lines: list[str], start: int) -> tuple[list[str], int]:
    """The lines after a key that belong to it: indented ones (and blank lines between)."""
    end = start
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t-"):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end], end


def _value(key: str, raw: str, block: list[str], warnings: list[str]) -> Value:
    if raw[:1] in ("|", ">"):
        return _block_scalar(raw[0], block)
    if raw.startswith("["):
        return [_scalar(v) for v in _split_flow(raw.strip()[1:-1] if raw.endswith("]") else raw[1:])
                if v.strip()]
    if not raw and block and all(b.strip().startswith("-") or not b.strip() for b in block):
        return [_scalar(b.strip()[1:].strip()) for b in block if b.strip()]
    if not raw and block:
        warnings.append(f"front matter field {key!r}: nested values are not supported; "
                        "kept as text")
        return "\n".join(b.strip() for b in block)
    if block:  # a plain scalar continued on indented lines
        return _scalar(" ".join([raw, *(b.strip() for b in block)]))
    return _scalar(raw)


def _block_scalar(style: str, block: list[str]) -> str:
    indent = min((len(b) - len(b.lstrip()) for b in block if b.strip()), default=0)
    body = [b[indent:] if b.strip() else "" for b in block]
    if style == "|":
        return "\n".join(body).rstrip("\n")
    paragraphs: list[str] = []
    current: list[str] = []
    for line in body:
        if line:
            current.append(line)
        else:
            paragraphs.append(" ".join(current))
            current = []
    paragraphs.append(" ".join(current))
    return "\n".join(p for p in paragraphs).strip()


def _strip_comment(raw: str) -> str:
    """Drop a trailing ` # comment` outside quotes."""
    quote = ""
    for i, ch in enumerate(raw):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or raw[i - 1].isspace()):
            return raw[:i].rstrip()
    return raw.strip()


def _split_flow(text: str) -> list[str]:
    parts: list[str] = []
    quote = ""
    current = ""
    for ch in text:
        if quote:
            current += ch
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
            current += ch
        elif ch == ",":
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts


def _scalar(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        inner = raw[1:-1]
        return re.sub(r'\\(["\\nt])', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1),
                                                                          m.group(1)), inner)
    if len(raw) >= 2 and raw[0] == raw[-1] == "'":
        return raw[1:-1].replace("''", "'")
    return raw
