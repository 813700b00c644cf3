"""The compiled scalar engine (rulespec.fast.compiled): every hand it plays replays through the reference
``HandState`` with every bid and card legal, the same trick winners and the same score; its deals and
choices are uniform; a rule it cannot express is refused by name; its source is only the generator's text."""
from __future__ import annotations

import ast
import difflib
import json
import random
import subprocess
import sys

import numpy as np
import pytest

from rulespec.core import cards as C
from rulespec.core.schema import BID_KINDS
from rulespec.errors import GameError, NativeRuleError
from rulespec.fast import native_hand
from rulespec.fast.compiled import CompiledEngine
from rulespec.game import BLIND, BLIND_NIL, NIL, REGULAR, Bid, HandState, deal_for, play_hand
from rulespec.game.policies import RandomPolicy
from rulespec.model.ruleset import load_ruleset, ruleset_from_text
from rulespec.model.variants import bundled_ids
from slot_probes import replay_draw, replay_kitty, replay_play

KINDS = {0: REGULAR, 1: NIL, 2: BLIND_NIL, 3: BLIND}
HANDS_PER_DEALER = 60      # 240 hands per variant, every dealer
# blind nil from 0-0 with classic's exchange of two cards (a house rule: no bundled variant exchanges)
EXCHANGE = ("id: any-blind-nil\nsource: {doc: house, title: exchange}\nextends: classic\n"
            "rules:\n  blind_nil.allowed: true @ house §1\n")
VARIANTS = [*bundled_ids(), "any-blind-nil"]


def _bid(kind: int, n: int) -> Bid:
    return Bid(KINDS[kind], n if KINDS[kind] in (REGULAR, BLIND) else 0)


@pytest.fixture(scope="module")
def engines() -> dict[str, CompiledEngine]:
    rulesets = [load_ruleset(variant) for variant in bundled_ids()] + [ruleset_from_text(EXCHANGE)]
    return {rs.id: CompiledEngine(rs) for rs in rulesets}


def _replay_bids(state: HandState, result, row: int) -> None:
    """Every bid (before a raise: ``opening``) in ``state.legal_bids()``, every raise among the raises allowed."""
    seats = state.table.seats
    final = [_bid(k, n) for k, n in zip(result.bid_kind[row].tolist()[:seats], result.bid_n[row].tolist())]
    opening = [_bid(k, n) for k, n in zip(result.bid_kind[row].tolist()[:seats], result.opening[row].tolist())]
    while state.bidder is not None:
        seat = state.bidder
        assert opening[seat] in state.legal_bids(), (row, seat, opening[seat])
        raises = state.bid(opening[seat])
        partner = state.table.partner(seat)
        if raises:
            assert partner is not None and final[partner] in raises, (row, partner)
            state.raise_bid(partner, final[partner])
        elif partner is not None and not state.rs.params["raise.by"]:   # (a raise round may still change it)
            assert final[partner] == (opening[partner] if state.bids[partner] else final[partner])
    for seat in state.bidding_order():              # the raise round (raise.by)
        if final[seat] != state.bids[seat]:
            assert final[seat] in state.round_raise_options(seat), (row, seat, "raise round")
            state.raise_bid(seat, final[seat])
    assert state.bids == final


def _replay_exchange(state: HandState, result, row: int) -> None:
    seats = state.exchange_seats()
    assert sorted(seats) == [s for s in range(4) if result.gave[row, s]]
    for seat in seats:
        count = state.exchange_count(seat)      # (blind_nil.exchange or, beside a number, nil.exchange)
        give, back = C.card_list(int(result.gave[row, seat])), C.card_list(int(result.received[row, seat]))
        partner = state.table.opposite(seat)
        assert len(give) == len(back) == count
        assert C.mask_of(give) & ~state.hands[seat] == 0 and C.mask_of(back) & ~state.hands[partner] == 0
        state.exchange(seat, give, back)


def _replay(rs, result, row: int) -> None:
    state = HandState(rs, replay_draw(rs, result, row), int(result.dealer[row]))
    replay_kitty(state, result, row)
    _replay_bids(state, result, row)
    _replay_exchange(state, result, row)
    replay_play(state, result, row)
    assert state.won == result.tricks[row].tolist()[:state.table.seats]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_compiled_hand_replays_through_the_reference_hand(engines, variant):
    engine = engines[variant]
    kinds = set()
    for dealer in range(engine.rs.params["table.seats"]):
        result = engine.play(HANDS_PER_DEALER, seed=f"replay-{variant}", dealer=dealer)
        for row in range(len(result)):
            _replay(engine.rs, result, row)
        kinds |= set(result.bid_kind[:, :engine.rs.params["table.seats"]].reshape(-1).tolist())
    assert REGULAR in {KINDS[k] for k in kinds}


