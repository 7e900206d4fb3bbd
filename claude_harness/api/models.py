"""Model names in one place: the default, the aliases users type, alias resolution."""

from __future__ import annotations

DEFAULT_MODEL = "claude-sonnet-5-5"
MODEL_ALIASES = {
    "sonnet": "claude-sonnet-5-5",
    "opus": "claude-opus-5-5",
    "haiku": "claude-haiku-5-5",
}


def resolve_alias(model: str) -> str:
    return MODEL_ALIASES.get(model, model)
