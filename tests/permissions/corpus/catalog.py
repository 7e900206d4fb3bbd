"""Every corpus in one place: the adversarial families and the everyday list."""

from __future__ import annotations

from tests.permissions.corpus.everyday import EVERYDAY
from tests.permissions.corpus.f1_expansions import FAMILY_1
from tests.permissions.corpus.f2_options import FAMILY_2
from tests.permissions.corpus.f3_readers import FAMILY_3
from tests.permissions.corpus.f4_globs import FAMILY_4
from tests.permissions.corpus.f5_wrappers import FAMILY_5
from tests.permissions.corpus.f6_tool_options import FAMILY_6
from tests.permissions.corpus.f7_two_step import FAMILY_7
from tests.permissions.corpus.f9_bypass import FAMILY_9
from tests.permissions.corpus.f10_git_config_runners import FAMILY_10
from tests.permissions.corpus.legacy import LEGACY
from tests.permissions.corpus.model import Attack

NEW_FAMILIES: dict[int, list[Attack]] = {
    1: FAMILY_1, 2: FAMILY_2, 3: FAMILY_3, 4: FAMILY_4, 5: FAMILY_5, 6: FAMILY_6, 7: FAMILY_7,
    9: FAMILY_9, 10: FAMILY_10,
}
ADVERSARIAL: list[Attack] = [*LEGACY, *(a for family in NEW_FAMILIES.values() for a in family)]
SINGLE: list[Attack] = [a for a in ADVERSARIAL if len(a.steps) == 1]
SEQUENCES: list[Attack] = [a for a in ADVERSARIAL if len(a.steps) > 1]

__all__ = ["ADVERSARIAL", "EVERYDAY", "NEW_FAMILIES", "SEQUENCES", "SINGLE"]
