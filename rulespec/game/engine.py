"""Whole hands and games: deals, a hand played by a policy through ``HandState``, seeded simulation.

Seats are 0..3 (N E S W, clockwise), teams 0 (NS) and 1 (EW); cards are ids
and sets of cards bit masks (see ``core.cards``).
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..core import cards as C
from ..errors import DeadEndError, GameError
from ..model.ruleset import Ruleset
from .bids import seat_rule
from .fused import draw_cards, play_cards, play_cards_random, play_cards_sensible, policy_card
from .hand import HandState
from .play import by_seat
from .policies import POLICIES, RandomPolicy, SensiblePolicy, discard_of, keep_of
from .scoring import NO_HISTORY, game_status
from .steps import KIND_CODE


# --------------------------------------------------------------------------- hands
def shuffled(rs: Ruleset, rng: random.Random) -> list[int]:
    """The variant's pack in an order shuffled with ``rng``: the order it is dealt in, or the stock drawn from."""
    pack = list(C.iter_cards(rs.deck))
    rng.shuffle(pack)
    return pack


def deal_cards(rs: Ruleset, rng: random.Random) -> list[int]:
    """A hand for each seat (rule ``table.seats``) dealt from the variant's pack with ``rng``."""
    return _hands_of(rs, shuffled(rs, rng))


def _hands_of(rs: Ruleset, pack: Sequence[int]) -> list[int]:
    """The hands dealt from ``pack`` in order, a seat's hand after another's."""
    size = rs.params["deal.hand_size"]
    return [C.mask_of(pack[i * size:(i + 1) * size]) for i in range(rs.params["table.seats"])]


def deal_for(seed: int | str, index: int, rs: Ruleset) -> list[int]:
    """Deal ``index`` of ``seed``: the same cards in every run (and every variant with the same pack)."""
    return deal_cards(rs, random.Random(f"deal:{seed}:{index}"))


def stock_for(seed: int | str, index: int, rs: Ruleset) -> list[int]:
    """The stock of hand ``index`` of ``seed`` where the hands are drawn (``deal.draw``): the pack in the order
    ``deal_for`` deals it."""
    return shuffled(rs, random.Random(f"deal:{seed}:{index}"))


def deal_and_stock_for(seed: int | str, index: int, rs: Ruleset) -> tuple[list[int], list[int]]:
    """``deal_for`` and ``stock_for`` of hand ``index`` of ``seed``, from one shuffle."""
    stock = stock_for(seed, index, rs)
    return _hands_of(rs, stock), stock


def _trick_log(plays: list[tuple[int, int]], winners: list[int], seats: int = 4) -> list[dict]:
    """The record's tricks: leader, cards in play order and winner of each."""
    return [{"leader": C.SEATS[plays[i][0]], "cards": [C.NAMES[card] for _, card in plays[i:i + seats]],
             "winner": C.SEATS[winner]} for i, winner in zip(range(0, len(plays), seats), winners)]


def play_hand(rs: Ruleset, hands: list[int], dealer: int, policy, scores=None, bags=None,
              record: bool = True, stepped: bool = False, stock: Sequence[int] | None = None) -> dict:
    """Bid, exchange, play and score one hand, ``policy`` choosing for every seat.  Returns the hand
    record (docs/records.md, "This project's JSON hands"); with ``record=False`` (for simulation speed) only
    its raw '_' parts, the results without explanation lines.  The cards are played by the loop ``fused`` generates, or
    with ``stepped`` one ``HandState`` step at a time (the same cards, slower).  Where the hands are drawn
    (``deal.draw``) they are drawn from ``stock`` (the pack in order, top card first; ``hands`` unread)."""
    drawn: list[int] = []
    if rs.params["deal.draw"]:
        hands, drawn = _drawn_by(rs, stock, dealer, policy)
    _refuse_foreign(rs, hands)
    zero = (0,) * C.table_of(rs.params).sides
    state = HandState(rs, hands, dealer, zero if scores is None else scores, zero if bags is None else bags)
    kitty = state.kitty_cards()
    if kitty:
        state.take_kitty(discard_of(policy, rs, dealer, state.hands[dealer] | kitty, rs.params["deal.kitty"]))
    _bid_all(state, policy)
    for seat in state.exchange_seats():
        partner, count = state.table.opposite(seat), state.exchange_count(seat)
        give = policy.exchange(rs, seat, state.hands[seat], count)
        back = policy.exchange(rs, partner, state.hands[partner], count)
        state.exchange(seat, give, back)
    (play_out if stepped else _play_out_fused)(state, policy)
    results = state.score(explain=record)
    raw = {"_results": results, "_bids": state.bids, "_plays": state.plays, "_won": state.won,   # (simulate
           "_winners": state.winners, "_last": state.last, "_dealt": state.dealt, "_drawn": drawn}   # drops these)
    return _hand_record(state, results, stock if drawn else None, drawn, raw) if record else raw


