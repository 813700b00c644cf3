"""Each step of the array hand procedure (``fast.batch_hand.BatchHand``) gives, row by row, what the scalar
engine gives on random states, for every bundled variant (and two made-up ones for the renege modes
and bag rules no bundled variant has)."""
from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from rulespec.core import cards as C
from rulespec.core.schema import PLAY_CONSTRAINTS
from rulespec.errors import GameError
from rulespec.fast.batch_hand import BID_RULES, KIND_CODE, PENDING, BatchHand, HandRules
from rulespec import game as E
from rulespec.game.policies import RandomPolicy
from rulespec.model.ruleset import load_ruleset, ruleset_from_text
from rulespec.game.fused import draw_cards
from rulespec.model.variants import bundled_ids

MADE_UP = {
    "forfeit-victim-bags-no-carry": "extends: standard\nrules:\n  renege.mode: forfeit @ house §1\n"
                                    "  renege.victim_bags: true @ house §1\n  bags.carry: false @ house §1\n",
    "transfer-two-no-victim-bags": "extends: tournament\nrules:\n  renege.mode: transfer @ house §1\n"
                                   "  renege.transfer_tricks: 2 @ house §1\n  renege.victim_bags: false @ house §1\n",
}
VARIANTS = [*bundled_ids(), *MADE_UP]
ROWS = 240


@functools.lru_cache(maxsize=None)
def ruleset(variant: str):
    if variant in MADE_UP:
        return ruleset_from_text(f"id: {variant}\nsource: {{doc: house, title: twins}}\n{MADE_UP[variant]}")
    return load_ruleset(variant)


@functools.lru_cache(maxsize=None)
def rules(variant: str) -> HandRules:
    return HandRules(ruleset(variant))


def table(variant: str) -> C.Table:
    """The variant's seats and sides (cut-throat: three players alone; solo: four alone)."""
    return C.table_of(ruleset(variant).params)


def totals(rng: random.Random, sides: int = 2) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Random scores and bags before a hand (bags past the limit too: the carry loop)."""
    return (tuple(rng.randint(-400, 600) for _ in range(sides)), tuple(rng.randint(0, 25) for _ in range(sides)))


def batch_hand(variant: str, rows: list[dict]) -> BatchHand:
    """A BatchHand over ``rows`` (each with hands, dealer, scores, bags)."""
    return BatchHand(rules(variant), np.array([r["hands"] for r in rows], dtype=np.int64),
                     np.array([r["dealer"] for r in rows], dtype=np.int64),
                     np.array([r["scores"] for r in rows], dtype=np.int64),
                     np.array([r["bags"] for r in rows], dtype=np.int64))


def random_bid(rs, rng: random.Random) -> E.Bid:
    return rng.choice(E.bid_candidates(rs))


# --------------------------------------------------------------------------- bids
def bidding_states(variant: str, seed: str) -> dict[int, list[dict]]:
    """Random states before bid k (0..3), by k: earlier bids mostly legal (else any candidate)."""
    rs, rng, t = ruleset(variant), random.Random(f"{seed}:{variant}"), table(variant)
    by_turn: dict[int, list[dict]] = {k: [] for k in range(t.seats)}
    for _ in range(ROWS):
        scores, bags = totals(rng, t.sides)
        row = {"hands": E.deal_cards(rs, rng), "dealer": rng.randrange(t.seats), "scores": scores, "bags": bags,
               "bids": [None] * t.seats, "order": []}
        first = rs.fn["deal.first_bidder"](row["dealer"])
        k = rng.randrange(t.seats)
        for turn in range(k):
            seat = (first + turn) % t.seats
            legal = E.legal_bids(rs, seat, row["hands"][seat], row["dealer"], row["bids"], scores, bags)
            row["bids"][seat] = rng.choice(legal) if legal and rng.random() < 0.7 else random_bid(rs, rng)
            row["order"].append(seat)
        row["seat"] = (first + k) % t.seats
        by_turn[k].append(row)
    return by_turn


def replay_bids(h: BatchHand, rows: list[dict]) -> None:
    """Make each row's earlier bids on ``h``."""
    for turn in range(len(rows[0]["order"])):
        bids = [r["bids"][r["order"][turn]] for r in rows]
        h.bid(np.array([KIND_CODE[b.kind] for b in bids]), np.array([b.n for b in bids]))


