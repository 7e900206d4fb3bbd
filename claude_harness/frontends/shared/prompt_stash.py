"""Ctrl+S (`chat:stash`), as Claude Code does it: a draft in the input is put aside and the
input cleared; Ctrl+S on an empty input brings it back, and so does sending the next prompt
(the stash returns to the input once the prompt has gone). Long pastes in the draft go with
it, so their placeholders still expand when it is finally sent.

One per front end's input; nothing here knows of Textual or prompt-toolkit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from claude_harness.frontends.shared.pasted_text import PastedTexts

STASHED = "stashed · ctrl+s to restore"
RESTORED = "draft restored"


@dataclass
class PromptStash:
    text: str | None = None
    _pastes: tuple[dict[int, str], int] | None = None
    # A new stash replaces the old one, as in Claude Code; the old draft goes here (the
    # prompt history) so Up still finds it
    on_replaced: Callable[[str], None] | None = None

    @property
    def held(self) -> bool:
        return self.text is not None

    def toggle(self, current: str, pasted: PastedTexts) -> tuple[str, str] | None:
        """Ctrl+S: (what the input now holds, what to tell the user), or None when there is
        nothing to do (an empty input and no stash)."""
        if current.strip():
            if self.text is not None and self.on_replaced is not None:
                self.on_replaced(_expanded(self.text, self._pastes))
            self.text, self._pastes = current, pasted.snapshot()
            pasted.clear()
            return "", STASHED
        if self.text is None:
            return None
        return self.take(pasted), RESTORED

    def take(self, pasted: PastedTexts) -> str:
        """The stashed draft, out of the stash (its pastes back in `pasted`)."""
        text, saved = self.text or "", self._pastes
        self.text, self._pastes = None, None
        if saved is not None:
            pasted.restore(saved)
        return text


def _expanded(text: str, saved: tuple[dict[int, str], int] | None) -> str:
    pastes = PastedTexts()
    if saved is not None:
        pastes.restore(saved)
    return pastes.expand(text)
