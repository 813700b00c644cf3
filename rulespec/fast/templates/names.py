"""What a template may name that its generated module defines (placeholders for linters; the templates
import them on lines marked ``# generated``, which the module leaves out)."""
from __future__ import annotations

import numpy as np

SIZE = 13                                  # cards dealt to each player (deal.hand_size)
SEATS = 4                                  # the players at the table (table.seats)
SIDES = 2                                  # the sides that score (the partnerships, or one per player)
PLACES = 4                                 # the places of an array by seat (at least four; table.seats above)
PACK = np.zeros(52, dtype=np.int64)       # the pack's card ids


def whole_hand(*args) -> None:
    """The lowered form's whole hand (``procedure.whole_hand``)."""


def popcount(mask: int) -> int:
    """The number of cards in a set."""
    return 0


def lowest_card(mask: int) -> int:
    """The lowest card of a non-empty set."""
    return 0
