"""The seat model (issue 30): rules ``table.seats`` and ``table.sides``, checked by the compiler; hands of three
and four players alone, dealt, played and scored per player by every engine (cut-throat, solo)."""
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec import game as E
from rulespec.core import cards as C
from rulespec.errors import RulesFileError
from rulespec.fast.batch import BatchEngine
from rulespec.game.policies import RandomPolicy, SensiblePolicy
from rulespec.model.ruleset import load_ruleset, ruleset_from_text

CUTTHROAT, SOLO = load_ruleset("cutthroat"), load_ruleset("solo")


def _problems(rules: str) -> list:
    with pytest.raises(RulesFileError) as caught:
        ruleset_from_text(f"id: t\nsource: {{doc: house, title: t}}\nextends: standard\nrules:\n{rules}", "t.yaml")
    return caught.value.problems


def test_the_tables_of_the_bundled_variants():
    assert C.table_of(load_ruleset("standard").params) is C.FOUR
    table = C.table_of(CUTTHROAT.params)
    assert (table.seats, table.partners, table.side_names) == (3, False, ("N", "E", "S"))
    assert C.table_of(SOLO.params).side_names == ("N", "E", "S", "W")
    assert CUTTHROAT.deck.bit_count() == 51 and not CUTTHROAT.deck & 1     # the 2 of clubs out
    assert C.table_of(CUTTHROAT.params).rival((10, 30, 30), 0) == 1       # the first of equal leaders


@pytest.mark.parametrize("rules, rule, words", [
    ("  table.seats: 3 @ house §1\n  deal.hand_size: 17 @ house §1\n", "table.seats", "at four or six seats, not 3"),
    ("  table.seats: 5 @ house §1\n  deal.hand_size: 10 @ house §1\n", "table.seats", "at four or six seats, not 5"),
    ("  table.seats: 7 @ house §1\n", "table.seats", "2 to 6 seats"),
    ("  table.seats: 6 @ house §1\n  deal.hand_size: 8 @ house §1\n  game.winner: high.side @ house §1\n"
     "  renege.mode: transfer @ house §1\n", "renege.mode", "three partnerships there is no one other side"),
    ("  table.seats: 6 @ house §1\n  deal.hand_size: 8 @ house §1\n", "game.winner", "names ew.score, ns.score"),
    ("  table.seats: 6 @ house §1\n  game.winner: high.side @ house §1\n", "deal.hand_size",
     "13 cards to each of 6 players"),
    ("  table.seats: 6 @ house §1\n  deal.hand_size: 8 @ house §1\n"
     "  game.winner: if high.score >= 500 then NS else none @ house §1\n", "game.winner",
     "NS names a partnership of four seats (NS or EW), and this table of 6 seats has none"),
    ("  table.sides: alone @ house §1\n  renege.mode: transfer @ house §1\n", "renege.mode", "no one other side"),
    ("  table.sides: alone @ house §1\n", "game.winner", "names ew.score, ns.score"),
    ("  table.seats: 3 @ house §1\n  table.sides: alone @ house §1\n  game.winner: high.side @ house §1\n"
     "  deal.hand_size: 18 @ house §1\n", "deal.hand_size", "18 cards to each of 3 players"),
])
def test_a_table_the_rules_cannot_seat_is_a_located_problem(rules, rule, words):
    problems = _problems(rules)
    found = [p for p in problems if p.rule == rule]
    assert found and words in found[0].message, [p.format() for p in problems]
    assert found[0].line >= 1 and found[0].file


def test_partner_of_names_nobody_when_each_plays_alone():
    problems = _problems("  table.sides: alone @ house §1\n  game.winner: high.side @ house §1\n"
                         "  deal.first_bidder: partner_of(dealer) @ house §1\n")
    assert [p.rule for p in problems] == ["deal.first_bidder"] and "partner_of()" in problems[0].message


def test_the_seating_rules_count_the_table_seats():
    assert [E.seat_rule(CUTTHROAT, "deal.next_dealer", d) for d in range(3)] == [1, 2, 0]
    state = E.HandState(CUTTHROAT, E.deal_for("seats", 0, CUTTHROAT), 2)
    assert state.order == [0, 1, 2] and state.leader == 0


def _played(rs, seed: int, sensible: bool) -> dict:
    deal = E.deal_for("props", seed, rs)
    policy = SensiblePolicy(random.Random(seed)) if sensible else RandomPolicy(random.Random(seed))
    return E.play_hand(rs, deal, seed % rs.params["table.seats"], policy, stepped=seed % 2 == 0)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["cutthroat", "solo"]), st.integers(0, 10_000), st.booleans())
def test_cards_are_conserved_and_each_trick_has_one_winner(variant, seed, sensible):
    rs = load_ruleset(variant)
    seats, size = rs.params["table.seats"], rs.params["deal.hand_size"]
    record = _played(rs, seed, sensible)
    dealt = [C.mask_of(C.parse_cards(record["deal"][s])) for s in C.SEATS[:seats]]
    assert sum(m.bit_count() for m in dealt) == seats * size
    assert all(a & b == 0 for i, a in enumerate(dealt) for b in dealt[i + 1:])       # no card twice
    played = [C.parse_card(card) for trick in record["tricks"] for card in trick["cards"]]
    assert sorted(played) == sorted(c for m in dealt for c in C.card_list(m))       # every card once
    for trick in record["tricks"]:
        order = [C.SEATS[(C.SEATS.index(trick["leader"]) + k) % seats] for k in range(seats)]
        assert len(trick["cards"]) == seats and trick["winner"] in order
    assert sum(record["tricks_per_seat"].values()) == size
    assert list(record["score"]) == list(C.SEATS[:seats])


