"""Record a hand under one variant and replay the same bids and cards under another.

A replay never stops at a forbidden bid or card: it notes the first one (and
the clause that forbids it) and goes on, so that trick winners, the hand
score, bags and the game status can all be compared.
"""
from __future__ import annotations

import random
import weakref
from dataclasses import dataclass, field

from ...core import cards as C
from ...game import (NO_HISTORY, Bid, HandState, bid_refusals, drawn_hands, exchange_count, game_status, play_hand,
                     score_hand, seat_rule)
from ...errors import RulespecError
from ...game.policies import POLICIES
from ...model.ruleset import Ruleset
from ...core.schema import PLAY_CONSTRAINTS
from .deals import Deal

STAGES = ("draw", "kitty", "bid", "exchange", "legal", "trick", "score", "bags", "game")
STAGE_TITLES = {"draw": "the hands drawn from the stock", "kitty": "the dealer's kitty", "bid": "bid validity",
                "exchange": "cards passed",
                "legal": "legal cards", "trick": "trick winner", "score": "hand score", "bags": "bags",
                "game": "game over/winner"}


@dataclass(frozen=True)
class Transcript:
    """A complete hand: who held what, the bids, and every card in play order."""
    dealer: int
    dealt: tuple[int, ...]
    bids: tuple[Bid, ...]
    plays: tuple[tuple[int, int], ...]          # (seat, card) in play order
    before: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))
    hands_played: int = 1                       # hands of the game so far, this one included
    # as recorded (None for a play read from a file): variants with this play signature need no replay
    play_sig: tuple | None = None
    won: tuple[int, ...] | None = None
    winners: tuple[str, ...] | None = None
    last: tuple | None = None
    stock: tuple[int, ...] | None = None        # the pack in the deal's order (None for a deal read as hands)
    kept: tuple[bool, ...] | None = None        # where the hands were drawn: each turn's choice (deal.draw)


# what a variant that deals its hands makes of the stock at the draw stage (a variant that draws: the hands drawn)
DEALT = "dealt, not drawn"
UNDRAWN = "drawn by the players' choices, none recorded (the hand was dealt)"


@dataclass
class Outcome:
    """What one variant makes of a transcript; ``sig`` is compared stage by stage.

    An outcome from the batch replay holds only ``sig`` and ``rules``: ``note()``
    builds a note when asked, ``full()`` adds every note and situation by the
    scalar replay of ``source`` (ruleset, transcript)."""
    sig: dict[str, object] = field(default_factory=dict)
    rules: dict[str, str | None] = field(default_factory=dict)  # rule behind the first forbidden bid/card
    situations: dict[str, dict] = field(default_factory=dict)   # inputs that reproduce a stage
    notes: dict[str, dict] = field(default_factory=dict)        # first forbidden bid/card and its clause
    source: tuple[Ruleset, Transcript] | None = None

    def full(self) -> Outcome:
        """This outcome with its notes and situations."""
        if self.source is not None:
            whole = replay(*self.source)
            self.situations, self.notes, self.source = whole.situations, whole.notes, None
        return self

    def note(self, stage: str) -> dict:
        """The note on the first forbidden bid or card (stage ``bid`` or ``legal``; see ``rules``)."""
        if stage not in self.notes and self.source is not None:
            self.notes[stage] = note(*self.source, stage, self.sig[stage])
        return self.notes[stage]


class _FixedBids:
    """A policy that makes the given bids and lets ``inner`` play the cards."""

    def __init__(self, bids: tuple[Bid, ...], inner):
        self.bids, self.inner = bids, inner

    def bid(self, rs, seat, legal, hand):
        self.inner.bid(rs, seat, [self.bids[seat]], hand)
        return self.bids[seat]

    def raise_bid(self, rs, seat, legal, hand):
        return self.bids[seat]

    def exchange(self, rs, seat, hand, count):
        return self.inner.exchange(rs, seat, hand, count)

    def play(self, rs, seat, legal, trick, hand):
        return self.inner.play(rs, seat, legal, trick, hand)


def policy_for(name: str, seed: str, key: str):
    return POLICIES[name](random.Random(f"play:{seed}:{key}"))


