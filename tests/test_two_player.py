"""Two-player Spades (issue 30, ``deal.draw``): the hands drawn from the stock -- the check of a variant that sets
it, the draw on every engine (cards conserved: 13 + 13 kept, 26 discarded; one winner a trick; each player scored
alone), the sensible player's choice, the answers at two seats, ``simulate --stats`` per player and ``diff``."""
import random

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec import game as E
from rulespec.cli import main
from rulespec.core import cards as C
from rulespec.app.answers import answer_score
from rulespec.errors import GameError, InputError, RulesFileError
from rulespec.fast.batch import BatchEngine
from rulespec.fast.native_hand import source as native_source
from rulespec.game.policies import RandomPolicy, SensiblePolicy
from rulespec.model.ruleset import load_ruleset, ruleset_from_text
from slot_probes import native_hands, outcome

TWO = load_ruleset("two-player")
PACK = C.card_list(TWO.deck)


def _problems(rules: str) -> list:
    with pytest.raises(RulesFileError) as caught:
        ruleset_from_text(f"id: t\nsource: {{doc: house, title: t}}\nextends: standard\nrules:\n{rules}", "t.yaml")
    return caught.value.problems


def test_the_two_player_table_draws_thirteen_each_from_the_whole_pack():
    table = C.table_of(TWO.params)
    assert (table.seats, table.partners, table.side_names) == (2, False, ("N", "E"))
    assert TWO.params["deal.draw"] and TWO.deck.bit_count() == 52 and TWO.params["deal.hand_size"] == 13
    assert not load_ruleset("standard").params["deal.draw"]


@pytest.mark.parametrize("rules, words", [
    ("  deal.draw: true @ house §1\n", "4 players drawing 13 cards each take 104 cards"),
    ("  deal.draw: true @ house §1\n  deal.hand_size: 6 @ house §1\n  deal.kitty: 4 @ house §1\n", "no kitty"),
])
def test_a_draw_the_stock_cannot_give_is_refused_naming_the_rule(rules, words):
    found = [p for p in _problems(rules) if p.rule == "deal.draw"]
    assert found and words in found[0].message and found[0].line >= 1, [p.format() for p in _problems(rules)]


def _drawn(stock: list[int], kept: list, hands: list[int], dealer: int) -> None:
    """The draw as 005 §Two-player gives it: turn by turn from the dealer's opponent, the top card kept or the
    next one, the other discarded; every card of the pack once, in a hand or the discards (13 + 13 + 26)."""
    seats, held, discards = len(hands), [0] * len(hands), 0
    for turn, keep in enumerate(kept):
        seat = (dealer + 1 + turn) % seats
        top, below = stock[2 * turn], stock[2 * turn + 1]
        taken, discarded = (top, below) if keep else (below, top)
        held[seat] |= 1 << taken
        discards |= 1 << discarded
    assert held == hands and len(kept) == 26
    assert [h.bit_count() for h in hands] == [13, 13] and discards.bit_count() == 26
    assert hands[0] | hands[1] | discards == TWO.deck and hands[0] & hands[1] == 0
    assert discards & (hands[0] | hands[1]) == 0


def _tricks(hands: list[int], plays, winners, leaders) -> None:
    """Every card held played once, two a trick, each trick one winner who played to it."""
    played = [card for trick in plays for card in trick[:2]]
    assert sorted(played) == sorted(C.card_list(hands[0] | hands[1]))
    for trick, winner, leader in zip(plays, winners, leaders):
        assert winner in (0, 1) and (winner == leader or winner == 1 - leader)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 1), st.sampled_from(["random", "sensible"]), st.booleans())
def test_every_scalar_hand_conserves_the_cards_and_scores_each_player(seed, dealer, player, stepped):
    stock = E.stock_for("props", seed, TWO)
    policy = (SensiblePolicy if player == "sensible" else RandomPolicy)(random.Random(seed))
    record = E.play_hand(TWO, [], dealer, policy, stepped=stepped, stock=stock)
    assert [C.parse_card(c) for c in record["draw"]["stock"]] == stock
    hands = [C.mask_of(C.parse_cards(record["deal"][s])) for s in "NE"]
    _drawn(stock, record["draw"]["kept"], hands, dealer)
    tricks = record["tricks"]
    assert all(t["leader"] in "NE" and t["winner"] in "NE" and len(t["cards"]) == 2 for t in tricks)
    plays = [[C.parse_card(c) for c in t["cards"]] for t in tricks]
    _tricks(hands, plays, ["NE".index(t["winner"]) for t in tricks], ["NE".index(t["leader"]) for t in tricks])
    assert tricks[0]["leader"] == "NE"[1 - dealer]           # the dealer's opponent leads first
    assert list(record["score"]) == ["N", "E"] and sum(record["tricks_per_seat"].values()) == 13
    bids = [E.parse_bid(record["bids"][s]) for s in "NE"]
    alone = E.score_hand(TWO, bids, [record["tricks_per_seat"][s] for s in "NE"], explain=False)
    assert [record["score"][s]["points"] for s in "NE"] == [r.points for r in alone]


