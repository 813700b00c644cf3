"""The players: the sensible player (``procedure.players``) alike on every engine, a table of mixed players,
the sampled player (``solve.sampled``), and ``simulate``'s --policy and the players it names."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest
from click.testing import CliRunner
from slot_probes import as_python

from rulespec.cli import main
from rulespec.core import cards as C
from rulespec.fast.batch import BatchEngine, draw_widths
from rulespec.fast.native_hand import source as native_source
from rulespec.game import deal_for, play_hand, stock_for
from rulespec.game.policies import RandomPolicy, SensiblePolicy, Seats
from rulespec.model.ruleset import load_ruleset, ruleset_from_text
from rulespec.procedure.lang import K_NIL, K_REGULAR
from rulespec.solve import sampled
from rulespec.solve.search import Goal

KINDS = ("regular", "nil", "blind_nil", "blind")
# a jokers pack with its own suits and powers, a first-trick rule and a minimum bid, a blind-nil exchange; two
# players drawing their hands from the stock (deal.draw)
VARIANTS = ("standard", "jokers-deuces", "tournament", "classic", "pirates", "two-player")


def _scalar(rs, deal, dealer, stepped=False, stock=None):
    """The scalar sensible player's hand: bids, cards in order, points (the hands drawn from ``stock`` where the
    variant draws them)."""
    stock = [int(c) for c in stock] if rs.params["deal.draw"] else None
    rec = play_hand(rs, [int(h) for h in deal], int(dealer), SensiblePolicy(random.Random(0)), record=False,
                    stepped=stepped, stock=stock)
    return ([(b.kind, b.n) for b in rec["_bids"]], [card for _, card in rec["_plays"]],
            [r.points for r in rec["_results"]])


def _rows(result, i, seats=4):
    bids = [(KINDS[int(k)], int(n)) for k, n in zip(result.bid_kind[i][:seats], result.bid_n[i][:seats])]
    cards = [int(c) for row in result.plays[i] for c in row[:seats]]
    return bids, cards, [int(p) for p in result.points[i]]


def _native(rs, count, seed):
    """The compiled engine's sensible hands, its numba text run as Python."""
    module = as_python(native_source(rs, "sensible"))
    size, seats, (stock, turns) = rs.params["deal.hand_size"], rs.params["table.seats"], draw_widths(rs)
    shapes = ((seats,), (4,), (4,), (4,), (4,), (2,), (2,), (2,), (size, 4), (size,), (size,), (4,), (4,), (2,),
              (stock,), (turns,))
    arrays = [np.zeros((count, *shape), dtype=np.int64) for shape in shapes]
    module["play"](count, seed, seed % seats, *arrays)
    deals, kinds, nums, _, _, points, _, _, plays = arrays[:9]
    return deals, kinds, nums, points, plays, arrays[14]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_engine_plays_the_scalar_sensible_players_hands(variant):
    rs = load_ruleset(variant)
    seats = rs.params["table.seats"]
    batch = BatchEngine(rs).play(60, seed=5, policy="sensible", dealer=1)
    for i in range(len(batch)):
        assert _rows(batch, i, seats) == _scalar(rs, batch.deals[i], 1, stock=batch.stock[i]), (variant, "array", i)
    deals, kinds, nums, points, plays, stocks = _native(rs, 6, 7)
    for i in range(6):
        native = ([(KINDS[int(k)], int(n)) for k, n in zip(kinds[i][:seats], nums[i][:seats])],
                  [int(c) for row in plays[i] for c in row[:seats]], [int(p) for p in points[i]])
        assert native == _scalar(rs, deals[i], 7 % seats, stock=stocks[i]), (variant, "compiled", i)
    for i in range(3):        # the Python card-play loop against the steps one at a time
        deal, stock = deal_for("players", i, rs), stock_for("players", i, rs)
        assert _scalar(rs, deal, i, stock=stock) == _scalar(rs, deal, i, stepped=True, stock=stock)


def test_the_sensible_player_bids_and_plays_like_a_player():
    """Its bids about fit the cards (a side's bids against its tricks), it takes tricks when short of its
    contract and sheds them once both sides have their bids, and nil bidders mostly keep their nils."""
    rs = load_ruleset("standard")
    r = BatchEngine(rs).play(2000, seed=2, policy="sensible")
    regular = r.bid_kind == 0
    total = (r.bid_n * regular).sum(axis=1)
    assert 10 <= total.mean() <= 13          # (a random bidder's mean is far from it)
    nil = r.bid_kind == 1
    assert nil.sum() > 20 and (r.tricks[nil] == 0).mean() > 0.5      # (against opponents who try to set it)
    made = [(r.tricks[:, t] + r.tricks[:, t + 2] >= r.bid_n[:, t] + r.bid_n[:, t + 2])
            [regular[:, t] & regular[:, t + 2]] for t in (0, 1)]
    assert np.concatenate(made).mean() > 0.7


