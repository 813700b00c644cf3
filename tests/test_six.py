"""Tables of five and six seats (issue 30, 005 §Five-handed and §Six-handed): the tables' seats and sides, and
every engine's hands held to an oracle written here, independently of the engines -- each card dealt once and
played once, six (or five) to a trick, the trick to the seat whose card a plain reading of the rules makes
highest, and each side's points from its members' bids and tricks (partners opposite at six: a pairing of
``s`` with ``s + 2`` scores other points, so an engine that ignores the six-seat partner fails here)."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec import game as E
from rulespec.core import cards as C
from rulespec.fast.batch import BatchEngine
from rulespec.fast.compiled import CompiledEngine
from rulespec.game.policies import RandomPolicy, SensiblePolicy
from rulespec.model.ruleset import load_ruleset
from rulespec.procedure.lang import K_NIL, K_REGULAR
from slot_probes import native_hands, outcome

SIX, FIVE = load_ruleset("six-handed"), load_ruleset("five-handed")
VARIANTS = {"six-handed": SIX, "five-handed": FIVE}


def test_the_tables_of_five_and_six_seats():
    six, five = C.table_of(SIX.params), C.table_of(FIVE.params)
    assert (six.seats, six.partners, six.sides, six.side_names) == (6, True, 3, ("NW", "EX", "SY"))
    assert [six.partner(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    assert [six.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2] and six.members(2) == (2, 5)
    assert six.rival((10, 40, 40), 0) == 1 and six.rival((50, 10, 20), 1) == 0      # the leader of the others
    assert (five.seats, five.partners, five.side_names, five.partner(3)) == (5, False, tuple("NESWX"), None)
    assert SIX.deck.bit_count() == 52 and SIX.params["deal.hand_size"] == 8        # four cards left undealt
    twos = C.mask_of([C.make_card(suit, 2) for suit in range(4)])
    assert FIVE.deck == (C.ALL_CARDS & ~twos) and FIVE.params["deal.hand_size"] == 10
    assert [C.parse_seat(s, 6) for s in ("X", " y ", "w")] == [4, 5, 3]
    with pytest.raises(C.CardError, match="N, E, S, W or X"):
        C.parse_seat("Y", 5)


# --------------------------------------------------------------------------- the oracle
def _suit(card: int) -> int:
    """Both variants' suits: the jokers are spades (five-handed), every other card its printed suit."""
    return C.SPADES if card >= C.LITTLE_JOKER else C.natural_suit(card)


def _winner(cards: list[int], leader: int, seats: int) -> int:
    """The seat of the highest spade, else of the highest card of the suit led (jokers above the ace)."""
    trumps = [c for c in cards if _suit(c) == C.SPADES]
    pool = trumps or [c for c in cards if _suit(c) == _suit(cards[0])]
    return (leader + cards.index(max(pool, key=C.natural_rank))) % seats


def _points(table: C.Table, kind: list[int], num: list[int], won: list[int]) -> list[int | None]:
    """Each side's points from 0-0 as 001 scores a partnership (alone: a player): its numbers added are the
    contract, ten a trick when the side's tricks reach it (one more a trick over), ten a trick lost when not;
    a nil 100 won or lost (alone, a failed nil's tricks are its bags).  ``None`` where both partners bid nil."""
    out: list[int | None] = []
    for side in range(table.sides):
        members = table.members(side)
        contract = sum(num[s] for s in members if kind[s] == K_REGULAR)
        taken = sum(won[s] for s in members)
        nils = [s for s in members if kind[s] == K_NIL]
        if len(nils) == len(members) and table.partners:
            out.append(None)
            continue
        points = (10 * contract + taken - contract if taken >= contract else -10 * contract) if contract else taken
        out.append(points + sum(100 if won[s] == 0 else -100 for s in nils))
    return out


def _check(rs, deals, plays, leaders, winners, kind, num, won, points) -> None:
    """One hand of any engine, as plain lists by seat and by trick, held to the oracle."""
    table, size = C.table_of(rs.params), rs.params["deal.hand_size"]
    seats = table.seats
    assert [d.bit_count() for d in deals] == [size] * seats
    assert all(d & ~rs.deck == 0 for d in deals)
    assert sum(deals).bit_count() == seats * size and (sum(deals) == _union(deals))      # no card twice
    held, count = list(deals), [0] * seats
    for number, (cards, leader, winner) in enumerate(zip(plays, leaders, winners)):
        cards = list(cards[:seats])
        for k, card in enumerate(cards):
            seat = (leader + k) % seats
            assert held[seat] >> card & 1, (number, seat, C.card_name(card))
            held[seat] &= ~(1 << card)
        assert winner == _winner(cards, leader, seats), (number, [C.card_name(c) for c in cards], leader)
        if number + 1 < size:
            assert leaders[number + 1] == winner
        count[winner] += 1
    assert held == [0] * seats and count == list(won[:seats]) and sum(count) == size
    expected = _points(table, list(kind), list(num), list(won))
    assert [p if e is not None else None for p, e in zip(points, expected)] == expected