@pytest.mark.parametrize("variant", VARIANTS)
def test_bid_twin(variant):
    rs = ruleset(variant)
    candidates = E.bid_candidates(rs)
    rng = random.Random(variant)
    for rows in bidding_states(variant, "bid").values():
        if not rows:
            continue
        h = batch_hand(variant, rows)
        replay_bids(h, rows)
        assert h.bidder().tolist() == [r["seat"] for r in rows]
        legal = h.legal_bids()
        asked = [random_bid(rs, rng) for _ in rows]
        refused = h.bid_refusals(np.array([KIND_CODE[b.kind] for b in asked]), np.array([b.n for b in asked]))
        for i, r in enumerate(rows):
            args = (rs, r["seat"])
            expected = E.legal_bids(*args, r["hands"][r["seat"]], r["dealer"], r["bids"], r["scores"], r["bags"])
            assert [c for j, c in enumerate(candidates) if legal[i, j]] == expected, (variant, i)
            why = E.bid_refusals(*args, asked[i], hand=r["hands"][r["seat"]], dealer=r["dealer"], bids=r["bids"],
                                 scores=r["scores"], bags=r["bags"])
            got = BID_RULES[refused[i]] if refused[i] >= 0 else None
            assert got == (why[0]["rule"] if why else None), (variant, i, str(asked[i]))


@pytest.mark.parametrize("variant", VARIANTS)
def test_raise_bid_twin(variant):
    """After each bid: whether the partner may raise and to what (as ``engine.play_hand`` asks
    ``team_refusals``), and the raised bid when the partner takes the last option."""
    rs = ruleset(variant)
    size = rs.params["deal.hand_size"]
    seen = 0
    for k, rows in bidding_states(variant, "raise").items():
        if k < 2 or not rows:
            continue
        rng = random.Random(f"raise:{variant}:{k}")
        h = batch_hand(variant, rows)
        replay_bids(h, rows)
        last = [rng.choice([E.Bid(E.NIL), E.Bid(E.BLIND_NIL), random_bid(rs, rng)]) for _ in rows]
        h.bid(np.array([KIND_CODE[b.kind] for b in last]), np.array([b.n for b in last]))
        eligible, options = h.raise_options()
        h.raise_bid(lambda opts, seat: opts.shape[1] - 1 - np.argmax(opts[:, ::-1], axis=1))
        for i, r in enumerate(rows):
            seat, partner = r["seat"], table(variant).partner(r["seat"])
            if partner is None:         # (each alone: nobody raises)
                assert not eligible[i]
                continue
            pbid = r["bids"][partner]
            may = (bool(rs.params["nil.partner_may_raise"]) and last[i].is_nil and pbid is not None
                   and pbid.kind == E.REGULAR)
            assert bool(eligible[i]) == may, (variant, i)
            if not may:
                assert h.num[i, partner] == (pbid.n if pbid else 0)
                continue
            raises = [n for n in range(pbid.n, size + 1)
                      if not E.team_refusals(rs, (E.Bid(E.REGULAR, n), last[i]), r["scores"], r["bags"], seat % 2)]
            assert [n for n in range(size + 1) if options[i, n]] == raises, (variant, i)
            assert h.num[i, partner] == (raises[-1] if raises else pbid.n)
            seen += 1
    assert seen or not rs.params["nil.partner_may_raise"]


class _Lowest(RandomPolicy):
    """Fixed bids, the lowest cards to exchange, the lowest legal card to play (drawing, every top card kept)."""

    def __init__(self, bids):
        super().__init__(random.Random(0))
        self.bids = bids

    def keep(self, rs, seat, card, hand, turn):
        return 1

    def bid(self, rs, seat, legal, hand):
        return self.bids[seat]

    def raise_bid(self, rs, seat, legal, hand):
        return self.bids[seat]

    def exchange(self, rs, seat, hand, count):
        return C.card_list(hand)[:count]

    def play(self, rs, seat, legal, trick, hand):
        return C.card_list(legal)[0]