def _alone_points(rs, bid: E.Bid, won: int) -> int:
    """A player's points alone under cut-throat's (standard's) numbers from 0 bags: contract or nil, overtricks
    (a point and a bag each), 100 off for each ten bags."""
    bags = won if bid.is_nil else max(won - bid.n, 0) if won >= bid.n else 0
    base = (100 if won == 0 else -100) if bid.is_nil else 10 * bid.n if won >= bid.n else -10 * bid.n
    return base + bags - 100 * (bags // 10)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.integers(1, 17).map(lambda n: E.Bid(E.REGULAR, n)), st.just(E.Bid(E.NIL))),
                min_size=3, max_size=3),
       st.lists(st.integers(0, 17), min_size=2, max_size=2))
def test_a_cut_throat_hand_is_scored_per_player(bids, cuts):
    low, high = sorted(cuts)
    tricks = [low, high - low, 17 - high]
    results = E.score_hand(CUTTHROAT, bids, tricks, explain=False)
    assert [r.points for r in results] == [_alone_points(CUTTHROAT, b, w) for b, w in zip(bids, tricks)]
    other = [bids[0], E.Bid(E.REGULAR, 9 if bids[1] != E.Bid(E.REGULAR, 9) else 3), bids[2]]
    again = E.score_hand(CUTTHROAT, other, tricks, explain=False)
    assert again[0].points == results[0].points and again[2].points == results[2].points  # another's bid: not mine


@pytest.mark.parametrize("variant", ["cutthroat", "solo"])
def test_the_batch_engine_deals_the_table_and_scores_each_player(variant):
    rs = load_ruleset(variant)
    seats, size = rs.params["table.seats"], rs.params["deal.hand_size"]
    result = BatchEngine(rs).play(300, seed=4, policy="sensible", dealer=1)
    assert result.deals.shape == (300, seats) and result.points.shape == (300, seats)
    assert (np.bitwise_count(result.deals) == size).all() and (result.tricks.sum(axis=1) == size).all()
    assert (result.tricks[:, seats:] == 0).all()
    for row in range(0, 300, 37):       # each player's points are his own contract's
        bids = [E.Bid(("regular", "nil", "blind_nil", "blind")[k], int(n))
                for k, n in zip(result.bid_kind[row, :seats], result.bid_n[row, :seats])]
        expected = E.score_hand(rs, bids, result.tricks[row, :seats].tolist(), explain=False)
        assert [r.points for r in expected] == result.points[row].tolist()


def test_conform_names_the_variants_an_engine_can_play():
    from rulespec.errors import EngineError
    from rulespec.tools.conform import ConformConfig, conform
    with pytest.raises(EngineError) as caught:
        conform(ConformConfig("fake_engine:Sound", "cutthroat", deals=2), jobs=1)
    message = str(caught.value)
    assert "3 players each alone" in message and "standard" in message and "solo" not in message.split(":")[-1]


def test_a_difference_report_compares_variants_of_one_table():
    from rulespec.errors import DiffError
    from rulespec.tools.diff.deal_runs import DiffConfig
    from rulespec.tools.diff.driver import run
    with pytest.raises(DiffError, match="seat their tables differently"):
        run(DiffConfig(("standard", "cutthroat"), deals=2), jobs=1)


def test_the_api_difference_report_refuses_two_tables():
    from service.app import create_app
    response = create_app().test_client().post("/v1/diff", json={"variants": ["solo", "standard"], "deals": 2})
    assert response.status_code == 422 and response.get_json()["field"] == "variants"
    assert "seat their tables differently" in response.get_json()["detail"]


def test_a_lone_nil_bidders_overtricks_are_said_without_partners():
    """At a table where each plays alone, a failed nil's tricks beyond a contract of 0 are the player's own: the
    line says a nil bid, not that both partners bid nil (which it still says at a partnership table)."""
    from rulespec.app.disputes import answer
    alone = answer("score", {"variant": "cutthroat", "bids": {"N": "nil", "E": 5, "S": 3},
                             "tricks": {"N": 2, "E": 7, "S": 8}})
    lines = {line["rule"]: line["why"] for line in alone["teams"]["N"]["lines"]}
    assert lines["scoring.overtrick_points"] == "2 overtrick(s) x 1 (a nil bid: a contract of 0)"
    assert not any("partner" in line["why"] for team in alone["teams"].values() for line in team["lines"])
    pair = answer("score", {"variant": "standard", "bids": {"N": "nil", "S": "nil", "E": 5, "W": 3},
                            "tricks": {"N": 2, "S": 0, "E": 7, "W": 4}})
    assert [line["why"] for line in pair["teams"]["NS"]["lines"] if line["rule"] == "scoring.overtrick_points"] \
        == ["2 overtrick(s) x 1 (both partners bid nil: a contract of 0)"]