def _union(masks) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def _check_rows(rs, result, rows) -> None:
    for row in rows:
        _check(rs, [int(d) for d in result.deals[row]], result.plays[row].tolist(), result.leaders[row].tolist(),
               result.winners[row].tolist(), result.bid_kind[row].tolist(), result.bid_n[row].tolist(),
               result.tricks[row].tolist(), result.points[row].tolist())
        assert not str(outcome(rs, result, row)).startswith("refused"), outcome(rs, result, row)


# --------------------------------------------------------------------------- every engine
@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), st.integers(0, 10_000), st.integers(0, 5),
       st.sampled_from(["random", "sensible"]), st.booleans())
def test_every_scalar_hand_conserves_the_cards_and_scores_each_side(name, seed, dealer, player, stepped):
    rs = VARIANTS[name]
    table = C.table_of(rs.params)
    dealer %= table.seats
    policy = (SensiblePolicy if player == "sensible" else RandomPolicy)(random.Random(seed))
    record = E.play_hand(rs, E.deal_for("six", seed, rs), dealer, policy, stepped=stepped)
    names = table.seat_names
    deals = [C.mask_of(C.parse_cards(record["deal"][s])) for s in names]
    tricks = record["tricks"]
    assert all(len(t["cards"]) == table.seats for t in tricks) and tricks[0]["leader"] == names[(dealer + 1)
                                                                                                  % table.seats]
    bids = [E.parse_bid(record["bids"][s]) for s in names]
    assert list(record["score"]) == list(table.side_names)
    _check(rs, deals, [[C.parse_card(c) for c in t["cards"]] for t in tricks],
           [names.index(t["leader"]) for t in tricks], [names.index(t["winner"]) for t in tricks],
           [K_NIL if b.kind == "nil" else K_REGULAR for b in bids], [b.n for b in bids],
           [record["tricks_per_seat"][s] for s in names], [record["score"][s]["points"] for s in table.side_names])


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), st.integers(0, 10_000), st.sampled_from(["random", "sensible"]),
       st.integers(0, 5))
def test_every_array_hand_conserves_the_cards_and_has_one_winner_a_trick(name, seed, policy, dealer):
    rs = VARIANTS[name]
    table = C.table_of(rs.params)
    result = BatchEngine(rs).play(25, seed=seed, policy=policy, dealer=dealer % table.seats)
    assert result.points.shape == (25, table.sides) and result.plays.shape[2] == table.seats
    _check_rows(rs, result, range(25))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_compiled_engines_code_plays_every_hand_by_the_oracle(name):
    rs = VARIANTS[name]
    _check_rows(rs, native_hands(rs, 15, 3), range(15))        # (its numba text run as Python)


def test_the_compiled_engine_plays_six_handed_by_the_oracle():
    result = CompiledEngine(SIX, "sensible").play(40, seed=5, dealer=2)
    _check_rows(SIX, result, range(40))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_sensible_player_plays_alike_on_every_engine(name):
    """The batch engine's sensible hands, played again from their deals by the scalar player: the same bids,
    tricks and scores (each engine's player is lowered from the one form)."""
    rs = VARIANTS[name]
    table = C.table_of(rs.params)
    result = BatchEngine(rs).play(20, seed=7, policy="sensible", dealer=1)
    for row in range(20):
        deal = [int(d) for d in result.deals[row]]
        record = E.play_hand(rs, deal, 1, SensiblePolicy(random.Random(0)))
        assert [record["tricks_per_seat"][s] for s in table.seat_names] == result.tricks[row, :table.seats].tolist()
        assert [record["score"][s]["points"] for s in table.side_names] == result.points[row].tolist(), row



