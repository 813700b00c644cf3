"""``rulespec simulate --hands N --out FILE``: hand records written from the batch engine's arrays, in the
hand-record format of the scalar path, that replay as deals files to the scores they record, the same
for the same seed on every run and machine."""
from __future__ import annotations

import hashlib
import io
import json

import numpy as np
import pytest
from click.testing import CliRunner

from rulespec import game as E
from rulespec.app.simulation import batch_hands
from rulespec.cli import main
from rulespec.core import cards as C
from rulespec.fast.batch import BatchEngine
from rulespec.fast.hand_records import RecordWriter, numbers
from rulespec.model.ruleset import load_ruleset, ruleset_from_text
from rulespec.tools.diff.deals import read_deals

KIND_NAMES = {0: E.REGULAR, 1: E.NIL, 2: E.BLIND_NIL, 3: E.BLIND}
EXCHANGE = ruleset_from_text("id: any-blind-nil\nsource: {doc: house, title: exchange}\nextends: classic\n"
                             "rules:\n  blind_nil.allowed: true @ house §1\n")
SHORT = ruleset_from_text("id: short\nsource: {doc: house, title: short games}\nextends: standard\nrules:\n"
                          "  game.target: 60 @ house §1\n  game.mercy: low.score <= -150 @ house §1\n")
MADE_UP = {"exchange": EXCHANGE, "short": SHORT}


def reference(rs, r, i: int, seed: str, index: int) -> str:
    """Hand ``i`` of ``r`` as the record the scalar path's JSON writer would write, built key by key."""
    bids = [E.Bid(KIND_NAMES[int(r.bid_kind[i, s])], int(r.bid_n[i, s])) for s in range(4)]
    points, bags, added = r.points[i].tolist(), r.bags[i].tolist(), r.bags_added[i].tolist()
    status = E.game_status(rs, points, bags, 1)
    status.pop("explanation", None)
    status.pop("rule", None)
    record = {
        "variant": rs.id, "seed": seed, "players": "random", "hand": index, "game": index + 1,
        "dealer": C.SEATS[int(r.dealer[i])],
        "deal": {C.SEATS[s]: C.card_names(int(r.deals[i, s])) for s in range(4)},
        "bids": {C.SEATS[s]: str(bids[s]) for s in range(4)},
        "exchanges": [{"from": C.SEATS[s], "gave": C.card_names(int(r.gave[i, s])),
                       "received": C.card_names(int(r.received[i, s]))} for s in range(4) if r.gave[i, s]],
        "tricks": [{"leader": C.SEATS[int(r.leaders[i, t])], "cards": [C.NAMES[c] for c in r.plays[i, t].tolist()],
                    "winner": C.SEATS[int(r.winners[i, t])]} for t in range(r.plays.shape[1])],
        "tricks_per_seat": {C.SEATS[s]: int(r.tricks[i, s]) for s in range(4)},
        "score": {C.TEAMS[t]: {"points": points[t], "bags_added": added[t]} for t in range(2)},
        "totals": {C.TEAMS[t]: {"score": points[t], "bags": bags[t]} for t in range(2)},
        "game_status": status,
    }
    return json.dumps(record, separators=(",", ":"))


@pytest.mark.parametrize("variant", ["standard", "classic", "jokers-deuces", "pirates", "tournament", "exchange",
                                     "short"])
def test_records_are_byte_for_byte_what_json_dumps_writes(variant):
    rs = MADE_UP[variant] if variant in MADE_UP else load_ruleset(variant)
    result = BatchEngine(rs).play(400, seed=8, dealer=3)
    sink = io.BytesIO()
    RecordWriter(rs, 'odd "seed" é').write(result, 5000, sink)
    lines = sink.getvalue().decode("ascii").splitlines()
    assert len(lines) == 400
    for i, line in enumerate(lines):
        assert line == reference(rs, result, i, 'odd "seed" é', 5000 + i), (variant, i)
    if variant == "exchange":
        assert sum('"exchanges":[{' in line for line in lines) > 20
    if variant == "short":      # games that end after one hand: by the target, by mercy, tied
        statuses = {json.dumps(json.loads(line)["game_status"]) for line in lines}
        assert len(statuses) == 6 and any('"over": true' in s and "target" in s for s in statuses)


