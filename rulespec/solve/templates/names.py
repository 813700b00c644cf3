"""What the search template may name that its generated module defines (placeholders for linters; the template
imports them on lines marked ``# generated``, which the module leaves out).  ``native_source`` defines each:
the constants from the ruleset, the card play lowered from its rules, the helpers under these names."""
from __future__ import annotations

import numpy as np

NONE = -1                                   # no card, no suit
ENGINE_JIT: dict = {"cache": True}          # the engine's numba options (``_nrt`` off where numba has it)
# the rules' card tables (``fast.numba_rules.TABLES``), 54 cards: power, suit (NONE: none), each suit's cards
POWER = np.zeros(54, dtype=np.int64)
SUIT_OF = np.zeros(54, dtype=np.int64)
SUIT_SET = np.zeros(5, dtype=np.int64)
# the pack's suits (``symmetry.suit_orders``): cards highest first (NONE padded), their number and mask; per
# card the higher cards of its suit and its suit (NONE: none)
ORDER = np.zeros((4, 13), dtype=np.int64)
ORDLEN = np.zeros(4, dtype=np.int64)
SMASK = np.zeros(4, dtype=np.int64)
ABOVE = np.zeros(54, dtype=np.int64)
OSUIT = np.zeros(54, dtype=np.int64)
# what the rules are shown to allow (``native_source._shape_constants``)
UNSUITED = 0            # the pack's cards of no suit
SYMMETRIC = True        # interchangeable cards (``symmetry.equivariant``)
NORMALISED = True       # table keys rank-normalised
SHAPE = True            # ``quick.Shape`` holds: its move ordering and sure tricks
PARTITION = True        # relevant-card entries (``partition``)
TRUMP = 3               # the trump suit (NONE: none)
RESTRICTED = 3          # the suit that may not be led until broken (NONE: none)


def popcount(mask: int) -> int:
    """The number of cards in a set."""
    return 0


def legal(hand: int, trick_mask: int, led: int, number: int, position: int, leading: bool, broken: bool,
          played: int) -> int:
    """A seat's legal set (the lowered form's ``legal``)."""
    return 0


def breaks(card: int, hand: int, leading: bool, led: int, number: int) -> bool:
    """Whether playing ``card`` breaks the restricted suit (the lowered form's ``breaks``)."""
    return False


def winner(trick_mask: int, led: int, number: int, lead: int) -> int:
    """The card of ``trick_mask`` that wins (``trick.winner``; the lowered form's ``winner_card``)."""
    return NONE