def test_the_variants_exercise_every_step(engines):
    """Across the bundled variants the replayed hands hold nils, blind nils, blind team bids, raises
    and blind-nil exchanges (so the replay checks each of those steps)."""
    seen = set()
    for engine in engines.values():
        for dealer in range(engine.rs.params["table.seats"]):
            result = engine.play(HANDS_PER_DEALER, seed=f"replay-{engine.rs.id}", dealer=dealer)
            seen |= {KINDS[k] for k in result.bid_kind[:, :engine.rs.params["table.seats"]].reshape(-1).tolist()}
            seen |= {"raise"} if (result.opening != result.bid_n).any() else set()
            seen |= {"exchange"} if result.gave.any() else set()
    assert seen == {REGULAR, NIL, BLIND_NIL, BLIND, "raise", "exchange"}


def test_same_seed_same_hands_and_other_seed_other_hands(engines):
    engine = engines["standard"]
    first, again, other = (engine.play(50, seed=s, dealer=1) for s in ("a", "a", "b"))
    for name in ("deals", "plays", "bid_kind", "bid_n", "points"):
        assert np.array_equal(getattr(first, name), getattr(again, name)), name
    assert not np.array_equal(first.deals, other.deals)
    one = engine.play_one(seed="a", dealer=1)
    assert np.array_equal(one.plays[0], first.plays[0]) and np.array_equal(one.points[0], first.points[0])


@pytest.mark.parametrize("variant", ["standard", "jokers-deuces"])
def test_each_deal_is_a_permutation_of_the_pack_and_each_card_goes_to_each_seat_alike(engines, variant):
    engine = engines[variant]
    rs, count = engine.rs, 2000
    result = engine.play(count, seed="deal", dealer=0)
    size, pack = rs.params["deal.hand_size"], C.card_list(rs.deck)
    seen = np.zeros((4, len(pack)))
    for row in result.deals.tolist():
        assert [m.bit_count() for m in row] == [size] * 4
        assert row[0] | row[1] | row[2] | row[3] == (row[0] ^ row[1] ^ row[2] ^ row[3])   # disjoint
        assert (row[0] | row[1] | row[2] | row[3]) & ~rs.deck == 0
        for seat, mask in enumerate(row):
            seen[seat] += [(mask >> card) & 1 for card in pack]
    share = seen / count      # each card is dealt to each seat with probability size / len(pack)
    expected = size / len(pack)
    assert np.abs(share - expected).max() < 0.05, np.abs(share - expected).max()   # ~5 standard deviations


def test_bids_are_uniform_among_the_legal_ones(engines):
    """The first bidder's bid (from 0-0, standard: the same legal set every hand) is uniform over that set,
    and the leader's first card uniform over its legal cards."""
    engine = engines["standard"]
    rs, count = engine.rs, 3000
    result = engine.play(count, seed="bids", dealer=0)
    first = (0 + 1) % 4
    legal = HandState(rs, [int(m) for m in result.deals[0]], 0).legal_bids()
    chosen = [_bid(k, n) for k, n in zip(result.bid_kind[:, first].tolist(), result.opening[:, first].tolist())]
    counts = np.array([chosen.count(bid) for bid in legal])
    assert counts.sum() == count and counts.min() > 0
    assert np.abs(counts / count - 1 / len(legal)).max() < 0.03      # expected 1/15 each; sd ~0.5%
    lowest = 0
    expect = 0.0
    for row in range(count):
        state = HandState(rs, [int(m) for m in result.deals[row]], 0)
        allowed = state.legal()          # the first lead (the bids do not change it)
        expect += 1 / allowed.bit_count()
        lowest += result.plays[row, 0, 0] == (allowed & -allowed).bit_length() - 1
    assert abs(lowest - expect) / count < 0.03


@pytest.mark.parametrize(("rules", "rule", "why"), [
    ("params:\n  huge.factor: 999999 * 999999 @ house §1\nrules:\n  scoring.made: team.contract * huge.factor"
     " @ house §1\n", "scoring.made", "the number 999998000001 is too large for 64-bit native arithmetic"),
    ("rules:\n  nil.allowed: renege.mode == renege.mode @ house §1\n", "nil.allowed",
     "the text value 'none' has no native equivalent"),
])
def test_a_rule_the_native_code_cannot_express_is_refused_by_name(rules, rule, why):
    rs = ruleset_from_text("id: refused\nsource: {doc: house, title: t}\nextends: standard\n" + rules)
    with pytest.raises(NativeRuleError) as exc:
        CompiledEngine(rs)
    assert str(exc.value) == f"variant 'refused' cannot run on the compiled engine: rule {rule}: {why}"
    assert (exc.value.variant, exc.value.rule) == ("refused", rule) and isinstance(exc.value, ValueError)