def _engine_rows(result, rows) -> None:
    for row in rows:
        stock, kept = result.stock[row].tolist(), result.drawn[row].tolist()
        hands = [int(m) for m in result.deals[row]]
        _drawn(stock, kept, hands, int(result.dealer[row]))
        _tricks(hands, result.plays[row].tolist(), result.winners[row].tolist(), result.leaders[row].tolist())
        assert not str(outcome(TWO, result, row)).startswith("refused"), outcome(TWO, result, row)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["random", "sensible"]), st.integers(0, 1))
def test_every_array_hand_conserves_the_cards_and_has_one_winner_a_trick(seed, policy, dealer):
    result = BatchEngine(TWO).play(30, seed=seed, policy=policy, dealer=dealer)
    assert result.points.shape == (30, 2) and result.stock.shape == (30, 52) and result.drawn.shape == (30, 26)
    _engine_rows(result, range(30))


def test_the_compiled_engines_hands_conserve_the_cards():
    result = native_hands(TWO, 12, 5)       # (its numba text run as Python)
    _engine_rows(result, range(12))


def test_the_sensible_player_keeps_the_same_cards_on_every_engine():
    """The batch engine's sensible hands, drawn again from their stocks by the scalar player: the same choices,
    bids, tricks and scores."""
    result = BatchEngine(TWO).play(40, seed=11, policy="sensible", dealer=1)
    for row in range(40):
        record = E.play_hand(TWO, [], 1, SensiblePolicy(random.Random(0)), stock=result.stock[row].tolist())
        assert [int(k) for k in record["draw"]["kept"]] == result.drawn[row].tolist(), row
        assert [record["score"][s]["points"] for s in "NE"] == result.points[row].tolist(), row


def test_an_engine_whose_recorded_draw_is_not_its_hands_is_caught():
    result = BatchEngine(TWO).play(3, seed=2, policy="random")
    result.drawn[1] = 1 - result.drawn[1]
    assert str(outcome(TWO, result, 1)).startswith("refused") and "drawn hands" in str(outcome(TWO, result, 1))
    assert not str(outcome(TWO, result, 0)).startswith("refused")


def test_without_a_draw_the_engines_write_no_draw_code_and_record_none():
    standard = load_ruleset("standard")
    assert "= _choose_keep(" not in native_source(standard) and "stock[" not in native_source(standard)
    assert "= sensible_keep(" not in native_source(standard, "sensible")
    assert "= _choose_keep(" in native_source(TWO) and "= sensible_keep(" in native_source(TWO, "sensible")
    result = BatchEngine(standard).play(4, seed=1)
    assert result.stock.shape == (4, 0) and result.drawn.shape == (4, 0)
    assert "draw" not in E.play_hand(standard, E.deal_for("d", 0, standard), 0, RandomPolicy(random.Random(0)))


def test_a_drawn_hand_needs_its_stock():
    with pytest.raises(GameError) as caught:
        E.play_hand(TWO, E.deal_for("d", 0, TWO), 0, RandomPolicy(random.Random(0)))
    assert caught.value.field == "stock" and caught.value.rule == "deal.draw"
    with pytest.raises(GameError):
        E.play_hand(TWO, [], 0, RandomPolicy(random.Random(0)), stock=PACK[:-1] + PACK[:1])
    with pytest.raises(GameError) as caught:
        BatchEngine(TWO).play(1, deals=[[1, 2]])
    assert caught.value.field == "deals"


def test_the_sensible_player_keeps_trumps_and_top_cards_and_passes_the_rest():
    player, hand = SensiblePolicy(random.Random(0)), 0
    keeps = {name: player.keep(TWO, 0, C.parse_card(name), hand, 0) for name in ("2S", "AH", "QD", "JC", "2H")}
    assert keeps == {"2S": 1, "AH": 1, "QD": 1, "JC": 0, "2H": 0}


def _post(path: str, body: dict):
    from service.app import create_app
    response = create_app().test_client().post(path, json=body)
    return response.status_code, response.get_json()