# --------------------------------------------------------------------------- the double-dummy search
def test_the_solver_answers_per_partnership_at_six_as_minimax_does():
    """/v1/solve at six: each partnership's count is its own best against the two others (partners opposite);
    a claim by NW, and N's nil with W helping against the four others."""
    from rulespec.app.disputes import answer
    from rulespec.solve.search import Goal
    from solve_helpers import at_position, hands_body, minimax, random_position
    table, rng = C.table_of(SIX.params), random.Random(6)
    for _ in range(4):
        pos = random_position(SIX, rng, rng.randint(1, 2))
        got = answer("solve", hands_body("six-handed", pos))
        for side, name in enumerate(table.side_names):
            seats = sum(1 << s for s in table.members(side))
            assert got["tricks"][name] == minimax(at_position(SIX, pos), Goal(seats, seats)), (name, pos)
        best = got["tricks"]["NW"]
        claim = answer("claim", {**hands_body("six-handed", pos), "claim": {"side": "NW", "tricks": best}})
        assert claim["holds"] and claim["best"] == best
        nil = answer("nil", {**hands_body("six-handed", pos), "nil": "N"})
        defence = 0b110110                                  # E, S, X and Y: everyone but N and W
        assert nil["forced_tricks"] == minimax(at_position(SIX, pos), Goal(defence, 1))


def test_the_solve_answers_at_six_match_the_documented_schemas():
    import jsonschema_rs
    from service.app import create_app
    client = create_app().test_client()
    spec = client.get("/openapi.json").get_json()
    body = {"variant": "six-handed", "leader": "X", "trick": ["2C"],
            "hands": {"N": ["AS", "3C"], "E": ["KS", "4C"], "S": ["2H", "5C"], "W": ["3H", "6C"], "X": ["4H"],
                      "Y": ["5H", "7C"]}}
    for kind, extra in (("solve", {}), ("claim", {"claim": {"side": "SY", "tricks": 1}}), ("nil", {"nil": "Y"})):
        request = {**body, **extra}
        schema = {"components": spec["components"]}
        jsonschema_rs.Draft202012Validator({**schema, "$ref": f"#/components/schemas/{kind.title()}Request"}
                                           ).validate(request)
        resp = client.post(f"/v1/{kind}", json=request)
        assert resp.status_code == 200, resp.get_data(as_text=True)
        jsonschema_rs.Draft202012Validator({**schema, "$ref": f"#/components/schemas/{kind.title()}Answer"}
                                           ).validate(resp.get_json())
    assert client.post("/v1/solve", json=body).get_json()["tricks"] == {"NW": 1, "EX": 0, "SY": 1}
    refused = client.post("/v1/solve", json={**body, "leader": "Z"})
    assert refused.status_code == 422 and refused.get_json()["field"] == "leader"