def _lowest_cards(masks: np.ndarray, count: int) -> np.ndarray:
    out = np.zeros(len(masks), dtype=np.int64)
    for i, mask in enumerate(masks.tolist()):
        out[i] = C.mask_of(C.card_list(mask)[:count])
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_exchange_twin(variant):
    """The hands after the exchange: as ``engine.play_hand`` records its exchanges."""
    rs, rng, t = ruleset(variant), random.Random(f"exchange:{variant}"), table(variant)
    rows = []
    for k in range(60):
        bids = [rng.choice([E.Bid(E.BLIND_NIL), E.Bid(E.REGULAR, 3), E.Bid(E.NIL)]) for _ in range(t.seats)]
        rows.append({"hands": E.deal_cards(rs, rng), "dealer": rng.randrange(t.seats), "scores": (0,) * t.sides,
                     "bags": (0,) * t.sides, "bids": bids, "stock": None})
        if rs.params["deal.draw"]:      # the hands drawn (_Lowest keeps every top card)
            stock = rows[-1]["stock"] = E.stock_for(f"exchange:{variant}", k, rs)
            rows[-1]["hands"] = draw_cards(rs)(stock, rows[-1]["dealer"], lambda *choice: 1)[0]
    h = batch_hand(variant, rows)
    first = np.asarray(h.first_bidder)
    for turn in range(t.seats):
        bids = [r["bids"][(int(first[i]) + turn) % t.seats] for i, r in enumerate(rows)]
        h.bid(np.array([KIND_CODE[b.kind] for b in bids]), np.array([b.n for b in bids]))
    h.exchange(_lowest_cards)
    for i, r in enumerate(rows):
        record = E.play_hand(rs, list(r["hands"]), r["dealer"], _Lowest(r["bids"]), stock=r["stock"])
        hands = list(r["hands"])
        for ex in record["exchanges"]:
            seat = C.SEATS.index(ex["from"])
            gave, got = C.mask_of(C.parse_cards(ex["gave"])), C.mask_of(C.parse_cards(ex["received"]))
            hands[seat] = (hands[seat] & ~gave) | got
            hands[(seat + 2) % 4] = (hands[(seat + 2) % 4] & ~got) | gave
        assert h.hands[i].tolist()[:t.seats] == hands, (variant, i)