@pytest.mark.parametrize("path, body, field", [
    ("/v1/score", {"bids": {"N": 4, "E": 5, "S": 3}, "tricks": {"N": 6, "E": 7}}, "bids.S"),
    ("/v1/score", {"bids": {"N": 4}, "tricks": {"N": 6, "E": 7}}, "bids"),
    ("/v1/score", {"bids": {"N": 4, "E": 5}, "tricks": {"N": 6, "E": 7, "W": 0}}, "tricks.W"),
    ("/v1/trick", {"leader": "N", "cards": ["AH", "2S", "3S"]}, "cards"),
    ("/v1/bid", {"seat": "S", "bid": 3, "dealer": "N", "bids": {"E": 4}}, "seat"),
    ("/v1/game", {"hands": [{"bids": {"N": 4, "E": 5, "W": 1}, "tricks": {"N": 6, "E": 7}}]}, "hands[0].bids.W"),
    ("/v1/claim", {"hands": {"N": ["AS"], "E": ["KS"], "W": ["QS"]}, "leader": "N",
                   "claim": {"side": "N", "tricks": 1}}, "hands.W"),
    ("/v1/claim", {"hands": {"N": ["AS"]}, "leader": "N", "claim": {"side": "N", "tricks": 1}}, "hands"),
    ("/v1/claim", {"hands": {"N": ["AS"], "E": ["KS"]}, "leader": "N", "claim": {"side": "NS", "tricks": 1}},
     "claim.side"),
])
def test_a_missing_or_extra_seat_is_a_422_naming_it(path, body, field):
    status, problem = _post(path, {"variant": "two-player", **body})
    assert status == 422 and problem["field"] == field, problem


def test_a_claim_at_two_seats_is_a_player_against_the_other():
    hands = {"N": ["AS", "2H", "3D"], "E": ["KS", "5H", "4D"]}
    status, out = _post("/v1/claim", {"variant": "two-player", "hands": hands, "leader": "N",
                                      "claim": {"side": "E", "tricks": 2}})
    assert status == 200 and out["holds"] is True and out["best"] == 2, out
    assert "partner" not in out["why"].lower()


def test_the_api_rules_two_seats():
    status, out = _post("/v1/score", {"variant": "two-player", "bids": {"N": "nil", "E": 5},
                                      "tricks": {"N": 0, "E": 13}})
    assert status == 200 and [out["teams"][s]["points"] for s in "NE"] == [100, 58]
    status, out = _post("/v1/trick", {"variant": "two-player", "leader": "E", "cards": ["AH", "2S"]})
    assert status == 200 and out["winner"] == "N"
    status, out = _post("/v1/legal", {"variant": "two-player", "hand": ["2H", "AS"], "trick": ["5H"], "number": 12})
    assert status == 200 and out["legal"] == ["2H"]
    status, out = _post("/v1/bid", {"variant": "two-player", "seat": "N", "bid": 13, "dealer": "N", "bids": {"E": 4}})
    assert status == 200 and out["allowed"]
    hand = {"bids": {"N": 4, "E": 5}, "tricks": {"N": 6, "E": 7}}
    status, out = _post("/v1/game", {"variant": "two-player", "hands": [hand, hand]})
    assert status == 200 and [out["sheet"][1][s]["score"] for s in "NE"] == [84, 104]
    status, out = _post("/v1/compare", {"variants": ["two-player", "cutthroat"], "kind": "score", "input": hand})
    assert status == 200 and out["rulings"]["two-player"]["teams"]["N"]["points"] == 42
    assert out["rulings"]["cutthroat"]["error"]["field"] == "input.bids"


def test_simulate_stats_are_per_player_on_every_engine():
    for engine in ("batch", "scalar"):
        result = CliRunner().invoke(main, ["simulate", "two-player", "--hands", "60", "--stats", "--engine", engine])
        assert result.exit_code == 0, result.output
        header = next(line for line in result.output.splitlines() if line.split() == ["N", "E"])
        assert header and "mean points per hand" in result.output and " S " not in header


def test_diff_records_the_drawn_hands(tmp_path):
    from rulespec.tools.diff import DiffConfig, diff
    scratch = tmp_path / "dealt-two.yaml"
    scratch.write_text("id: dealt-two\nsource: {doc: house, title: t}\nextends: two-player\nrules:\n"
                       "  deal.draw: false @ house §1\n")
    report = diff(DiffConfig(("two-player", str(scratch)), deals=3), jobs=1)
    assert report["record_errors"] == {} and report["pairs"][0]["transcript"]["n"] == 6


def test_the_score_answer_takes_the_hands_as_drawn():
    rng = random.Random(4)
    stock = E.stock_for("answer", 4, TWO)
    record = E.play_hand(TWO, [], 0, RandomPolicy(rng), stock=stock)
    status, out = _post("/v1/score", {"variant": "two-player", "dealer": "N", "bids": record["bids"],
                                      "deal": record["deal"], "play": [t["cards"] for t in record["tricks"]]})
    assert status == 200, out
    assert [out["teams"][s]["points"] for s in "NE"] == [record["score"][s]["points"] for s in "NE"]
    assert np.array_equal([out["tricks"][s] for s in "NE"], [record["tricks_per_seat"][s] for s in "NE"])