# --------------------------------------------------------------------------- conformance
def test_conform_plays_six_seats_in_partnerships_and_five_alone():
    """tests/fake_engine's engines, written apart from the model: at six seats each side scored with the seat
    opposite conforms, and one pairing each seat with the seat two on (the four-seat partner) is caught."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from rulespec.tools.conform import ConformConfig, conform

    def run(engine: str, variant: str) -> dict:
        return conform(ConformConfig(f"fake_engine:{engine}", variant, deals=8, games=1,
                                     policies=("random", "sensible")), jobs=1)
    six = run("SixPartners", "six-handed")
    assert six["conforms"] and not six["errors"], six["differing"]
    assert six["config"]["table"] == {"seats": 6, "partners": True, "sides": ["NW", "EX", "SY"]}
    assert six["sections"]["deals"]["stages"]["trick"]["states"] == 16 * 8
    five = run("Alone", "five-handed")
    assert five["conforms"] and not five["errors"], five["differing"]
    assert five["config"]["table"]["sides"] == list("NESWX")
    across = run("SixAcross", "six-handed")
    assert not across["conforms"] and "score" in across["differing"]


# --------------------------------------------------------------------------- diff, verify, the sampled player
def test_diff_between_variants_of_six_seats_and_a_deals_file_refused(tmp_path):
    import json
    from click.testing import CliRunner
    from rulespec.cli import main
    house = tmp_path / "six-nil50.yaml"
    house.write_text("id: six-nil50\nsource: {doc: house, title: t}\nextends: six-handed\nrules:\n"
                     "  nil.made: 50 @ house §1\n  nil.failed: -50 @ house §1\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["diff", "six-handed", str(house), "--deals", "40", "--games", "1", "-j", "1",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "nil.made" in text and "before: {NW: {score: 0, bags: 0}, EX:" in text, text[:2000]
    assert report["pairs"], report.keys()
    deals = tmp_path / "deals.jsonl"
    deals.write_text('{"deal": "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"}\n',
                     encoding="utf-8")
    refused = CliRunner().invoke(main, ["diff", "six-handed", str(house), "--deals-file", str(deals), "-j", "1",
                                        "--out", str(out)])
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert "a deals file holds four hands" in refused.output and "seats 6" in refused.output


def test_verify_explores_six_and_five_seats():
    from rulespec.tools.verify.run import verify
    from rulespec.tools.verify.states import Budget
    for rs in (SIX, FIVE):
        rec = verify(rs, Budget(hands=30, examples=10, endgame_tricks=1, endgame_roots=1, bidding_states=2000))
        assert rec["dead_ends"] == [] and rec["conflicts"] == [], rs.id
        states = [point["matters"]["state"] for point in rec["open_points"]
                  if "scores_before" in (point.get("matters") or {}).get("state", {})]
        assert states and all(list(s["scores_before"]) == list(C.table_of(rs.params).side_names) for s in states)
        assert rec["nontermination"]["witnesses"] == [] and any("endless games" in n for n in rec["notes"])


def test_the_sampled_player_plays_a_six_handed_hand_by_the_oracle():
    from rulespec.solve.sampled import SampledPolicy
    rec = E.play_hand(SIX, E.deal_for("sampled", 1, SIX), 0, SampledPolicy(random.Random(1), samples=2, nodes=5000))
    table = C.table_of(SIX.params)
    names = table.seat_names
    bids = [E.parse_bid(rec["bids"][s]) for s in names]
    _check(SIX, [C.mask_of(C.parse_cards(rec["deal"][s])) for s in names],
           [[C.parse_card(c) for c in t["cards"]] for t in rec["tricks"]],
           [names.index(t["leader"]) for t in rec["tricks"]], [names.index(t["winner"]) for t in rec["tricks"]],
           [K_NIL if b.kind == "nil" else K_REGULAR for b in bids], [b.n for b in bids],
           [rec["tricks_per_seat"][s] for s in names], [rec["score"][s]["points"] for s in table.side_names])


# --------------------------------------------------------------------------- the API
def test_the_api_rules_six_and_five_seats():
    from service.app import create_app
    client = create_app().test_client()
    listed = {v["id"]: v for v in client.get("/v1/variants").get_json()["variants"]}
    assert listed["six-handed"]["table"] == {"seats": 6, "sides": ["NW", "EX", "SY"]}
    assert listed["five-handed"]["table"] == {"seats": 5, "sides": list("NESWX")}
    bids = {"N": 2, "E": 1, "S": 1, "W": 2, "X": 1, "Y": 1}
    tricks = {"N": 2, "E": 1, "S": 0, "W": 1, "X": 1, "Y": 3}
    score = client.post("/v1/score", json={"variant": "six-handed", "bids": bids, "tricks": tricks})
    assert score.status_code == 200 and list(score.get_json()["teams"]) == ["NW", "EX", "SY"]
    assert [score.get_json()["teams"][t]["points"] for t in ("NW", "EX", "SY")] == [-40, 20, 21]
    trick = client.post("/v1/trick", json={"variant": "six-handed", "leader": "Y", "cards": ["2D", "AD", "KD", "QD",
                                                                                           "JD", "10D"]})
    assert trick.get_json()["winner"] == "N" and list(trick.get_json()["played_by"]) == list("YNESWX")
    bid = client.post("/v1/bid", json={"variant": "six-handed", "seat": "X", "bid": 6, "dealer": "N",
                                       "bids": {"E": 3}})
    assert bid.get_json()["allowed"] is False           # E's 3 and X's 6 pass the partnership's eight
    legal = client.post("/v1/legal", json={"variant": "five-handed", "hand": ["BJ", "9H", "KC"], "trick": ["5H"],
                                           "number": 8})
    assert legal.get_json()["legal"] == ["9H"]
    game = client.post("/v1/game", json={"variant": "six-handed", "hands": [{"bids": bids, "tricks": tricks}] * 2})
    assert [row["SY"]["score"] for row in game.get_json()["sheet"]] == [21, 42]
    compared = client.post("/v1/compare", json={"variants": ["six-handed", "standard"],
                                                "input": {"bids": bids, "tricks": tricks}})
    rulings = compared.get_json()["rulings"]
    assert rulings["six-handed"]["teams"]["EX"]["points"] == 20 and "error" in rulings["standard"]
    for body, field in (({"variant": "six-handed", "bids": {**bids, "Y": None}, "tricks": tricks}, "bids"),
                        ({"variant": "five-handed", "bids": {**bids}, "tricks": tricks}, "bids.Y")):
        refused = client.post("/v1/score", json={k: v for k, v in body.items() if v is not None})
        assert refused.status_code == 422 and refused.get_json()["field"].startswith(field), refused.get_json()