def test_a_rule_s_expression_reaches_the_source_only_through_the_compiled_rule():
    """Another expression for one rule changes the source there and nowhere else."""
    base = native_hand.source(load_ruleset("standard")).replace("variant standard", "variant seventeen")
    rs = ruleset_from_text("id: seventeen\nsource: {doc: house, title: t}\nextends: standard\nrules:\n"
                           "  scoring.made: team.contract * 17 - count(c in spades where c.rank == 14) @ house §1\n")
    other = native_hand.source(rs)
    assert "_each0(" not in base and other.count("17 * team_contract") == 0
    diff = list(difflib.ndiff(base.splitlines(), other.splitlines()))
    removed = [line[2:] for line in diff if line.startswith("- ")]
    added = [line[2:] for line in diff if line.startswith("+ ")]
    assert removed and all("10 * team_contract" in line for line in removed)
    changed = [line for line in added if "team_contract" in line]
    assert [line.replace("team_contract * 17 - _each0()", "10 * team_contract", 1) for line in changed] == removed
    helper = "def _each0():\n    left = _SM[3]\n    found = 0\n    while left:\n        v0 = trailing_zeros(left)\n"
    rest = "\n".join(line for line in added if line not in changed)
    assert helper in rest and "if _RANK[v0] == 14:" in rest and "team_contract" not in rest


_IMPORTS = {"numba", "numpy", "numba.cpython.unsafe.numbers", "rulespec.errors"}


def _strings(text: str) -> set[str]:
    return {node.value for node in ast.walk(ast.parse(text)) if isinstance(node, ast.Constant)
            and isinstance(node.value, str)}


@pytest.mark.parametrize("policy", native_hand.POLICIES)
@pytest.mark.parametrize("variant", bundled_ids())
def test_the_generated_source_is_the_generator_s_text(variant, policy):
    """Imports only numba, numpy and rulespec.errors; calls only its own functions, numba's generator and a
    few builtins; strings only its own messages."""
    text = native_hand.source(load_ruleset(variant), policy)
    tree = ast.parse(text)
    messages = {m.replace("{variant}", variant).replace("{policy}", policy)
                for m in set().union(*map(_strings, native_hand.TEMPLATES))}
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert imported <= _IMPORTS
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    defined |= {target.id for node in tree.body if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name)
                and node.value.id in defined for target in node.targets}       # a helper under a second name
    allowed_calls = defined | {"range", "len", "int", "max", "min", "trailing_zeros", "GameError", "DeadEndError",
                               "RulespecError"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else ast.unparse(func)
            assert name in allowed_calls or name.startswith(("np.", "numba.", "plays.", "trick.", "winners.",
                                                             "PACK.")), name
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            assert node.value in messages, node.value
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert all(any(ast.unparse(d).startswith("numba.njit(cache=True") for d in f.decorator_list) for f in functions)
    assert {"play", "whole_hand"} <= defined and not set(BID_KINDS) & messages


def test_the_cli_and_the_api_start_without_numba():
    """numba is imported only when a compiled engine is made (importing it costs a quarter of a second)."""
    code = ("import sys\nfrom click.testing import CliRunner\nimport rulespec.cli\nimport rulespec.fast.compiled\n"
            "from service.app import create_app\ncreate_app()\n"
            "assert CliRunner().invoke(rulespec.cli.main, ['--help']).exit_code == 0\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_the_cli_simulates_on_the_compiled_engine(tmp_path):
    from click.testing import CliRunner

    from rulespec.cli import main
    out = tmp_path / "hands.jsonl"
    runner = CliRunner()
    first = runner.invoke(main, ["simulate", "standard", "--hands", "300", "--engine", "compiled", "--seed", "s",
                                 "--out", str(out), "--stats", "--json"])
    assert first.exit_code == 0, first.output
    records = out.read_text().splitlines()
    again = runner.invoke(main, ["simulate", "standard", "--hands", "300", "--engine", "compiled", "--seed", "s",
                                 "--stats", "--json"])
    assert len(records) == 300 and json.loads(first.output)["teams"] == json.loads(again.output)["teams"]
    assert json.loads(records[0])["variant"] == "standard"
    refused = runner.invoke(main, ["simulate", "standard", "--games", "1", "--engine", "compiled"])
    assert refused.exit_code != 0 and "--engine goes with --hands" in refused.output
    house = tmp_path / "refused.yaml"
    house.write_text("id: refused\ntitle: t\nsource: {doc: house, title: t}\nextends: standard\n"
                     "rules:\n  nil.allowed: renege.mode == renege.mode @ house §1\n", encoding="utf-8")
    refused = runner.invoke(main, ["simulate", str(house), "--hands", "10", "--engine", "compiled"])
    assert refused.exit_code == 2 and "rule nil.allowed: the text value 'none'" in refused.output


def test_a_trick_winner_outside_the_trick_is_the_game_error_the_reference_raises():
    rs = ruleset_from_text("id: nobody-wins\nsource: {doc: house, title: t}\nextends: standard\n"
                           "rules:\n  trick.winner: none @ house §1\n")
    with pytest.raises(GameError) as reference:
        play_hand(rs, deal_for(0, 0, rs), 0, RandomPolicy(random.Random(0)), record=False)
    with pytest.raises(GameError, match="rule trick.winner named a card that is not in the trick") as exc:
        CompiledEngine(rs).play(3, seed=0)
    assert (exc.value.rule, exc.value.cite, exc.value.field) == (
        reference.value.rule, reference.value.cite, reference.value.field) == ("trick.winner", "house §1", "cards")
