"""The load report: what the configuration brought in, what was skipped, and why.

Every loader (agents, commands, skills, hooks, settings keys, MCP servers, plugins, rules) adds
entries here instead of dropping things silently. `claude-harness doctor` prints it, `/doctor`
shows it, and `startup_notice()` is the one line a front end shows when anything was skipped.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Status = Literal["loaded", "skipped", "unsupported", "warning"]
KIND_ORDER = ("plugin", "agent", "command", "skill", "hook", "setting", "mcp", "rule")
PLURAL = {"agent": "agents", "command": "commands", "skill": "skills", "hook": "hooks",
          "setting": "settings keys", "mcp": "MCP servers", "plugin": "plugins",
          "rule": "rules files", "keybinding": "keybindings"}


@dataclass(frozen=True)
class ReportEntry:
    kind: str  # one of KIND_ORDER
    name: str
    source: str  # the file (or flag, or settings key) it came from
    status: Status
    reason: str = ""


@dataclass
class LoadReport:
    entries: list[ReportEntry] = field(default_factory=list)

    def add(self, kind: str, name: str, source: str, status: Status = "loaded",
            reason: str = "") -> None:
        self.entries.append(ReportEntry(kind, name, source, status, reason))

    def extend(self, other: LoadReport) -> None:
        self.entries.extend(other.entries)

    def of(self, kind: str, status: Status | None = None) -> list[ReportEntry]:
        return [e for e in self.entries if e.kind == kind
                and (status is None or e.status == status)]

    @property
    def problems(self) -> list[ReportEntry]:
        return [e for e in self.entries if e.status != "loaded"]

    def counts(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for entry in self.entries:
            out.setdefault(entry.kind, Counter())[entry.status] += 1  # type: ignore[index]
        return {k: dict(v) for k, v in out.items()}

    def startup_notice(self) -> str | None:
        """One line for the start of a session, or None when nothing was skipped."""
        skipped = Counter(e.kind for e in self.entries if e.status in ("skipped", "unsupported"))
        if not skipped:
            return None
        parts = [f"{n} {PLURAL.get(k, k) if n != 1 else k}" for k, n in _ordered(skipped)]
        return (f"Configuration: {', '.join(parts)} not loaded or not supported; "
                "run /doctor (or `claude-harness doctor`) for details.")

    def as_data(self) -> dict[str, Any]:
        return {"counts": self.counts(), "entries": [asdict(e) for e in self.entries]}

    def format(self) -> str:
        """The human-readable report `claude-harness doctor` prints."""
        lines: list[str] = []
        for kind in [*KIND_ORDER, *sorted({e.kind for e in self.entries} - set(KIND_ORDER))]:
            entries = self.of(kind)
            if not entries:
                continue
            loaded = [e for e in entries if e.status == "loaded"]
            lines.append(f"{PLURAL.get(kind, kind).capitalize()}: {len(loaded)} loaded"
                         + _problem_counts(entries))
            for entry in loaded:
                lines.append(f"  ok       {entry.name}  ({entry.source})")
            for entry in entries:
                if entry.status != "loaded":
                    reason = f": {entry.reason}" if entry.reason else ""
                    lines.append(f"  {entry.status:<8} {entry.name}  ({entry.source}){reason}")
        return "\n".join(lines) if lines else "Nothing configured: no agents, commands, skills, " \
                                              "hooks, settings, MCP servers or plugins found."


def _problem_counts(entries: list[ReportEntry]) -> str:
    counts = Counter(e.status for e in entries if e.status != "loaded")
    return "".join(f", {n} {status}" for status, n in sorted(counts.items()))


def _ordered(counter: Counter[str]) -> list[tuple[str, int]]:
    rank = {k: i for i, k in enumerate(KIND_ORDER)}
    return sorted(counter.items(), key=lambda kv: rank.get(kv[0], len(rank)))
