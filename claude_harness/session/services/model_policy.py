"""The model settings Claude Code documents: `availableModels` (which models may be chosen),
`modelOverrides` (the id actually sent for an Anthropic model id) and `fallbackModel`.

As Claude Code 2.1.332 does: a choice (`--model`, `ANTHROPIC_MODEL`, the `model` setting,
`/model`) that `availableModels` does not allow is set aside with one line ("Model "opus" is
restricted by your organization's settings. Using ... instead.") and the next source decides;
the default model is always allowed. Entries are family aliases (`opus` allows any opus),
version prefixes (`opus-4-5`, `claude-opus-5` allows `claude-opus-5-5`) or full ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

FAMILIES = ("opus", "sonnet", "haiku")


@dataclass(frozen=True)
class ModelPolicy:
    available: tuple[str, ...] | None = None  # None: every model may be chosen
    overrides: dict[str, str] = field(default_factory=dict)
    fallback: tuple[str, ...] = ()

    @classmethod
    def from_settings(cls, loaded: Any) -> ModelPolicy:
        available = loaded.value("availableModels")
        overrides = loaded.value("modelOverrides")
        fallback = loaded.value("fallbackModel")
        if isinstance(fallback, str):
            fallback = [fallback]
        return cls(
            available=tuple(str(m) for m in available) if isinstance(available, list) else None,
            overrides={str(k): str(v) for k, v in overrides.items() if isinstance(v, str)}
            if isinstance(overrides, dict) else {},
            fallback=tuple(str(m) for m in fallback) if isinstance(fallback, list) else ())

    def allows(self, model: str) -> bool:
        """May `model` (an alias or an id) be chosen?"""
        if self.available is None:
            return True
        from claude_harness.api.models import resolve_alias

        wanted = resolve_alias(model).lower()
        return any(_entry_allows(entry.strip().lower(), wanted) for entry in self.available)

    def choose(self, choices: Sequence[str | None], default: str,
               notes: list[str]) -> str:
        """The first allowed choice, else `default`; a line in `notes` for each set aside."""
        from claude_harness.api.models import resolve_alias

        picked = [c for c in choices if c]
        for index, choice in enumerate(picked):
            if self.allows(choice):
                return resolve_alias(choice)
            later = next((c for c in picked[index + 1:] if self.allows(c)), default)
            notes.append(f'Model "{choice}" is restricted by your organization\'s settings. '
                         f"Using {resolve_alias(later)} instead.")
        return resolve_alias(default)

    def sent_id(self, model: str) -> str:
        """The id a request carries for `model` (`modelOverrides`)."""
        return self.overrides.get(model, model)


def _entry_allows(entry: str, model_id: str) -> bool:
    if entry in FAMILIES:
        return f"-{entry}-" in f"{model_id}-"
    full = entry if entry.startswith("claude-") else f"claude-{entry}"
    return model_id in (entry, full) or model_id.startswith(f"{full}-")
