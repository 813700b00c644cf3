"""The card-by-card review and the sampled player at tables without partners (issue 30): each card's value for
its seat alone (its own tricks against everyone else) and the nils of a bidder alone, against plain minimax at
two and three seats; a record seated unlike its variant refused where its deal is written; the replay that stops
before its first card; the sampled player's deals, goals and card values at those tables."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.app.answers import inline_variant
from rulespec.app.claims import allowance
from rulespec.app.review import answer_review
from rulespec.cli import main
from rulespec.core import cards as C
from rulespec.game import HandState, deal_for, parse_bid, play_hand, simulate, stock_for
from rulespec.procedure.lang import K_NIL, K_REGULAR
from rulespec.solve import sampled
from rulespec.solve.search import Goal, Search
from solve_helpers import at_position, minimax, random_position

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "records"
THREE = {"extends": "cutthroat", "id": "cutthroat-four", "rules": {"deal.hand_size": 4}}
TWO = {"extends": "two-player", "id": "two-player-five", "rules": {"deal.hand_size": 5}}
FOUR_ALONE = {"extends": "solo", "id": "solo-three", "rules": {"deal.hand_size": 3}}


def _records(spec: dict, hands: int, seed: str) -> list[dict]:
    return list(simulate(inline_variant(spec, "variant"), hands, seed, "random"))


def _minimax_review(rs, record: dict) -> tuple[list[tuple[int, int]], set, set]:
    """Each card's (before, after) for its seat alone, the cards that lower it, and the nil changes, by plain
    minimax over the replayed hand."""
    seats = C.table_of(rs.params).seats
    hands = [C.mask_of([C.parse_card(c) for c in record["deal"][s]]) for s in C.SEATS[:seats]]
    state = HandState(rs, hands, C.parse_seat(record["dealer"]))
    state.set_bids([parse_bid(record["bids"][s], "bids") for s in C.SEATS[:seats]])
    everyone = (1 << seats) - 1
    nils = [s for s in range(seats) if state.bids[s].kind in ("nil", "blind_nil")]

    def own(st: HandState, seat: int) -> int:
        return st.won[seat] + (0 if st.over else minimax(st.copy(), Goal(1 << seat, 1 << seat)))

    def lost(st: HandState, nil: int) -> bool:
        return st.won[nil] > 0 or (not st.over and minimax(st.copy(), Goal(everyone & ~(1 << nil), 1 << nil)) > 0)

    values, costly, changes = [], set(), set()
    for trick in record["tricks"]:
        for name in trick["cards"]:
            card, seat = C.parse_card(name), state.to_play
            before, was = own(state, seat), [lost(state, n) for n in nils]
            state.play(card)
            if len(state.trick) == seats:
                state.finish_trick()
            after, now = own(state, seat), [lost(state, n) for n in nils]
            values.append((before, after))
            if after < before:
                costly.add((state.number if state.trick else state.number - 1, C.SEATS[seat], name))
            for nil, a, b in zip(nils, was, now):
                if seat == nil and not a and b:
                    changes.add((C.SEATS[seat], name, "cost"))
                elif seat != nil and a and not b:
                    changes.add((C.SEATS[seat], name, "let"))
    return values, costly, changes


@pytest.mark.parametrize("spec", [THREE, TWO, FOUR_ALONE], ids=lambda spec: spec["id"])
def test_each_cards_value_is_its_seats_own_against_everyone(spec):
    """Every card of random hands at three and two seats: the review's before and after equal plain minimax for
    the seat that played it alone, its costly cards are those that lower it, each card named to keep the trick
    keeps it, and a nil bidder's nil is lost or let through where minimax says."""
    rs = inline_variant(spec, "variant")
    nils = 0
    for record in _records(spec, 6, "review-alone"):
        with allowance(None, None, compiles=True):
            got = answer_review({"record": json.dumps(record), "format": "json", "variant": spec})
        (hand,) = got["hands"]
        assert hand["complete"] and "problem" not in hand, hand
        values, costly, changes = _minimax_review(rs, record)
        assert [(c["before"], c["after"]) for c in hand["cards"]] == values
        assert all("ns_before" not in c for c in hand["cards"])
        assert {(f["trick"], f["seat"], f["card"]) for f in hand["costly"]} == costly
        for found in hand["costly"]:
            assert found["side"] == found["seat"] and set(found["won"]) == set(C.table_of(rs.params).side_names)
            assert found["text"].startswith(f"{found['seat']}'s ") and "gave up" in found["text"]
        found_changes = {(f["seat"], f["card"], "cost" if "cost the nil" in f["text"] else "let")
                         for f in hand["nils"] if "card" in f}
        assert found_changes == changes
        nils += sum(b.lower() == "nil" for b in record["bids"].values())
    assert nils and len(hand["cards"]) == C.table_of(rs.params).seats * rs.params["deal.hand_size"]


