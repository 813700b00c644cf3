"""Shared by tests/test_every_slot.py: each rule slot's probe (a value that changes what the slot does), the
back ends run on a ruleset, and the comparison of each with the scalar procedure (``HandState``).

Back ends: the array engine (numpy), the compiled engine's code run as Python (its numba text, each function
undecorated: the code the machine code is made from, without the minutes of compiling 50 variants), the
Python card-play loop, the Python search and the compiled search's code run as Python; and, for the steps
no engine plays (reneges, scores and bags before a hand, the game's end), the array functions against the
scalar ones on random states."""
from __future__ import annotations

import builtins
import random
import types

import numpy as np
import yaml

from rulespec.core import cards as C
from rulespec.core.schema import BOOL, CARDS, ENUM, INT, SLOTS, Slot
from rulespec.fast.batch import BatchEngine, draw_widths
from rulespec.fast.compiled import CompiledResult
from rulespec.fast.batch_hand import BatchHand, HandRules
from rulespec.fast.native_hand import source as native_source
from rulespec.game import (BLIND, BLIND_NIL, NIL, REGULAR, Bid, GameHistory, HandState, deal_for, game_status,
                          play_hand, score_hand, stock_for)
from rulespec.game.fused import draw_cards
from rulespec.game.policies import RandomPolicy
from rulespec.model.ruleset import Ruleset, load_ruleset, ruleset_from_text

KINDS = {0: REGULAR, 1: NIL, 2: BLIND_NIL, 3: BLIND}


def probe_text(slot: Slot, base: Ruleset) -> str:
    """A value of the slot's type that changes what it does: the declared ``probe``, else by its type from
    ``base``'s value (a boolean negated, a number moved by 3, a set of cards without the hearts, a choice
    the next one)."""
    if slot.probe is not None:
        return slot.probe
    text = base.rules[slot.name].text
    if slot.type == BOOL:
        return f"not ({text})"
    if slot.type == INT:
        return f"({text}) + 3"
    if slot.type == CARDS:
        return f"({text}) - hearts"
    if slot.type == ENUM:
        options = slot.options
        return options[(options.index(text) + 1) % len(options)]
    raise AssertionError(f"slot {slot.name} ({slot.type}) needs a declared probe (core/schema.py)")


def probed(name: str) -> Ruleset:
    """``standard`` with slot ``name`` set to its probe (and the rules the probe needs to be reached)."""
    slot = SLOTS[name]
    return scratch({**dict(slot.probe_with), name: probe_text(slot, load_ruleset("standard"))}, name)


def scratch(values: dict[str, str], label: str) -> Ruleset:
    """``standard`` with each rule of ``values`` set to its text, as a scratch variant named ``label``."""
    rules = {name: {"value": value, "cite": "house §probe"} for name, value in values.items()}
    text = yaml.safe_dump({"id": "probe", "source": {"doc": "house", "title": "probe"}, "extends": "standard",
                           "rules": rules}, sort_keys=False)
    return ruleset_from_text(text, f"<probe {label}>")


# --------------------------------------------------------------------------- replay through HandState
def _bid(kind: int, n: int) -> Bid:
    return Bid(KINDS[kind], n if KINDS[kind] in (REGULAR, BLIND) else 0)


