"""The /model picker's rows: the aliases people type, then the current model if it is another.

Each row says what the model is (its id, context window, price per million tokens) and which
effort levels it takes, so the picker can show the models table with effort as Claude Code's
does. Built from the model table (api/models.py); front ends never import the API package.
"""

from __future__ import annotations

from claude_harness.api.models import ALIAS_DEFAULTS, ModelSpec, resolve_alias, spec_for
from claude_harness.protocol.events import ModelInfo, ModelsListed

DESCRIPTIONS = {
    "opus": "Opus: the most capable, for complex work",
    "sonnet": "Sonnet: the everyday choice, fast and capable",
    "haiku": "Haiku: the fastest, for quick answers",
}


def _row(alias: str, model: str, label: str, spec: ModelSpec) -> ModelInfo:
    price = f"${spec.price.input:g}/${spec.price.output:g} per Mtok"
    return ModelInfo(alias, model, label, spec.context_window, tuple(spec.efforts),
                     spec.default_effort, price)


def models_listing(current: str, effort: str | None) -> ModelsListed:
    rows = [_row(alias, resolve_alias(alias), DESCRIPTIONS.get(alias, alias),
                 spec_for(resolve_alias(alias))) for alias in ALIAS_DEFAULTS]
    if current not in (row.model for row in rows):
        rows.append(_row("", current, f"{current} (current)", spec_for(current)))
    return ModelsListed(tuple(rows), current, effort)