# --------------------------------------------------------------------------- card play
def play_states(variant: str) -> dict[tuple[int, int], list[dict]]:
    """Random states before a card is played, by (trick number, position): the hand of the seat to play
    (sometimes all trumps), the trick so far, the cards played before, trumps broken or not."""
    rs, rng, t = ruleset(variant), random.Random(f"play:{variant}"), table(variant)
    size = rs.params["deal.hand_size"]
    deck = C.card_list(rs.deck)
    trumps = [c for c in deck if rs.suit_of[c] == rs.params["trump.suit"]]
    by_step: dict[tuple[int, int], list[dict]] = {}
    for _ in range(2 * ROWS):
        number, pos = rng.choice([1, 1, 2, size // 2, size]), rng.randrange(t.seats)
        pool = trumps if rng.random() < 0.15 and len(trumps) >= size - number + 1 else deck
        hand = rng.sample(pool, size - number + 1)
        rest = [c for c in deck if c not in hand]
        trick = rng.sample(rest, pos)
        before = rng.sample([c for c in rest if c not in trick], t.seats * (number - 1))
        leader = rng.randrange(t.seats)
        hands = [0] * t.seats
        hands[(leader + pos) % t.seats] = C.mask_of(hand)
        by_step.setdefault((number, pos), []).append(
            {"hands": hands, "dealer": 0, "scores": (0,) * t.sides, "bags": (0,) * t.sides, "hand": hand,
             "trick": trick,
             "played": C.mask_of(before + trick), "broken": rng.random() < 0.5, "leader": leader,
             "card": rng.choice(hand)})
    return by_step


def play_hand_at(variant: str, number: int, pos: int, rows: list[dict]) -> BatchHand:
    """A BatchHand at trick ``number``, position ``pos``, in the rows' states."""
    rs = ruleset(variant)
    h = batch_hand(variant, rows)
    h.number, h.pos = number, pos
    h.leader = np.array([r["leader"] for r in rows], dtype=np.int64)
    h.trick_mask = np.array([C.mask_of(r["trick"]) for r in rows], dtype=np.int64)
    h.led = np.array([rs.suit_of[r["trick"][0]] if r["trick"] else -1 for r in rows], dtype=np.int64)
    for k in range(pos):
        h.cards[k] = [r["trick"][k] for r in rows]
        h.seats[k] = (h.leader + k) % table(variant).seats
    h.broken = np.array([r["broken"] for r in rows])
    h.played = np.array([r["played"] for r in rows], dtype=np.int64)
    return h


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_twin(variant):
    """Legal cards (``engine.legal_cards``) and the first constraint that excludes a card (the first
    step of ``engine.legal_cards`` that leaves it out)."""
    rs = ruleset(variant)
    for (number, pos), rows in play_states(variant).items():
        h = play_hand_at(variant, number, pos, rows)
        legal = h.legal()[0]
        allowed, first = h.legal(card_bit=np.array([1 << r["card"] for r in rows], dtype=np.int64))
        assert (allowed == legal).all()
        for i, r in enumerate(rows):
            hand, trick = C.mask_of(r["hand"]), r["trick"]
            assert int(legal[i]) == E.legal_cards(rs, hand, trick, number, r["broken"], r["played"]).cards, \
                (variant, number, pos, i)
            steps = E.legal_cards(rs, hand, trick, number, r["broken"], r["played"], explain=True).steps
            name = C.card_name(r["card"])
            expected = next((s["rule"] for s in steps if name not in s["value"]), None)
            assert (PLAY_CONSTRAINTS[first[i]] if first[i] >= 0 else None) == expected, (variant, number, pos, i)


def _scalar_breaks(rs, seat: int, card: int, hand: int, trick: list[int], number: int) -> bool:
    """Whether ``HandState.play`` breaks trumps with ``card`` from ``hand`` after ``trick`` (trumps unbroken)."""
    seats = rs.params["table.seats"]
    hands = [0] * seats
    hands[seat] = hand
    state = E.HandState(rs, hands, 0)
    state.leader, state.number, state.trick = (seat - len(trick)) % seats, number, list(trick)
    state.trick_mask, state.led = C.mask_of(trick), rs.suit_of[trick[0]] if trick else -1
    state.play(card)
    return state.broken


@pytest.mark.parametrize("variant", VARIANTS)
def test_play_twin(variant):
    """Playing a card: trumps broken as ``HandState.play`` says, the card leaves the hand and joins
    the trick (and the cards played), the led suit is the first card's."""
    rs = ruleset(variant)
    for (number, pos), rows in play_states(variant).items():
        h = play_hand_at(variant, number, pos, rows)
        h.play(np.array([r["card"] for r in rows], dtype=np.int64))
        assert h.pos == pos + 1
        for i, r in enumerate(rows):
            seat, card, hand = (r["leader"] + pos) % rs.params["table.seats"], r["card"], C.mask_of(r["hand"])
            broken = r["broken"] or _scalar_breaks(rs, seat, card, hand, r["trick"], number)
            assert bool(h.broken[i]) == broken, (variant, number, pos, i)
            assert int(h.hands[i, seat]) == hand & ~(1 << card)
            assert int(h.trick_mask[i]) == C.mask_of([*r["trick"], card])
            assert int(h.played[i]) == r["played"] | 1 << card
            assert int(h.led[i]) == rs.suit_of[[*r["trick"], card][0]]
            assert h.cards[pos, i] == card and h.seats[pos, i] == seat


@pytest.mark.parametrize("variant", VARIANTS)
def test_finish_trick_twin(variant):
    """A complete trick: the winner as ``engine.trick_winner``, who leads next, tricks won, and after the
    last trick the cards by seat (``engine.by_seat``) and the winner."""
    rs, rng, t = ruleset(variant), random.Random(f"trick:{variant}"), table(variant)
    size = rs.params["deal.hand_size"]
    deck = C.card_list(rs.deck)
    pad = [0] * (4 - t.seats)
    for number in (1, 2, size):
        rows = [{"hands": [0] * t.seats, "dealer": 0, "scores": (0,) * t.sides, "bags": (0,) * t.sides, "trick": [],
                 "played": 0, "broken": False, "cards": rng.sample(deck, t.seats), "leader": rng.randrange(t.seats),
                 "won": [rng.randrange(number) for _ in range(t.seats)] + pad} for _ in range(ROWS)]
        h = play_hand_at(variant, number, 0, rows)
        h.won = np.array([r["won"] for r in rows], dtype=np.int64)
        for k in range(t.seats):
            h.play(np.array([r["cards"][k] for r in rows], dtype=np.int64))
        winner = h.finish_trick()
        assert not h.outside.any() and h.number == number + 1 and h.pos == 0 and not h.trick_mask.any()
        for i, r in enumerate(rows):
            index, _ = E.trick_winner(rs, r["cards"], number)
            seat = (r["leader"] + index) % t.seats
            assert winner[i] == seat and h.leader[i] == seat and h.winners[i, number - 1] == seat, (variant, i)
            assert h.won[i].tolist() == [w + (s == seat) for s, w in enumerate(r["won"])]
            if number == size:
                assert h.last_winner[i] == seat
                assert h.last_cards[i].tolist() == E.by_seat(r["cards"], r["leader"], t.seats)


# --------------------------------------------------------------------------- score
def renege_seats(rs, rng: random.Random) -> list[int]:
    """0, 1 or 2 reneging seats (forfeit: of one side, as the engine requires)."""
    mode = rs.params["renege.mode"]
    if mode == "none":
        return []
    count = rng.choice([0, 1, 2])
    t = C.table_of(rs.params)
    if mode == "forfeit":
        side = rng.randrange(t.sides)
        return [rng.choice(t.members(side)) for _ in range(count)]
    return [rng.randrange(t.seats) for _ in range(count)]


def scored_states(variant: str) -> list[dict]:
    """Random bids (any candidates), tricks per seat adding up to the hand size, scores and bags before,
    the last trick, and reneges."""
    rs, rng, t = ruleset(variant), random.Random(f"score:{variant}"), table(variant)
    size, seats = rs.params["deal.hand_size"], t.seats
    deck = C.card_list(rs.deck)
    rows = []
    for _ in range(2 * ROWS):
        cuts = sorted(rng.randint(0, size) for _ in range(seats - 1))
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, size])]
        rng.shuffle(tricks)
        if rng.random() < 0.3:
            tricks = [0] * seats
            tricks[rng.randrange(seats)] = size
        scores, bags = totals(rng, t.sides)
        blind = rng.random() < 0.1 and t.partners
        bids = [random_bid(rs, rng) for _ in range(seats)]
        if blind:                              # a partnership's blind team bid
            team, n = rng.randrange(2), rng.randint(1, size)
            bids[team] = bids[team + 2] = E.Bid(E.BLIND, n)
        winner = rng.choice([s for s in range(seats) if tricks[s]])
        rows.append({"hands": [0] * seats, "dealer": 0, "scores": scores, "bags": bags, "bids": bids,
                     "tricks": tricks, "last": (winner, rng.sample(deck, seats) + [0] * (4 - seats)),
                     "reneges": renege_seats(rs, rng)})
    return rows


