"""The model settings Claude Code documents: `availableModels` (which models may be chosen),
`modelOverrides` (the id actually sent for an Anthropic model id) and `fallbackModel`.

As Claude Code 2.1.332 does: a choice (`--model`, `ANTHROPIC_MODEL`, the `model` setting,
`/model`) that `availableModels` does not allow is set aside with one line ("Model "opus" is
restricted by your organization's settings. Using ... instead.") and the next source decides;
the default model is always allowed. Entries are family aliases (`opus` allows any opus),
version prefixes (`opus-4-5`, `claude-opus-5` allows `claude-opus-5-5`) or full ids.

Two managed-settings keys narrow it further, as Claude Code documents them (both are read
from managed settings only, as Claude Code reads them):
`deniedModels` refuses models even when `availableModels` allows them (an alias blocks the
family; an id blocks that version in every spelling: dates, `-fast`, provider prefixes), for
`--model`, `/model`, `ANTHROPIC_MODEL`, the `model` setting and the default itself;
`enforceAvailableModels` makes the default obey a non-empty `availableModels` too: a default
it does not allow becomes the first entry it allows. With no model left for the default,
the session does not start (`NoModelLeft`).

`availableModelsMatch: "exact"` (managed settings only, as Claude Code reads it) keeps family
aliases but stops an id entry from allowing other versions: `claude-opus-5` allows Opus 5 with
its dated and `-fast` ids, not Opus 5.5; a `-latest` id needs a `-latest` entry; aliases whose
model depends on the release (`best`, `opusplan`, `default`) are ignored; and with at least one
model listed the default, too, is one the list allows (as `enforceAvailableModels`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

FAMILIES = ("opus", "sonnet", "haiku")
MOVING_ALIASES = frozenset({"best", "opusplan", "default"})  # ignored by an exact match


class NoModelLeft(ValueError):
    """deniedModels / enforceAvailableModels leave no model the session may start with."""


@dataclass(frozen=True)
class ModelPolicy:
    available: tuple[str, ...] | None = None  # None: every model may be chosen
    overrides: dict[str, str] = field(default_factory=dict)
    fallback: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()  # deniedModels (managed settings)
    enforce_available: bool = False  # enforceAvailableModels (managed settings)
    exact: bool = False  # availableModelsMatch: "exact"

    @classmethod
    def from_settings(cls, loaded: Any) -> ModelPolicy:
        available = loaded.value("availableModels")
        overrides = loaded.value("modelOverrides")
        fallback = loaded.value("fallbackModel")
        if isinstance(fallback, str):
            fallback = [fallback]
        managed = [s.settings.model_dump(exclude_unset=True) for s in loaded.sources
                   if s.source == "policySettings"]
        return cls(
            available=tuple(str(m) for m in available) if isinstance(available, list) else None,
            overrides={str(k): str(v) for k, v in overrides.items() if isinstance(v, str)}
            if isinstance(overrides, dict) else {},
            fallback=tuple(str(m) for m in fallback) if isinstance(fallback, list) else (),
            denied=tuple(str(m) for d in managed if isinstance(d.get("deniedModels"), list)
                         for m in d["deniedModels"]),
            enforce_available=any(d.get("enforceAvailableModels") is True for d in managed),
            exact=any(d.get("availableModelsMatch") == "exact" for d in managed))

    def refusal(self, model: str) -> str | None:
        """The setting that refuses `model` (an alias or an id), or None when it may be
        chosen."""
        from claude_harness.api.models import resolve_alias

        resolved = resolve_alias(model).lower()
        wanted = _bare(resolved)
        if any(_entry_allows(_bare(e.strip().lower()), wanted) for e in self.denied):
            return "deniedModels"
        if self.available is not None and not any(
                self._listed(entry.strip().lower(), wanted, resolved)
                for entry in self.available):
            return "availableModels"
        return None

    def _listed(self, entry: str, wanted: str, resolved: str) -> bool:
        if not self.exact:
            return _entry_allows(entry, wanted)
        if entry in MOVING_ALIASES:
            return False
        if entry in FAMILIES:
            return _entry_allows(entry, wanted)
        full = entry if entry.startswith("claude-") else f"claude-{entry}"
        latest = resolved.endswith("-latest")
        return _bare(full) == wanted and full.endswith("-latest") == latest

    def allows(self, model: str) -> bool:
        """May `model` (an alias or an id) be chosen?"""
        return self.refusal(model) is None

    def default_model(self, default: str) -> str:
        """The default, unless deniedModels refuses it or enforceAvailableModels asks for one
        of a non-empty availableModels; then the first such entry allowed."""
        from claude_harness.api.models import resolve_alias

        listed = [e for e in self.available or () if e.strip().lower() not in MOVING_ALIASES]
        enforce = (self.enforce_available and bool(self.available)) or (self.exact and
                                                                         bool(listed))
        if self.refusal(default) not in ("deniedModels", "availableModels" if enforce else ""):
            return resolve_alias(default)
        candidates = self.available if self.available else FAMILIES
        for entry in candidates:
            if self.allows(entry):
                return resolve_alias(entry)
        raise NoModelLeft("No model is left to start with: the default model "
                          f"{resolve_alias(default)} is refused by your organization's "
                          "settings (deniedModels / enforceAvailableModels) and no "
                          "availableModels entry is allowed.")

    def choose(self, choices: Sequence[str | None], default: str,
               notes: list[str]) -> str:
        """The first allowed choice, else the default; a line in `notes` for each set aside."""
        from claude_harness.api.models import resolve_alias

        picked = [c for c in choices if c]
        for index, choice in enumerate(picked):
            if self.allows(choice):
                return resolve_alias(choice)
            later = next((c for c in picked[index + 1:] if self.allows(c)), None)
            notes.append(f'Model "{choice}" is restricted by your organization\'s settings. '
                         f"Using {resolve_alias(later or self.default_model(default))} "
                         "instead.")
        return self.default_model(default)

    def sent_id(self, model: str) -> str:
        """The id a request carries for `model` (`modelOverrides`)."""
        return self.overrides.get(model, model)


def _bare(model_id: str) -> str:
    """The Anthropic id inside a provider's spelling (`us.anthropic.claude-opus-5-5-v1:0`,
    `anthropic/claude-opus-5-5`), without a date or `-fast`."""
    start = model_id.find("claude-")
    bare = model_id[start:] if start >= 0 else model_id
    bare = re.sub(r"(-v\d+(:\d+)?|@.*)$", "", bare)
    return re.sub(r"(-\d{8}|-fast|-latest)+$", "", bare)


def _entry_allows(entry: str, model_id: str) -> bool:
    if entry in FAMILIES:
        return f"-{entry}-" in f"{model_id}-"
    full = entry if entry.startswith("claude-") else f"claude-{entry}"
    return model_id in (entry, full) or model_id.startswith(f"{full}-")
