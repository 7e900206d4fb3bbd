"""Bound how often Stop hooks may send the model back to work.

A Stop hook that always answers `decision: "block"` would keep the agent running forever. The
loop asks the guard before honouring a block: after `max_consecutive` blocks in a row the turn
ends anyway (and the user is told). The count resets when a Stop hook lets the turn end or the
user sends a new prompt. `stop_hook_active` is what the loop puts in the next Stop payload so a
hook script can notice it is already in a continuation and choose to let go.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_CONSECUTIVE = 8


@dataclass
class StopHookGuard:
    max_consecutive: int = DEFAULT_MAX_CONSECUTIVE
    consecutive: int = 0

    def __post_init__(self) -> None:
        if self.max_consecutive < 1:
            raise ValueError("max_consecutive must be at least 1")

    @property
    def stop_hook_active(self) -> bool:
        """True once a Stop hook has blocked in the current run of continuations."""
        return self.consecutive > 0

    def register_block(self) -> bool:
        """Record a block; True if the loop may continue, False if the cap is reached."""
        if self.consecutive >= self.max_consecutive:
            return False
        self.consecutive += 1
        return True

    @property
    def exhausted(self) -> bool:
        return self.consecutive >= self.max_consecutive

    def reset(self) -> None:
        """A Stop hook let the turn end, or the user spoke: start counting again."""
        self.consecutive = 0

    def cap_message(self) -> str:
        return (
            f"Stop hooks blocked {self.consecutive} times in a row; "
            "ending the turn anyway to avoid an endless loop."
        )