def test_a_two_player_hand_reviewed_end_to_end_from_simulate_out(tmp_path):
    """``simulate --out`` at two seats, then ``review`` of that file: every card of the 13 tricks valued."""
    out = tmp_path / "two.jsonl"
    runner = CliRunner()
    simulated = runner.invoke(main, ["simulate", "two-player", "--hands", "1", "--seed", "1", "--out", str(out)])
    assert simulated.exit_code == 0, simulated.output
    result = runner.invoke(main, ["review", str(out), "--json"])
    assert result.exit_code == 0, result.output
    (hand,) = json.loads(result.output)["hands"]
    assert hand["variant"] == "two-player" and hand["complete"] and len(hand["cards"]) == 26
    for before, after in zip(hand["cards"], hand["cards"][1:]):
        if before["seat"] == after["seat"]:      # (a card's after is the next card's before for the same seat)
            assert before["after"] == after["before"]


def _review_cli(record: str, variant: str) -> dict:
    result = CliRunner().invoke(main, ["review", record, "--variant", variant, "--json"])
    assert result.exit_code == 0, result.output
    (hand,) = json.loads(result.output)["hands"][:1]
    return hand


@pytest.mark.parametrize("variant", ["cutthroat", "two-player"])
def test_a_four_seat_record_under_a_smaller_table_is_refused_at_its_deal(variant):
    hand = _review_cli(str(EXAMPLES / "renege.pbn"), variant)
    message = hand["problem"]["message"]
    assert message.startswith("the record seats 4 players (N, E, S, W)") and f"'{variant}' seats" in message
    assert hand["problem"]["tag"] == "Deal" and hand["problem"]["line"] == 12


def test_a_three_seat_record_under_four_seats_is_refused_at_its_deal(tmp_path):
    path = tmp_path / "three.jsonl"
    path.write_text(json.dumps(_records(THREE, 1, "x")[0]) + "\n")
    hand = _review_cli(str(path), "standard")
    assert hand["problem"]["message"].startswith("the record seats 3 players (N, E, S); variant 'standard' seats 4")
    assert hand["problem"]["path"] == "deal" and hand["problem"]["line"] == 1


def test_solo_reviews_a_four_seat_record_each_alone():
    """The record of renege.pbn under solo (four seats each alone): reviewed (no refusal in words), up to the
    renege solo refuses, as far as a small budget goes."""
    with allowance(None, None, compiles=True):
        got = answer_review({"record": (EXAMPLES / "renege.pbn").read_text(encoding="utf-8"), "variant": "solo",
                             "budget": {"nodes": 20_000}})
    (hand,) = got["hands"]
    assert "problem" not in hand and hand["stopped"]["rule"] == "play.follow" and hand["stopped"]["line"] == 25
    assert not hand["complete"] and "20,000 nodes" in hand["budget"]["why"]


def test_a_replay_stopped_before_its_first_card_is_not_a_crash():
    """Jokers dealt, judged under standard: the replay stops at the deal (it raised IndexError before)."""
    result = CliRunner().invoke(main, ["review", str(EXAMPLES / "jokers-deuces.ptn"), "--variant", "standard",
                                       "--json"])
    assert result.exit_code == 0, result.output
    stopped = [h for h in json.loads(result.output)["hands"] if "stopped" in h and not h.get("cards")]
    assert stopped and all("not in the pack" in h["stopped"]["why"] for h in stopped)


def test_json_records_of_smaller_tables_are_read_by_their_deals_seats():
    from rulespec.records import FILE_LIMITS, read_records
    record = _records(THREE, 1, "y")[0]
    (hand,) = read_records(json.dumps(record), "json", limits=FILE_LIMITS).hands
    assert len(hand.hands) == 3 and len(hand.bids) == 3 and all(len(t.cards) == 3 for t in hand.tricks)
    bad = read_records(json.dumps({**record, "bids": {**record["bids"], "W": "3"}}), "json", limits=FILE_LIMITS)
    assert not bad.hands and "a bid for each of N, E, S (the deal's seats)" in bad.problems[0].message
    flat = [c for t in record["tricks"] for c in t["cards"]]
    four = {k: v for k, v in record.items() if k != "tricks"} | {"play": [flat[:4], flat[4:]]}
    refused = read_records(json.dumps(four), "json", limits=FILE_LIMITS)
    assert "trick 1 has 4 cards; a trick has 3" in refused.problems[0].message