def record(rs: Ruleset, deal: Deal, policy) -> Transcript:
    """The deal's transcript: its own play if it has one, else ``policy`` bids and plays under ``rs``."""
    scores, bags = deal.before
    if deal.play is not None:
        owner = {card: seat for seat in range(len(deal.hands)) for card in C.iter_cards(deal.hands[seat])}
        plays = tuple((owner[c], c) for c in deal.play)
        return Transcript(deal.dealer, deal.hands, deal.bids, plays, deal.before, stock=deal.stock)
    if hasattr(policy, "observe_scores"):
        policy.observe_scores(scores)
    if deal.bids is not None:
        policy = _FixedBids(deal.bids, policy)
    rec = play_hand(rs, list(deal.hands), deal.dealer, policy, scores, bags, record=False, stock=deal.stock)
    return Transcript(deal.dealer, tuple(rec["_dealt"]), tuple(rec["_bids"]), tuple(rec["_plays"]), deal.before,
                      play_sig=play_signature(rs), won=tuple(rec["_won"]),
                      winners=tuple(C.SEATS[w] for w in rec["_winners"]), last=rec["_last"], stock=deal.stock,
                      kept=tuple(bool(k) for k in rec["_drawn"]) if rs.params["deal.draw"] else None)


def _bid_json(bid: Bid):
    return "nil" if bid.kind == "nil" else bid.n if bid.kind == "regular" else str(bid)


def _before_json(rs: Ruleset, t: Transcript) -> dict:
    table = C.table_of(rs.params)
    scores, bags = (table.padded(values) for values in t.before)
    return {team: {"score": scores[i], "bags": bags[i]} for i, team in enumerate(table.side_names)}


def first_leader_rule(rs: Ruleset) -> str:
    """The rule that names the first trick's leader under ``rs``."""
    return "play.first_leader" if rs.params["play.first_leader_by"] == "seat" else "play.first_leader_by"


def _forbidding_rule(state: HandState, seat: int, card: int) -> dict:
    rs = state.rs
    if state.number == 1 and not state.trick and seat != state.leader:      # the first lead out of turn
        return {**rs.cite(first_leader_rule(rs)), "why": f"{C.SEATS[state.leader]} leads the first trick"}
    if not (rs.deck >> card) & 1:
        return rs.cite("deck.cards")
    name = C.card_name(card)
    for step in state.legal_cards(seat, explain=True).steps:
        if name not in step["value"]:
            return {k: v for k, v in step.items() if k != "value"}
    return {"rule": None, "cite": None}


def _bid_note(seat: int, bid: Bid, refusal: dict) -> dict:
    return {"seat": C.SEATS[seat], "bid": str(bid), **refusal}


def _legal_note(state: HandState, seat: int, card: int) -> dict:
    return {"trick": state.number, "seat": C.SEATS[seat], "card": C.card_name(card),
            **_forbidding_rule(state, seat, card)}


def _play_state(rs: Ruleset, t: Transcript) -> HandState:
    """The transcript's hand as the card play begins: the cards each seat played, the bids made."""
    hands = [0] * rs.params["table.seats"]
    for seat, card in t.plays:
        hands[seat] |= 1 << card
    state = HandState(rs, hands, t.dealer, *t.before)
    state.set_bids(t.bids)       # (the first leader: rule play.first_leader, or by the cards or the bids)
    return state


def note(rs: Ruleset, t: Transcript, stage: str, sig) -> dict:
    """The note ``replay(rs, t)`` gives for the first forbidden bid or card (its ``sig[stage]``),
    computed directly: the bids before it stand, the cards before it are played."""
    if stage == "bid":
        seat = sig[0]
        first, seats = seat_rule(rs, "deal.first_bidder", t.dealer), rs.params["table.seats"]
        earlier = [(first + k) % seats for k in range((seat - first) % seats)]
        so_far = [t.bids[s] if s in earlier else None for s in range(seats)]
        scores, bags = t.before
        refusals = bid_refusals(rs, seat, t.bids[seat], hand=t.dealt[seat], dealer=t.dealer, bids=so_far,
                                scores=scores, bags=bags)
        return _bid_note(seat, t.bids[seat], refusals[0])
    state = _play_state(rs, t)
    for s, c in t.plays:
        if (s, c) == (sig[1], sig[2]):
            return _legal_note(state, s, c)
        state.play(c, s)
        if len(state.trick) == state.table.seats:
            state.finish_trick()
    raise ValueError(f"{C.card_name(sig[2])} is not in the transcript")


# Everything the card play of a replay depends on: with equal signatures two variants
# find the same forbidden card, the same trick winners and the same tricks per seat.
PLAY_RULES = ("deck.cards", "card.suit", "card.power", "trump.suit", "deal.hand_size", "trump.breaks",
              "trick.winner", *PLAY_CONSTRAINTS, "play.first_leader", "play.first_leader_by", "play.first_leader_card")