def _drawn_request() -> tuple[dict, dict]:
    record = E.play_hand(TWO, [], 0, SensiblePolicy(random.Random(7)), stock=E.stock_for("drawn", 7, TWO))
    return record, {"variant": "two-player", "dealer": record["dealer"], "bids": record["bids"],
                    "deal": record["draw"], "play": [t["cards"] for t in record["tricks"]]}


def test_the_score_answer_replays_the_draw_from_the_stock_and_the_choices():
    record, body = _drawn_request()
    status, out = _post("/v1/score", body)
    assert status == 200, out
    assert [out["teams"][s]["points"] for s in "NE"] == [record["score"][s]["points"] for s in "NE"]
    flipped = {**body, "deal": {**body["deal"], "kept": [not k for k in body["deal"]["kept"]]}}
    status, out = _post("/v1/score", flipped)      # other choices draw other hands: the recorded play is not held
    assert status == 422 and out["field"].startswith("play"), out


@pytest.mark.parametrize("change, field, rule", [
    (lambda d: d["stock"].__setitem__(3, "ZZ"), "deal.stock[3]", None),             # not a card
    (lambda d: d["stock"].__setitem__(3, d["stock"][0]), "deal.stock[3]", None),    # a card twice
    (lambda d: d["stock"].pop(), "deal.stock", "deal.draw"),
    (lambda d: d["kept"].__setitem__(5, 1), "deal.kept[5]", "deal.draw"),
    (lambda d: d["kept"].pop(), "deal.kept", "deal.draw"),
    (lambda d: d.pop("kept"), "deal.kept", None),
    (lambda d: d.update(N=["AS"]), "deal.N", "deal.draw"),
])
def test_a_bad_drawn_deal_is_a_422_naming_its_field_and_rule(change, field, rule):
    _, body = _drawn_request()
    deal = {"stock": list(body["deal"]["stock"]), "kept": list(body["deal"]["kept"])}
    change(deal)
    status, out = _post("/v1/score", {**body, "deal": deal})
    assert status == 422 and out["field"] == field and out.get("rule") == rule, out


def test_a_variant_that_deals_refuses_a_drawn_deal():
    _, body = _drawn_request()
    scratch = ruleset_from_text("id: dealt-two\nsource: {doc: house, title: t}\nextends: two-player\nrules:\n"
                                "  deal.draw: false @ house §1\n", "dealt-two.yaml")
    with pytest.raises(InputError) as caught:
        answer_score(scratch, body)
    assert caught.value.field == "deal.stock" and caught.value.rule == "deal.draw"


def test_diff_gives_the_draw_its_own_stage_with_an_example(tmp_path):
    from rulespec.app.scenarios import load_cases, run_case
    from rulespec.tools.diff import DiffConfig, diff
    scratch = tmp_path / "dealt-two.yaml"
    scratch.write_text("id: dealt-two\nsource: {doc: house, title: t}\nextends: two-player\nrules:\n"
                       "  deal.draw: false @ house §1\n")
    report = diff(DiffConfig(("two-player", str(scratch)), deals=3, attribute=3), jobs=1)
    pair = report["pairs"][0]
    stages = pair["transcript"]["stages"]
    assert stages["draw"]["count"] == 6 and all(stages[s]["count"] == 0 for s in stages if s != "draw")
    assert [r["rule"] for r in stages["draw"]["attribution"]] == ["deal.draw"], stages["draw"]
    example = next(e for e in pair["examples"] if e["rule"] == "deal.draw")
    assert example["stage"] == "draw" and example["kind"] == "score"
    assert example["outputs"]["dealt-two"] == {"error": {"field": "deal.stock", "rule": "deal.draw"}}
    case_file = tmp_path / "case.yaml"
    case_file.write_text(example["scenario_yaml"].replace("      dealt-two:", f"      {scratch}:"))
    assert all(run_case(case).passed for case in load_cases(case_file))


def test_the_game_answer_takes_each_hand_as_drawn():
    record, body = _drawn_request()
    hand = {k: body[k] for k in ("deal", "dealer", "bids", "play")}
    status, out = _post("/v1/game", {"variant": "two-player", "hands": [hand, hand]})
    assert status == 200 and [out["sheet"][1][s]["points"] for s in "NE"] == [record["score"][s]["points"]
                                                                               for s in "NE"], out
    short = {**hand, "deal": {**hand["deal"], "kept": hand["deal"]["kept"][:3]}}
    status, out = _post("/v1/game", {"variant": "two-player", "hands": [hand, short]})
    assert status == 422 and out["field"] == "hands[1].deal.kept", out
