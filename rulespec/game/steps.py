"""A ruleset's scalar steps: the lowered form's functions as Python (``procedure.python.steps``), made
once per ruleset, and the errors its ``fail`` codes stand for.

``HandState``, the bid rules, the legal cards, the score and the game's end all call these; each has
an explained twin (``NAME__x``) whose notes a recorder turns into the explanation lines.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from ..core import cards as C
from ..errors import DeadEndError, GameError
from ..model.ruleset import Ruleset, per_ruleset
from ..procedure import lang
from ..procedure.python import steps as generate

# the functions the scalar steps call (and what they call in turn)
ENTRIES = ("legal", "play_card", "trick_winner", "bid_refusal", "legal_bids", "raise_options", "round_raise_options",
           "may_raise", "contract_of", "pair_refusal", "exchange_count", "renege_transfers", "score_team", "game_end",
           "first_leader")
KIND_CODE = {"regular": lang.K_REGULAR, "nil": lang.K_NIL, "blind_nil": lang.K_BLIND_NIL, "blind": lang.K_BLIND}


def bad_winner(rs: Ruleset, card: int) -> NoReturn:
    """A ``trick.winner`` rule named a card that is not in the trick."""
    raise GameError(f"rule trick.winner named {C.card_name(card) if card >= 0 else 'no card'}, "
                    "which is not in the trick", "cards", "trick.winner", rs.rules["trick.winner"].cite)


def failure(rs: Ruleset) -> Callable[[int, int], NoReturn]:
    """The scalar steps' ``fail``: the error each code of ``lang.FAILURES`` stands for."""
    def fail(code: int, value: int) -> NoReturn:
        if code == lang.BAD_WINNER:
            bad_winner(rs, value)
        if code == lang.NO_BID:
            raise DeadEndError(f"{C.SEATS[value]} has no legal bid", f"bids.{C.SEATS[value]}")
        raise GameError(lang.FAILURES[code], "events", "renege.mode", rs.rules["renege.mode"].cite)
    return fail


class Steps:
    """The generated steps of one ruleset, as attributes (``legal``, ``score_team__x``, ...)."""

    def __init__(self, rs: Ruleset):
        self.__dict__.update(generate(rs, ENTRIES, failure(rs)))

    def __getattr__(self, name: str) -> Callable:    # (for the type checker: every step is set in __init__)
        raise AttributeError(name)


steps_of: Callable[[Ruleset], Steps] = per_ruleset(Steps)