def test_a_mixed_table_shows_every_player_every_card():
    rs = load_ruleset("standard")
    sensible, rnd = SensiblePolicy(random.Random(1)), RandomPolicy(random.Random(2))
    table = Seats([sensible, rnd, sensible, rnd])
    rec = play_hand(rs, deal_for("seats", 0, rs), 0, table, record=False)
    assert table.name == "sensible/random/sensible/random"
    won, places = sensible.table.won, len(rec["_won"])       # (the table keeps a place for every seat of six)
    assert won[:places] == rec["_won"] and not any(won[places:]) and sensible.table.played == rs.deck
    assert [(b.kind, b.n) for b in rec["_bids"]] == [(KINDS[k], n) for k, n in zip(sensible.table.kind[:places],
                                                                                   sensible.table.num)]


def test_the_sampled_players_deals_keep_the_counts_and_the_voids():
    rs = load_ruleset("standard")
    rng = random.Random(3)
    hand = C.mask_of(range(13))                                  # every club
    unseen = rs.deck & ~hand & ~C.mask_of([13, 14, 15])           # three diamonds played
    voids = [0, 1 << 1, 0, 1 << 2]                                # E out of diamonds, W out of hearts
    for _ in range(50):
        hands = sampled.deal_unseen(rs, rng, 0, hand, unseen, [0, 12, 13, 11], voids)
        assert hands[0] == hand and [h.bit_count() for h in hands] == [13, 12, 13, 11]
        assert hands[1] | hands[2] | hands[3] == unseen and not hands[1] & hands[2]
        assert not hands[1] & rs.suit_masks[1] and not hands[3] & rs.suit_masks[2]


def test_what_the_sampled_player_solves_for():
    regular = [K_REGULAR] * 4
    nil_partner = [K_REGULAR, K_REGULAR, K_NIL, K_REGULAR]
    assert sampled.goal_of(0, nil_partner, [3, 4, 0, 4], [0, 0, 0, 0]) == (Goal.of_team(1, 1 << 2), False)   # keep it
    assert sampled.goal_of(1, nil_partner, [3, 4, 0, 4], [0, 0, 0, 0]) == (Goal.of_team(1, 1 << 2), True)    # set it
    assert sampled.goal_of(1, nil_partner, [3, 4, 0, 4], [0, 0, 1, 0]) == (Goal.of_team(1, 0b1010), True)    # it broke
    assert sampled.goal_of(0, regular, [3, 3, 3, 3], [2, 1, 1, 1]) == (Goal.of_team(0, 0b0101), True)       # both open
    assert sampled.goal_of(0, regular, [3, 3, 3, 3], [3, 3, 3, 3]) == (Goal.of_team(1, 0b0101), False)      # no bags


SHORT = ruleset_from_text("id: short\nsource: {doc: house, title: short hands}\nextends: standard\nrules:\n"
                          "  deal.hand_size: 4 @ house §1\n")


def test_the_sampled_player_plays_legal_cards_the_same_for_the_same_seed(monkeypatch):
    monkeypatch.setenv("RULESPEC_SOLVER", "python")       # (the Python search: nothing to compile)
    records = []
    for _ in range(2):
        player = sampled.SampledPolicy(random.Random(4), samples=3)
        records.append(play_hand(SHORT, deal_for("sampled", 0, SHORT), 0, Seats([player, SensiblePolicy(
            random.Random(5))] * 2)))      # (play_hand refuses an illegal card)
        assert player.solved > 0
    assert records[0] == records[1]


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_simulate_says_which_players_played_and_defaults_to_sensible_for_stats(tmp_path):
    report = json.loads(run("simulate", "standard", "--hands", "300", "--stats", "--json").output)
    assert report["players"] == {"policy": "sensible", "engine": "batch"}
    random_report = json.loads(run("simulate", "standard", "--hands", "300", "--stats", "--json", "--policy",
                                   "random").output)
    assert random_report["players"]["policy"] == "random" and random_report["teams"] != report["teams"]
    text = run("simulate", "standard", "--games", "1", "--stats").output
    assert "sensible players on the scalar engine" in text.splitlines()[0]
    out = tmp_path / "h.jsonl"
    assert run("simulate", "standard", "--hands", "5", "--policy", "sensible", "--out", str(out)).exit_code == 0
    assert {json.loads(line)["players"] for line in out.read_text().splitlines()} == {"sensible"}


def test_simulate_refuses_the_sampled_player_off_the_scalar_engine():
    result = run("simulate", "standard", "--hands", "5", "--policy", "sampled", "--engine", "compiled")
    assert result.exit_code != 0 and "scalar engine only" in result.output
