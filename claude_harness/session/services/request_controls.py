"""/effort and Alt+T: the user's effort and thinking choices, and what requests will carry.

The session keeps one `RequestSettings` (api/request_params.py); these functions turn a user's
word into a new one plus the notice that says what changed, and describe the settings for the
front ends as a `RequestControlsChanged` event (the level actually sent depends on the model:
`xhigh` on a model without it becomes `high`, a model without effort takes none). Choices last
for the session; `--effort`, `effortLevel` and `CLAUDE_CODE_EFFORT_LEVEL` set the start value.
"""

from __future__ import annotations

from claude_harness.api.models import EFFORT_LEVELS, THINKING_ALWAYS_ON, spec_for
from claude_harness.api.request_params import RequestSettings, parse_effort
from claude_harness.protocol.events import Notice, RequestControlsChanged

AUTO = "auto"
EFFORT_WORDS = (*EFFORT_LEVELS, AUTO)
# What each level trades, in a few words for the notice.
EFFORT_NOTES = {
    "low": "fastest answers, the least reasoning",
    "medium": "a balance of speed and reasoning",
    "high": "more reasoning before answering",
    "xhigh": "deeper reasoning still, on models that offer it",
    "max": "the deepest reasoning; slow, and uses many tokens",
}


def controls_event(model: str, settings: RequestSettings) -> RequestControlsChanged:
    """Effort and thinking as the next request to `model` carries them."""
    spec = spec_for(model)
    wanted = settings.effort or spec.default_effort
    sent = spec.clamp_effort(wanted) if wanted is not None else None
    return RequestControlsChanged(effort=settings.effort, effort_sent=sent,
                                  thinking=settings.thinking,
                                  thinking_available=spec.thinking != "none")


def set_effort(settings: RequestSettings, model: str,
               word: str) -> tuple[RequestSettings, Notice]:
    """/effort WORD: the new settings and the line that reports it (an unknown word changes
    nothing and says which words there are)."""
    word = word.strip().lower()
    if word == AUTO:
        changed = settings.with_effort(None)
        sent = controls_event(model, changed).effort_sent
        default = f" ({sent} for {model})" if sent else f" ({model} takes no effort level)"
        return changed, Notice(f"Effort level set to auto: the model's default{default}.")
    level = parse_effort(word)
    if level is None:
        return settings, Notice(f"Unknown effort level: {word or '(none)'}. Options: "
                                f"{', '.join(EFFORT_WORDS)}.", "error")
    changed = settings.with_effort(level)
    text = f"Effort level set to {level} for this session: {EFFORT_NOTES[level]}."
    sent = controls_event(model, changed).effort_sent
    if sent is None:
        text += f" {model} takes no effort level, so none is sent."
    elif sent != level:
        text += f" {model} does not offer {level}; {sent} is sent."
    return changed, Notice(text)


def toggle_thinking(settings: RequestSettings, model: str) -> tuple[RequestSettings, Notice]:
    """Alt+T: thinking off, or back on, for the following requests."""
    spec = spec_for(model)
    if spec.thinking == "none":
        return settings, Notice(f"{model} does not use extended thinking.", "warning")
    if spec.family in THINKING_ALWAYS_ON and settings.thinking:
        return settings, Notice(f"Thinking can't be turned off for {model}.", "warning")
    changed = settings.toggled_thinking()
    if changed.thinking:
        return changed, Notice("Thinking on.")
    return changed, Notice("Thinking off for this session · Alt+T turns it back on.")