def _refuse_foreign(rs: Ruleset, hands: Sequence[int]) -> None:
    """A deal may hold only the variant's pack."""
    foreign = 0
    for hand in hands:
        foreign |= hand
    foreign &= ~rs.deck
    if foreign:
        raise GameError(f"the deal holds cards that are not in the pack of variant '{rs.id}': "
                        f"{' '.join(C.card_names(foreign))}", "deal", "deck.cards", rs.rules["deck.cards"].cite)


def _hand_record(state: HandState, results: list, stock: Sequence[int] | None, drawn: list[int], raw: dict) -> dict:
    """The hand record of a hand played out (``stock``: the stock it was drawn from, if it was)."""
    table = state.table
    seats, sides = range(table.seats), table.side_names
    won, plays, winners = state.won, state.plays, state.winners
    return {
        "dealer": C.SEATS[state.dealer],
        "deal": {C.SEATS[s]: C.card_names(state.dealt[s]) for s in seats},
        "bids": {C.SEATS[s]: str(state.bids[s]) for s in seats},
        "exchanges": state.exchanges,
        **({"kitty": state.kitty} if state.kitty else {}),
        **({"draw": {"stock": [C.NAMES[c] for c in stock], "kept": [bool(k) for k in drawn]}}
           if stock is not None else {}),
        "tricks": _trick_log(plays, winners, table.seats),
        "tricks_per_seat": {C.SEATS[s]: won[s] for s in seats},
        "score": {sides[t]: {"points": r.points, "bags_added": r.bags_added} for t, r in enumerate(results)},
        "totals": {sides[t]: {"score": r.score, "bags": r.bags} for t, r in enumerate(results)},
        **raw,
    }


def _drawn_by(rs: Ruleset, stock: Sequence[int] | None, dealer: int, policy) -> tuple[list[int], list[int]]:
    """The hands drawn from ``stock`` (``deal.draw``) by ``policy``'s choices, and each turn's choice."""
    return _draw(rs, stock, dealer, lambda seat, card, hand, turn: keep_of(policy, rs, seat, card, hand, turn))


def _draw(rs: Ruleset, stock: Sequence[int] | None, dealer: int, keep: Callable[[int, int, int, int], int]
          ) -> tuple[list[int], list[int]]:
    """The hands drawn from ``stock`` (``deal.draw``) by ``keep(seat, card, hand, turn)``'s choices, and each
    turn's choice; the stock must be the variant's pack, each card once."""
    cite = rs.rules["deal.draw"].cite
    if stock is None or sorted(stock) != C.card_list(rs.deck):
        raise GameError(f"variant '{rs.id}' draws its hands from the stock: the stock must be its pack of "
                        f"{rs.deck.bit_count()} cards in order, each once", "stock", "deal.draw", cite)
    return draw_cards(rs)(stock, dealer, keep)


def drawn_hands(rs: Ruleset, stock: Sequence[int], dealer: int, kept: Sequence[bool]) -> list[int]:
    """The hands drawn from ``stock`` (``deal.draw``: the pack in order, top card first) by the choices ``kept``
    (each turn in order: True where the drawer kept the top card, False where the next); the stock must be the
    variant's pack and ``kept`` one choice a turn."""
    turns = rs.params["table.seats"] * rs.params["deal.hand_size"]
    if len(kept) != turns:
        raise GameError(f"the draw takes {turns} turns, one choice each; {len(kept)} given", "kept", "deal.draw",
                        rs.rules["deal.draw"].cite)
    return _draw(rs, stock, dealer, lambda seat, card, hand, turn: int(bool(kept[turn])))[0]


def play_out(state: HandState, policy) -> None:
    """Play the rest of the hand one step at a time, ``policy`` choosing every card."""
    rs = state.rs
    while not state.over:
        seat = state.to_play
        state.play(policy.play(rs, seat, state.legal(), state.trick, state.hands[seat]))
        if len(state.trick) == state.table.seats:
            state.finish_trick()