def test_convert_and_audit_refuse_a_three_seat_hand_in_words(tmp_path):
    path = tmp_path / "three.jsonl"
    path.write_text(json.dumps(_records(THREE, 1, "z")[0]) + "\n")
    runner = CliRunner()
    converted = runner.invoke(main, ["convert", str(path), "--to", "ptn"])
    assert "a PTN hand holds four seats; this one seats 3" in converted.output
    audited = runner.invoke(main, ["audit", str(path), "--json"])
    (hand,) = json.loads(audited.output)["hands"]
    # (the audit scores tables without partners now; a record of three seats judged by a four-seat variant is not)
    assert hand["problem"]["message"] == "this hand seats 3 players and variant 'standard' seats 4"


# --------------------------------------------------------------------------- the sampled player
def test_the_sampled_players_deals_at_three_and_two_seats():
    rs = inline_variant({"extends": "cutthroat", "id": "c", "rules": {}}, "variant")
    rng = random.Random(5)
    hand = C.mask_of(C.card_list(rs.deck)[:17])
    unseen = rs.deck & ~hand
    voids = [0, 1 << 1, 0, 0]
    for _ in range(30):
        hands = sampled.deal_unseen(rs, rng, 0, hand, unseen, [0, 17, 17], voids)
        assert len(hands) == 3 and hands[0] == hand and hands[1] | hands[2] == unseen and not hands[1] & hands[2]
        assert not hands[1] & rs.suit_masks[1]
    two = inline_variant(TWO, "variant")
    mine = C.mask_of(C.card_list(two.deck)[:5])
    for _ in range(30):       # a drawn deal: most of the unseen cards stay out
        hands = sampled.deal_unseen(two, rng, 1, mine, two.deck & ~mine, [5, 0], [0, 0, 0, 0])
        assert len(hands) == 2 and hands[1] == mine and hands[0].bit_count() == 5 and not hands[0] & mine


def test_what_the_sampled_player_solves_for_alone():
    three = C.table_of({"table.seats": 3, "table.sides": "alone"})
    regular, nil_e = [K_REGULAR] * 3, [K_REGULAR, K_NIL, K_REGULAR]
    assert sampled.goal_of(1, nil_e, [3, 0, 4], [0, 0, 0], three) == (Goal(0b101, 0b010), False)     # keep it clean
    assert sampled.goal_of(0, nil_e, [3, 0, 4], [0, 0, 0], three) == (Goal(0b101, 0b010), True)      # set it
    assert sampled.goal_of(0, regular, [3, 3, 3], [1, 0, 0], three) == (Goal(0b001, 0b001), True)    # open
    assert sampled.goal_of(2, regular, [3, 3, 3], [3, 3, 3], three) == (Goal(0b011, 0b100), False)   # no bags


@pytest.mark.parametrize("spec", [THREE, TWO], ids=lambda spec: spec["id"])
def test_the_sampled_players_card_values_are_minimaxs(spec):
    """Each card the player weighs in a sample: its count kept exactly where minimax after it keeps the value."""
    rs = inline_variant(spec, "variant")
    rng = random.Random(spec["id"])
    for _ in range(15):
        pos = random_position(rs, rng, rng.randint(1, 3))
        seat = pos.to_play
        goal = Goal(1 << seat, 1 << seat)
        search = Search(rs, pos, goal)
        state = at_position(rs, pos)
        legal = state.legal()
        value = search.value()
        for card, count in sampled.SampledPolicy._values(rs, search, seat, legal, True, C.card_list(legal)[0]):
            child = state.copy()
            child.play(card)
            gained = 0
            if len(child.trick) == len(child.hands):
                gained = child.finish_trick() == seat
            best = gained + minimax(child, goal)
            assert count == (value if best == value else value - 1), (card, pos)


@pytest.mark.parametrize("spec", [THREE, TWO], ids=lambda spec: spec["id"])
def test_the_sampled_player_plays_smaller_tables(monkeypatch, spec):
    """A hand of each table by the sampled player alone at every seat: legal (play_hand refuses an illegal card),
    the same for the same seed, samples solved; at the drawn deal the tops it discarded are out of play."""
    monkeypatch.setenv("RULESPEC_SOLVER", "python")
    rs = inline_variant(spec, "variant")
    records = []
    for _ in range(2):
        player = sampled.SampledPolicy(random.Random(4), samples=2)
        records.append(play_hand(rs, deal_for("sampled", 0, rs), 0, player,
                                 stock=stock_for("sampled", 0, rs) if rs.params["deal.draw"] else None))
        assert player.solved > 0
        if rs.params["deal.draw"]:
            dealt = records[-1]["_dealt"][0] | records[-1]["_dealt"][1]
            assert dealt.bit_count() == 10 and any(player.discarded)
            assert not (player.discarded[0] | player.discarded[1]) & dealt
    assert records[0]["tricks"] == records[1]["tricks"]