def replay(rs: Ruleset, result, row: int) -> list:
    """Hand ``row`` of an engine's result replayed through ``HandState``: each bid and card must be legal,
    each trick's winner and the score the same.  Returns the scalar outcome (bids, tricks, score)."""
    seats = rs.params["table.seats"]
    assert len(result.deals[row]) == seats, (row, "seats")
    state = HandState(rs, replay_draw(rs, result, row), int(result.dealer[row]))
    replay_kitty(state, result, row)
    final = [_bid(k, n) for k, n in zip(result.bid_kind[row].tolist()[:seats], result.bid_n[row].tolist())]
    opening = [_bid(k, n) for k, n in zip(result.bid_kind[row].tolist()[:seats], result.opening[row].tolist())]
    while state.bidder is not None:
        seat = state.bidder
        partner = state.table.opposite(seat)
        assert opening[seat] in state.legal_bids(), (row, seat, opening[seat])
        raises = state.bid(opening[seat])
        if raises and final[partner] != state.bids[partner]:
            assert final[partner] in raises, (row, partner)
            state.raise_bid(partner, final[partner])
    for seat in state.bidding_order():      # the raise round (raise.by)
        if final[seat] != state.bids[seat]:
            assert final[seat] in state.round_raise_options(seat), (row, seat, "raise round")
            state.raise_bid(seat, final[seat])
    assert state.bids == final, row
    passing = state.exchange_seats()
    assert [seat for seat in range(seats) if result.gave[row, seat]] == sorted(passing), (row, "exchanges")
    for seat in passing:
        give, back = C.card_list(int(result.gave[row, seat])), C.card_list(int(result.received[row, seat]))
        assert len(give) == len(back) == state.exchange_count(seat), (row, seat, "exchange")
        state.exchange(seat, give, back)
    scored = replay_play(state, result, row)
    return [[str(b) for b in state.bids], list(state.won), [t.points for t in scored], [t.bags for t in scored]]


def replay_draw(rs: Ruleset, result, row: int) -> list[int]:
    """The hands of hand ``row``: as dealt, or where they are drawn (``deal.draw``) drawn by the scalar draw from
    the engine's stock with its choices, which must give the engine's hands (its stock the pack, each card once)."""
    dealt = [int(m) for m in result.deals[row]]
    if not rs.params["deal.draw"]:
        assert result.stock.shape[1] == result.drawn.shape[1] == 0, (row, "draw")
        return dealt
    stock, choices = result.stock[row].tolist(), result.drawn[row].tolist()
    assert sorted(stock) == C.card_list(rs.deck) and set(choices) <= {0, 1}, (row, "stock")
    hands, drawn = draw_cards(rs)(stock, int(result.dealer[row]), lambda seat, card, hand, turn: choices[turn])
    assert drawn == choices and hands == dealt, (row, "drawn hands")
    return hands


def replay_kitty(state: HandState, result, row: int) -> None:
    """The dealer's kitty of hand ``row`` taken through ``state``: the same cards left by the deal, as many
    discarded, each from the dealer's hand or the kitty."""
    taken, discarded = (int(m) for m in result.kitty[row])
    assert taken == state.kitty_cards(), (row, "kitty")
    if taken:
        held = state.hands[state.dealer] | taken
        assert discarded & ~held == 0 and discarded.bit_count() == state.rs.params["deal.kitty"], (row, "discard")
        state.take_kitty(C.card_list(discarded))


def replay_play(state: HandState, result, row: int) -> list:
    """The tricks of hand ``row`` played through ``state`` (bid, cards exchanged): each leader, card and
    winner as the engine had them, then the score; the scalar score's teams."""
    for number in range(state.size):
        assert state.leader == result.leaders[row, number], (row, number)
        for card in result.plays[row, number].tolist()[:state.table.seats]:
            assert state.legal() >> card & 1, (row, number, C.card_name(card))
            state.play(card)
        assert state.finish_trick() == result.winners[row, number], (row, number)
    scored = state.score()
    assert [t.points for t in scored] == result.points[row].tolist(), row
    assert [t.bags_added for t in scored] == result.bags_added[row].tolist(), row
    assert [t.bags for t in scored] == result.bags[row].tolist(), row
    return scored


def outcome(rs: Ruleset, result, row: int) -> object:
    """What the scalar procedure makes of an engine's hand: its outcome, or the first thing it refuses."""
    try:
        return replay(rs, result, row)
    except (AssertionError, ValueError) as exc:
        return f"refused: {exc}"


# --------------------------------------------------------------------------- the engines
def array_hands(rs: Ruleset, count: int, seed: int):
    return BatchEngine(rs).play(count, seed=seed, policy="random", dealer=seed % rs.params["table.seats"])