def _play_out_fused(state: HandState, policy) -> None:
    """``play_out`` from the first trick by the whole-hand loop ``fused`` generates (the same cards)."""
    rs = state.rs
    if type(policy) is RandomPolicy:        # its draw written into the loop: no call per card
        play, choose = play_cards_random(rs), policy.rng.random
    elif type(policy) is SensiblePolicy:      # the lowered player written into the loop: no table to keep
        play, choose = play_cards_sensible(rs), None
    else:
        play, choose = play_cards(rs), policy_card(rs, policy.play)
    bids = [bid for bid in state.bids if bid is not None]      # (every seat has bid: the play has begun)
    kind = [KIND_CODE[bid.kind] for bid in bids]
    won, plays, winners = play(state.hands, state.leader, choose, kind, [bid.n for bid in bids])
    state.won, state.plays, state.winners = won, plays, winners
    state.leader, state.number = winners[-1], state.size + 1
    count = state.table.seats
    state.last = (winners[-1], by_seat([card for _, card in plays[-count:]], plays[-count][0], count))


def _bid_all(state: HandState, policy) -> None:
    """Every seat bids in turn as ``policy`` chooses; the nil bidder's partner may raise."""
    rs = state.rs
    while state.bidder is not None:
        seat = state.bidder
        options = state.legal_bids()
        if not options:
            raise DeadEndError(f"{C.SEATS[seat]} has no legal bid", f"bids.{C.SEATS[seat]}",
                               details={"hand": C.card_names(state.hands[seat]),
                                        "bids": {C.SEATS[s]: str(b) for s, b in enumerate(state.bids) if b}})
        raises = state.bid(policy.bid(rs, seat, options, state.hands[seat]))
        if raises:
            partner = state.table.opposite(seat)
            state.raise_bid(partner, policy.raise_bid(rs, partner, raises, state.hands[partner]))
    if not rs.params["raise.by"]:              # the raise round, where the variant has one (raise.by)
        return
    for seat in state.bidding_order():
        raises = state.round_raise_options(seat)
        if raises:
            state.raise_bid(seat, policy.raise_bid(rs, seat, raises, state.hands[seat]))


def totals(results) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each side's score and bags after a hand scored ``results``."""
    return tuple(r.score for r in results), tuple(r.bags for r in results)


def simulate(rs: Ruleset, hands: int, seed: int | str = 0, policy: str | Callable[[random.Random], Any] = "random",
             game_limit: int = 0, raw: bool = False):
    """Yield ``hands`` hand records of games played in sequence (a new game starts after one ends), every seat
    played by ``policy`` (a name of ``POLICIES``, or a function of the generator that makes the players; the
    record's ``players`` is its name).  With ``game_limit``, a game still going after that many hands is
    abandoned (its last record's ``game_status`` has ``unfinished: true``) and a new one starts.  With ``raw``,
    records keep the engine's '_' parts (``play_hand``'s raw results; not JSON)."""
    if isinstance(policy, str) and policy not in POLICIES:
        raise GameError(f"unknown policy '{policy}' (known: {', '.join(POLICIES)})", "policy")
    make: Callable[[random.Random], Any] = POLICIES[policy] if isinstance(policy, str) else policy
    zero = (0,) * C.table_of(rs.params).sides
    scores, bags, history = zero, zero, NO_HISTORY
    dealer, game, in_game = 0, 1, 0
    for index in range(hands):
        deal = deal_for(seed, index, rs)
        player = make(random.Random(f"play:{seed}:{index}"))
        if hasattr(player, "observe_scores"):
            player.observe_scores(scores)
        record = play_hand(rs, deal, dealer, player, scores, bags,
                           stock=stock_for(seed, index, rs) if rs.params["deal.draw"] else None)
        results = record["_results"]
        if not raw:
            record = {key: value for key, value in record.items() if not key.startswith("_")}
        in_game += 1
        scores, bags = totals(results)
        history = history.after(results)
        status = game_status(rs, scores, bags, in_game, history=history)
        status.pop("explanation", None)
        status.pop("rule", None)
        if game_limit and in_game >= game_limit and not status["over"]:
            status["unfinished"] = True
        record = {"variant": rs.id, "seed": seed, "players": player.name, "hand": index, "game": game, **record,
                  "game_status": status}
        yield record
        dealer = seat_rule(rs, "deal.next_dealer", dealer)
        if status["over"] or status.get("unfinished"):
            scores, bags, history, game, in_game = zero, zero, NO_HISTORY, game + 1, 0
