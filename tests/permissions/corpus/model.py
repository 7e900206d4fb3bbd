"""One adversarial corpus entry: the attack, its family, and where it must be refused."""

from __future__ import annotations

from dataclasses import dataclass

from tests.permissions.corpus.configs import CONFIGS

FAMILIES = {
    0: "the original bypass corpus (research 3.2)",
    1: "expansions bashlex folds away but bash still runs",
    2: "option parsing without arity or abbreviations",
    3: "programs that read files but are not known as readers",
    4: "globs in path positions",
    5: "inner scripts and exec wrappers",
    6: "git and tool options that write or execute",
    7: "two-step attacks",
    9: "bypassPermissions safety",
    10: "git's own config and the runners' indirections",
}


@dataclass(frozen=True)
class Attack:
    """`steps` run as separate Bash calls, in order (one step for most attacks). The attack is
    refused when any step is refused; every configuration in `configs` must refuse it."""

    family: int
    steps: tuple[str, ...]
    configs: tuple[str, ...]
    hint: str = ""  # the class of hole, for whoever fixes it

    def __post_init__(self) -> None:
        unknown = [c for c in self.configs if c not in CONFIGS]
        assert not unknown, f"unknown configuration {unknown} in {self.steps}"
        assert self.family in FAMILIES and self.steps and self.configs

    @property
    def text(self) -> str:
        return " ⟶ ".join(self.steps)


def attacks(family: int, configs: tuple[str, ...], *commands: str, hint: str = "") -> list[Attack]:
    """Single-call attacks of one family, all refused in the same configurations."""
    return [Attack(family, (c,), configs, hint) for c in commands]


def sequence(family: int, configs: tuple[str, ...], *steps: str, hint: str = "") -> Attack:
    return Attack(family, tuple(steps), configs, hint)