class _Numba(types.ModuleType):
    """numba as the generated modules import it, for running their text as Python: ``njit`` leaves a
    function as it is, ``trailing_zeros`` is the lowest set bit's place, no option is known."""

    def __init__(self) -> None:
        super().__init__("numba")
        self.cpython = self.unsafe = self.numbers = self.core = self.options = self
        self.DefaultOptions = type("DefaultOptions", (), {})      # (the search's header asks it for ``_nrt``)

    @staticmethod
    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda function: function

    @staticmethod
    def trailing_zeros(mask):
        mask = int(mask)
        return (mask & -mask).bit_length() - 1


_NUMBA = _Numba()


def as_python(source: str) -> dict:
    """A generated numba module's text run as Python (its functions undecorated)."""
    def importer(name, globals=None, locals=None, fromlist=(), level=0):
        if name == "numba" or name.startswith("numba."):
            return _NUMBA
        return builtins.__import__(name, globals, locals, fromlist, level)
    env = {"__builtins__": {**vars(builtins), "__import__": importer}, "__name__": "generated"}
    exec(compile(source, "<numba as python>", "exec"), env)  # noqa: S102 - the project's own generated text
    return env


def native_hands(rs: Ruleset, count: int, seed: int) -> CompiledResult:
    """``count`` hands of the compiled engine's code, run as Python (its own generator: numpy's, seeded)."""
    module = as_python(native_source(rs))
    size, table = rs.params["deal.hand_size"], C.table_of(rs.params)
    dealer = seed % table.seats

    def zeros(*shape: int) -> np.ndarray:
        return np.zeros((count, *shape), dtype=np.int64)
    stock, turns = draw_widths(rs)
    places = table.places
    arrays = (zeros(table.seats), zeros(places), zeros(places), zeros(places), zeros(places), zeros(table.sides),
              zeros(table.sides), zeros(table.sides), zeros(size, places), zeros(size), zeros(size), zeros(places),
              zeros(places), zeros(2), zeros(stock), zeros(turns))
    module["play"](count, seed, dealer, *arrays)
    (deals, kinds, nums, openings, tricks, points, bags_added, bags_after, plays, leaders, winners, gave, received,
     kitties, stocks, draws) = arrays
    return CompiledResult(kinds, nums, tricks, points, bags_added, bags_after, deals,
                          np.full(count, dealer, dtype=np.int64), plays, leaders, winners, gave, received, kitties,
                          openings, stocks, draws)


def loop_agrees(rs: Ruleset, count: int, seed: int) -> list:
    """Hands played by the Python card-play loop and step by step (the same policy draws): the same records."""
    out = []
    for i in range(count):
        deal = deal_for(f"probe{seed}", i, rs)
        stock = stock_for(f"probe{seed}", i, rs)
        records = []
        for stepped in (False, True):
            try:
                records.append(play_hand(rs, list(deal), i % len(deal), RandomPolicy(random.Random(i)),
                                         stepped=stepped, stock=stock))
            except ValueError as exc:
                records.append(repr(exc))
        assert records[0] == records[1], (rs.id, i)
        out.append(records[0] if isinstance(records[0], str) else (records[0]["bids"], records[0]["score"]))
    return out


# --------------------------------------------------------------------------- states no engine plays
def score_states(rs: Ruleset, count: int, seed: int) -> list[dict]:
    """Random bids (every kind), tricks, the last trick, scores and bags before (past the bag limit too), and
    0 to 2 reneges."""
    rng = random.Random(f"score:{seed}")
    size, table = rs.params["deal.hand_size"], C.table_of(rs.params)
    seats, sides = table.seats, table.sides
    deck = C.card_list(rs.deck)
    out = []
    for _ in range(count):
        cuts = sorted(rng.randint(0, size) for _ in range(seats - 1))
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, size])]
        bids = [rng.choice([Bid(REGULAR, rng.randint(1, 6)), Bid(NIL), Bid(BLIND_NIL)]) for _ in range(seats)]
        if rng.random() < 0.15 and table.partners:
            team, n = rng.randrange(2), rng.randint(5, 9)
            bids[team] = bids[team + 2] = Bid(BLIND, n)
        reneges = [rng.randrange(seats) for _ in range(rng.choice([0, 0, 1, 2]))]
        last = rng.sample(deck, seats) + [0] * (4 - seats)
        out.append({"bids": bids, "tricks": tricks, "scores": tuple(rng.randint(-300, 600) for _ in range(sides)),
                    "bags": tuple(rng.randint(0, 25) for _ in range(sides)), "reneges": reneges,
                    "last": (rng.choice([s for s in range(seats) if tricks[s]]), last)})
    return out