def scored_hand(variant: str, rows: list[dict]) -> BatchHand:
    h = batch_hand(variant, rows)
    pad = [0] * (4 - table(variant).seats)
    h.kind = np.array([[KIND_CODE[b.kind] for b in r["bids"]] + [PENDING] * len(pad) for r in rows])
    h.num = np.array([[b.n for b in r["bids"]] + pad for r in rows], dtype=np.int64)
    h.won = np.array([r["tricks"] + pad for r in rows], dtype=np.int64)
    h.last_winner = np.array([r["last"][0] for r in rows], dtype=np.int64)
    h.last_cards = np.array([r["last"][1] for r in rows], dtype=np.int64)
    return h


def reneges_of(rows: list[dict]) -> np.ndarray:
    return np.array([r["reneges"] + [-1] * (2 - len(r["reneges"])) for r in rows], dtype=np.int64)


@pytest.mark.parametrize("variant", VARIANTS)
def test_score_twin(variant):
    """Hand points, bags added and bags after as ``engine.score_hand`` (reneges, scores and bags before)."""
    rs = ruleset(variant)
    rows = scored_states(variant)
    points, added, after = scored_hand(variant, rows).score(reneges_of(rows))
    for i, r in enumerate(rows):
        results = E.score_hand(rs, r["bids"], r["tricks"], r["scores"], r["bags"], reneges=r["reneges"],
                               last_trick=r["last"], explain=False)
        expected = [[t.points for t in results], [t.bags_added for t in results], [t.bags for t in results]]
        assert [points[i].tolist(), added[i].tolist(), after[i].tolist()] == expected, (variant, i, r)
    if rs.params["renege.mode"] != "none":
        assert any(r["reneges"] for r in rows) and any(len(r["reneges"]) == 2 for r in rows)


@pytest.mark.parametrize("variant", ["standard", "tournament", "forfeit-victim-bags-no-carry"])
def test_score_refuses_what_the_engine_refuses(variant):
    """A renege where the variant has no penalty, or by both sides under forfeit: a GameError on both sides."""
    rs = ruleset(variant)
    rows = scored_states(variant)[:3]
    for row in rows:
        row["reneges"] = [0, 1]
    with pytest.raises(GameError):
        E.score_hand(rs, rows[0]["bids"], rows[0]["tricks"], reneges=rows[0]["reneges"])
    with pytest.raises(GameError):
        scored_hand(variant, rows).score(reneges_of(rows))