def test_numbers_as_json_writes_them():
    values = np.array([0, 7, -7, 10, -10, 99, 100, -130, 123456789, -(10 ** 15)])
    rows = numbers(values)
    assert [bytes(row[row != 0]).decode() for row in rows] == [str(v) for v in values.tolist()]


def test_the_records_keys_are_those_of_the_scalar_path():
    rs = load_ruleset("standard")
    scalar = next(E.simulate(rs, 1, seed=1))
    sink = io.BytesIO()
    RecordWriter(rs, "1").write(BatchEngine(rs).play(3, seed=1), 0, sink)
    record = json.loads(sink.getvalue().splitlines()[0])
    assert list(record) == list(scalar)
    for key in ("deal", "bids", "tricks_per_seat", "score", "totals", "game_status"):
        assert list(record[key]) == list(scalar[key]), key
    assert list(record["tricks"][0]) == list(scalar["tricks"][0])


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("variant", ["standard", "suicide"])
def test_out_replays_as_a_deals_file_to_the_recorded_scores(variant, tmp_path):
    out = tmp_path / "hands.jsonl"
    result = run("simulate", variant, "--hands", "150", "--seed", "3", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "150 hands, each from 0-0" in result.output
    rs = load_ruleset(variant)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["hand"] for r in records] == list(range(150)) and [r["game"] for r in records] == list(range(1, 151))
    for record, deal in zip(records, read_deals(out), strict=True):
        state = E.HandState(rs, list(deal.hands), deal.dealer)
        for seat in state.order[:]:
            state.bid(deal.bids[seat])
        for start in range(0, len(deal.play), 4):
            for card in deal.play[start:start + 4]:
                assert state.legal() >> card & 1
                state.play(card)
            state.finish_trick()
        assert [record["tricks_per_seat"][s] for s in C.SEATS[:4]] == state.won
        scored = state.score()
        assert [record["score"][t]["points"] for t in C.TEAMS] == [r.points for r in scored]
        assert [record["totals"][t]["bags"] for t in C.TEAMS] == [r.bags for r in scored]


def test_out_is_the_same_file_on_every_run_and_machine(tmp_path):
    # a fixed digest: a change to the seeding, the dealing, the batch engine's draws or the writer shows here
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (first, second):
        assert run("simulate", "standard", "--hands", "300", "--seed", "1", "--out", str(path)).exit_code == 0
    data = first.read_bytes()
    assert data == second.read_bytes()
    assert hashlib.sha256(data).hexdigest()[:16] == "5585b9b704df8e6f"     # (with the records' "players")
    assert run("simulate", "standard", "--hands", "300", "--seed", "2", "--out", str(second)).exit_code == 0
    assert second.read_bytes() != data


def test_out_holds_the_hands_the_statistics_count(tmp_path):
    """With or without --out, the same seed plays the same hands: the statistics agree, and the records
    hold the hands ``batch_hands`` plays."""
    out = tmp_path / "h.jsonl"
    stats = [run("simulate", "classic", "--hands", "9000", "--seed", "4", "--stats", "--json", *extra)
             for extra in ((), ("--out", str(out)))]
    reports = [json.loads(r.output) for r in stats]
    for report in reports:
        report.pop("seconds")
    assert reports[0] == reports[1]
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["hand"] for r in records] == list(range(9000))
    assert [r["dealer"] for r in records] == ["N"] * 8192 + ["E"] * 808      # chunk i is dealt by seat i mod 4
    chunks = list(batch_hands(load_ruleset("classic"), 9000, "4", policy="sensible"))     # (--stats's players)
    tricks = np.concatenate([c.tricks for c in chunks])
    points = np.concatenate([c.points for c in chunks])
    assert [[r["tricks_per_seat"][s] for s in C.SEATS[:4]] for r in records] == tricks.tolist()
    assert [[r["score"][t]["points"] for t in C.TEAMS] for r in records] == points.tolist()


def test_a_hand_without_a_legal_bid_is_a_clear_error(tmp_path):
    path = tmp_path / "no-bid.yaml"
    path.write_text("id: no-bid\nsource: {doc: house, title: dead end}\nextends: standard\nrules:\n"
                    "  bid.regular_min: 14 @ house §1\n  nil.allowed: false @ house §1\n")
    for extra in ((), ("--out", str(tmp_path / "h.jsonl"))):
        result = run("simulate", str(path), "--hands", "10", *extra)
        assert result.exit_code == 1 and "has no legal bid" in result.output
        assert "Traceback" not in result.output