def scalar_scores(rs: Ruleset, states: list[dict]) -> list:
    out = []
    for s in states:
        try:
            teams = score_hand(rs, s["bids"], s["tricks"], s["scores"], s["bags"], s["reneges"], s["last"], False)
            out.append([[t.points, t.bags_added, t.bags] for t in teams])
        except ValueError as exc:
            out.append(type(exc).__name__)
    return out


def array_scores(rs: Ruleset, states: list[dict]) -> list:
    """The same states scored by the array functions, one state a row (a batch of one: a refusal is the row's)."""
    rules = HandRules(rs)
    out = []
    for s in states:
        pad = [0] * (4 - len(s["bids"]))
        h = BatchHand(rules, np.zeros((1, 4), dtype=np.int64), np.zeros(1, dtype=np.int64),
                      np.array([s["scores"]]), np.array([s["bags"]]))
        h.kind = np.array([[{"regular": 0, "nil": 1, "blind_nil": 2, "blind": 3}[b.kind] for b in s["bids"]]
                           + [4] * len(pad)])
        h.num = np.array([[b.n for b in s["bids"]] + pad])
        h.won = np.array([s["tricks"] + pad])
        h.last_winner, h.last_cards = np.array([s["last"][0]]), np.array([s["last"][1]])
        reneges = np.array([s["reneges"] + [-1] * (2 - len(s["reneges"]))])
        try:
            points, added, after = h.score(reneges)
            out.append([[int(points[0, t]), int(added[0, t]), int(after[0, t])] for t in range(points.shape[1])])
        except ValueError as exc:
            out.append(type(exc).__name__)
    return out


def game_states(count: int, seed: int, sides: int = 2) -> list[tuple]:
    """Scores, bags, hands played and the game so far (``GameHistory``) after a hand, for ``sides`` sides."""
    rng = random.Random(f"game:{seed}")
    out = []
    for _ in range(count):
        contracts = tuple(rng.randint(0, 13) for _ in range(sides))
        made = tuple(rng.random() < 0.5 for _ in range(sides))
        streaks = tuple(rng.randint(1, 3) if c and not m else 0 for c, m in zip(contracts, made))
        history = GameHistory(contracts, made, tuple(s + rng.randint(0, 2) for s in streaks), streaks)
        out.append((tuple(rng.randint(-600, 700) for _ in range(sides)), tuple(rng.randint(0, 9) for _ in range(sides)),
                    rng.randint(1, 30), history))
    return out


def scalar_game_end(rs: Ruleset, states: list[tuple]) -> list:
    return [(status["over"], status["winner"]) for status in
            (game_status(rs, scores, bags, hands, history=history) for scores, bags, hands, history in states)]


def array_game_end(rs: Ruleset, states: list[tuple]) -> list:
    module = HandRules(rs).module
    scores = np.array([s[0] for s in states]).T.copy()
    bags = np.array([s[1] for s in states]).T.copy()
    hands = np.array([s[2] for s in states])
    history = [np.array([getattr(s[3], name) for s in states]).T.copy()
               for name in ("contracts", "made", "sets", "streaks")]
    reached, mercy, winner = module.game_end(np.arange(len(states)), scores, bags, hands, *history)
    winner = np.broadcast_to(winner, (len(states),))
    names = C.table_of(rs.params).side_names
    return [(w >= 0, names[w] if w >= 0 else None) for w in winner.tolist()]