_SIGNATURES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def play_signature(rs: Ruleset) -> tuple:
    """What the card play of a replay under ``rs`` depends on (rule texts, the parameters they name,
    the card tables); computed once per ruleset."""
    sig = _SIGNATURES.get(rs)
    if sig is None:
        texts = tuple(" ".join(rs.rules[name].text.split()) for name in PLAY_RULES)
        params = tuple(sorted((p, repr(rs.params[p])) for name in PLAY_RULES for p in rs.rules[name].names
                              if p in rs.params))
        sig = _SIGNATURES[rs] = (texts, params, rs.deck, rs.suit_of, rs.power)
    return sig


@dataclass
class _Play:
    """A card-play replay: the first forbidden card, trick winners, tricks per seat."""
    won: list[int]
    last: tuple | None
    legal_sig: object = None
    legal_note: dict | None = None
    legal_situation: dict | None = None
    winners: tuple[str, ...] = ()
    tricks: list[dict] = field(default_factory=list)
    error: RulespecError | None = None


def replay(rs: Ruleset, t: Transcript) -> Outcome:
    """Replay ``t`` under ``rs`` (the recorded play stands as it is under the play rules it was recorded with)."""
    out = Outcome()
    out.sig["draw"] = drawn(rs, t)
    out.sig["kitty"] = rs.params["deal.kitty"]     # the cards the dealer takes and discards before the bids
    try:
        _replay_bids(rs, t, out)
        _replay_exchange(rs, t, out)
        play = _recorded_play(t) if t.won is not None and t.play_sig == play_signature(rs) else _replay_play(rs, t)
        if play.legal_note is not None:   # kept when a rule fails later on: the forbidden card came first
            out.sig["legal"] = play.legal_sig
            out.notes["legal"], out.situations["legal"] = play.legal_note, play.legal_situation
        if play.error is not None:
            raise play.error
        out.sig["legal"], out.sig["trick"] = play.legal_sig, play.winners
        out.situations["tricks"] = play.tricks
        _replay_score(rs, t, play.won, play.last, out)
    except RulespecError as exc:
        for stage in STAGES:
            out.sig.setdefault(stage, f"error: {exc}")
    out.rules = {stage: note.get("rule") for stage, note in out.notes.items()}
    return out


def drawn(rs: Ruleset, t: Transcript) -> tuple[tuple[str, str], ...] | str:
    """The draw stage: the hands ``rs`` draws from the transcript's stock by its recorded choices (seat, cards), or
    what it makes of them otherwise (``DEALT``, ``UNDRAWN``, an error)."""
    if not rs.params["deal.draw"]:
        return DEALT
    if t.stock is None or t.kept is None:
        return UNDRAWN
    try:
        hands = drawn_hands(rs, t.stock, t.dealer, t.kept)
    except RulespecError as exc:
        return f"error: {exc}"
    return tuple((C.SEATS[s], " ".join(C.card_names(hand))) for s, hand in enumerate(hands))


def draw_json(t: Transcript) -> dict | None:
    """The transcript's drawn deal as a request's ``deal`` (``{"stock", "kept"}``), where it was drawn."""
    if t.stock is None or t.kept is None:
        return None
    return {"stock": [C.card_name(c) for c in t.stock], "kept": list(t.kept)}


def _replay_bids(rs: Ruleset, t: Transcript, out: Outcome) -> None:
    scores, bags = t.before
    first, seats = seat_rule(rs, "deal.first_bidder", t.dealer), rs.params["table.seats"]
    so_far: list[Bid | None] = [None] * seats
    out.sig["bid"] = None
    for k in range(seats):
        seat = (first + k) % seats
        bid = t.bids[seat]
        refusals = bid_refusals(rs, seat, bid, hand=t.dealt[seat], dealer=t.dealer, bids=so_far,
                                scores=scores, bags=bags)
        if refusals:
            out.sig["bid"] = (seat, str(bid))
            out.notes["bid"] = _bid_note(seat, bid, refusals[0])
            out.situations["bid"] = {
                "seat": C.SEATS[seat], "bid": _bid_json(bid), "dealer": C.SEATS[t.dealer],
                "bids": {C.SEATS[s]: _bid_json(b) for s, b in enumerate(so_far) if b is not None},
                "before": _before_json(rs, t)}
            return
        so_far[seat] = bid


