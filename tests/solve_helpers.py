"""Shared by the solver's tests and its bench: random positions, a plain minimax over ``HandState``,
and a deal in DDS's terms (``endplay``)."""
from __future__ import annotations

import random
from pathlib import Path

from rulespec.app.answers import inline_variant
from rulespec.core import cards as C
from rulespec.game.hand import HandState
from rulespec.model.ruleset import Ruleset
from rulespec.solve.search import Goal, Position

BRIDGE_SPADES = str(Path(__file__).parent / "variants" / "bridge-spades.yaml")
NS = Goal.of_team(0, 0b0101)
EW = Goal.of_team(1, 0b1010)
NO_FOLLOWING = {"play.follow": "hand"}      # any card may be played to any trick


def searched_ids(four: bool = True) -> list[str]:
    """The bundled variants of four seats in two partnerships (``four``; the compiled search's tables, and
    the goals ``NS`` and ``EW``), or the others (cut-throat, solo, two-player, five- and six-handed)."""
    from rulespec.model.ruleset import load_ruleset
    from rulespec.model.variants import bundled_ids
    return [vid for vid in bundled_ids() if (C.table_of(load_ruleset(vid).params) is C.FOUR) is four]


def goals_of(rs: Ruleset, rng: random.Random) -> list[Goal]:
    """Questions to check at ``rs``'s table: N/S's tricks and one seat's for E/W in partnerships; elsewhere a
    random seat's tricks, claimed by it alone, and a random seat's as a nil (everyone else trying to give it
    tricks)."""
    table = C.table_of(rs.params)
    if table is C.FOUR:
        return [NS, Goal.of_team(1, 1 << rng.randrange(4))]
    everyone = (1 << table.seats) - 1
    claimer, nil = rng.randrange(table.seats), rng.randrange(table.seats)
    side = sum(1 << s for s in table.members(table.side_of(claimer)))         # (alone: the claimer)
    mine = sum(1 << s for s in table.members(table.side_of(nil)))
    return [Goal(side, side), Goal(everyone & ~mine, 1 << nil)]


def house_variant(rules: dict, size: int = 13, vid: str = "solve-test") -> Ruleset:
    """Standard with ``rules`` changed and ``size`` cards a seat (an inline house rule)."""
    return inline_variant({"extends": "standard", "id": vid, "rules": {"deal.hand_size": size, **rules}}, "variant")


def random_position(rs: Ruleset, rng: random.Random, tricks: int) -> Position:
    """``tricks`` cards per seat drawn from a shuffled pack, a random leader, trumps broken or not, and
    up to all but one card of the trick already played by legal plays (at ``rs``'s table: 2 to 6 seats)."""
    seats = C.table_of(rs.params).seats
    cards = C.card_list(rs.deck)
    rng.shuffle(cards)
    hands = [C.mask_of(cards[k * tricks:(k + 1) * tricks]) for k in range(seats)]
    size = rs.params["deal.hand_size"]
    state = at_position(rs, Position(hands, rng.randrange(seats), [], size - tricks + 1, rng.random() < 0.5,
                                     rs.deck & ~C.mask_of(cards[:seats * tricks])))
    for _ in range(rng.choice((0, 0, *range(1, seats)))):
        state.play(rng.choice(C.card_list(state.legal())))
    return Position(list(state.hands), state.leader, list(state.trick), state.number, state.broken, state.played)


def hands_body(variant: str, pos: Position) -> dict:
    """A /v1/solve, /v1/claim or /v1/nil request (or ``rulespec solve`` file) for ``pos``: the cards each seat
    holds, the leader, the trick so far, whether trumps are broken."""
    return {"variant": variant, "leader": C.SEATS[pos.leader], "broken": pos.broken,
            "trick": [C.card_name(c) for c in pos.trick],
            "hands": {C.SEATS[s]: C.card_names(hand) for s, hand in enumerate(pos.hands)}}

def at_position(rs: Ruleset, pos: Position) -> HandState:
    """A ``HandState`` in the middle of its card play at ``pos``."""
    state = HandState(rs, pos.hands, 0)
    state.hands, state.leader, state.number, state.broken = list(pos.hands), pos.leader, pos.number, pos.broken
    state.played, state.trick = pos.played, list(pos.trick)
    state.trick_mask = C.mask_of(pos.trick)
    state.led = rs.suit_of[pos.trick[0]] if pos.trick else state.led
    state.plays = [((pos.leader + k) % len(pos.hands), card) for k, card in enumerate(pos.trick)]
    return state


def minimax(state: HandState, goal: Goal) -> int:
    """The counted seats' tricks from ``state`` by trying every legal card of every seat (no pruning), to the
    hand's end or, dealt short, to the last card."""
    if state.over or not state.hands[state.to_play]:
        return 0
    seat = state.to_play
    results = []
    for card in C.card_list(state.legal()):
        child = state.copy()
        child.play(card)
        gained = 0
        if len(child.trick) == len(child.hands):
            gained = goal.counted >> child.finish_trick() & 1
        results.append(gained + minimax(child, goal))
    return max(results) if goal.side >> seat & 1 else min(results)


def pbn(pos: Position) -> str:
    """The position's hands as a PBN deal string, North first (spades, hearts, diamonds, clubs)."""
    ranks = "AKQJT98765432"
    hands = []
    for hand in pos.hands:
        suits = []
        for suit in (C.SPADES, C.HEARTS, C.DIAMONDS, C.CLUBS):
            suits.append("".join(r for r in ranks if hand >> C.make_card(suit, 14 - ranks.index(r)) & 1))
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


def dds_tricks(pos: Position) -> int:
    """DDS's tricks for N/S from ``pos`` (a trick boundary), spades trumps, through ``endplay``."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    deal = Deal(pbn(pos), first=Player(pos.leader), trump=Denom.spades)
    best = max(tricks for _, tricks in solve_board(deal, SolveMode.OptimalOne))
    left = pos.hands[pos.leader].bit_count()
    return best if pos.leader % 2 == 0 else left - best


def agrees_with_minimax(rs: Ruleset, seed: int, positions: int, tricks: tuple[int, int]) -> None:
    """The solver's value equals plain minimax for both sides on ``positions`` random positions of
    ``tricks`` (lowest, highest) tricks."""
    from rulespec.solve.search import Search
    rng = random.Random(seed)
    for _ in range(positions):
        pos = random_position(rs, rng, rng.randint(*tricks))
        for goal in (NS, EW):
            assert Search(rs, pos, goal).value() == minimax(at_position(rs, pos), goal), (pos, goal)