def exchanges(rs: Ruleset, bids: tuple[Bid, ...]) -> tuple[tuple[str, int], ...]:
    """The seats whose bids make them pass cards to their partners after the bids, with how many (seat order)."""
    table = C.table_of(rs.params)
    if not table.partners:
        return ()
    counts = ((seat, exchange_count(rs, bids[seat], bids[table.opposite(seat)])) for seat in range(table.seats))
    return tuple((C.SEATS[seat], count) for seat, count in counts if count)


def _replay_exchange(rs: Ruleset, t: Transcript, out: Outcome) -> None:
    """Who passes cards, and how many, by the transcript's bids; the situation is the bid that settles it (the
    later of the first pair with a nil or blind nil, beside its partner's)."""
    out.sig["exchange"] = exchanges(rs, t.bids)
    table = C.table_of(rs.params)
    if not table.partners:
        return
    first = seat_rule(rs, "deal.first_bidder", t.dealer)
    order = [table.left(first, k) for k in range(table.seats)]
    nils = [seat for seat in order if t.bids[seat].kind in ("nil", "blind_nil")]
    if nils:
        later = max(nils[0], table.opposite(nils[0]), key=order.index)
        earlier = order[:order.index(later)]
        out.situations["exchange"] = {"seat": C.SEATS[later], "bid": _bid_json(t.bids[later]),
                                      "dealer": C.SEATS[t.dealer],
                                      "bids": {C.SEATS[s]: _bid_json(t.bids[s]) for s in earlier},
                                      "before": _before_json(rs, t)}


def _recorded_play(t: Transcript) -> _Play:
    """The card play as recorded: under the same play rules every card was legal and the winners stand."""
    n = len(t.dealt)
    tricks = [{"leader": C.SEATS[t.plays[start][0]], "cards": [C.card_name(c) for _, c in t.plays[start:start + n]],
               "number": start // n + 1} for start in range(0, len(t.plays), n)]
    return _Play(won=list(t.won), last=t.last, winners=t.winners, tricks=tricks)


def _replay_play(rs: Ruleset, t: Transcript) -> _Play:
    """Play the transcript's cards under ``rs``: the first forbidden card, trick winners, tricks per seat."""
    seats = rs.params["table.seats"]
    result = _Play(won=[0] * seats, last=None)
    winners: list[str] = []
    try:
        state = _play_state(rs, t)
        for start in range(0, len(t.plays), seats):
            group = t.plays[start:start + seats]
            for seat, card in group:
                out_of_turn = start == 0 and seat == group[0][0] and seat != state.leader
                if result.legal_sig is None and (out_of_turn or not ((rs.deck & state.legal(seat)) >> card) & 1):
                    # (a card outside the variant's pack is never legal)
                    result.legal_sig = (state.number, seat, card)
                    result.legal_note = _legal_note(state, seat, card)
                    result.legal_situation = {"hand": C.card_names(state.hands[seat]),
                                              "trick": [C.card_name(c) for c in state.trick],
                                              "number": state.number, "broken": state.broken}
                state.play(card, seat)
            result.tricks.append({"leader": C.SEATS[group[0][0]], "cards": [C.card_name(c) for c in state.trick],
                                  "number": state.number})
            winners.append(C.SEATS[state.finish_trick()])
            result.won, result.last = state.won, state.last
    except RulespecError as exc:
        result.error = exc
    result.winners = tuple(winners)
    return result


def _replay_score(rs: Ruleset, t: Transcript, tricks: list[int], last, out: Outcome) -> None:
    scores, bags = t.before
    results = score_hand(rs, t.bids, tricks, scores, bags, last_trick=last)
    out.sig["score"] = tuple(r.points for r in results)
    out.sig["bags"] = tuple(r.bags for r in results)
    after = tuple(r.score for r in results)
    status = game_status(rs, after, tuple(r.bags for r in results), t.hands_played,
                         history=NO_HISTORY.after(results))     # (a transcript is one hand: its own sets only)
    out.sig["game"] = (status["over"], status["winner"])
    out.situations["score"] = {
        "bids": {C.SEATS[s]: _bid_json(b) for s, b in enumerate(t.bids)},
        "tricks": {C.SEATS[s]: tricks[s] for s in range(len(tricks))},
        "before": _before_json(rs, t)}
    if last is not None:
        winner, by_seat = last
        out.situations["last_trick"] = {"winner": C.SEATS[winner],
                                        "cards": {C.SEATS[s]: C.card_name(c) for s, c in
                                                  enumerate(by_seat[:len(tricks)])}}
    out.situations["after"] = {"scores": after, "bags": out.sig["bags"]}
