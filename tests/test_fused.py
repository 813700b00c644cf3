"""The generated whole-hand loop plays exactly the hands that HandState's steps play."""
from __future__ import annotations

import ast
import random
import textwrap
from dataclasses import replace

import pytest

from rulespec.core import cards as C
from rulespec import game as E
from rulespec.game import engine, fused
from rulespec.lang.compiler import make_env
from rulespec.errors import DeadEndError, GameError
from rulespec.game.hand import HandState
from rulespec.game.policies import RandomPolicy, SensiblePolicy, lowered
from rulespec.game.steps import KIND_CODE
from rulespec.model.ruleset import load_ruleset, ruleset_from_text
from rulespec.model.variants import bundled_ids
from rulespec.procedure import form as form_module
from rulespec.procedure.python import inline_rule, loop_source


def stepped_play_hand(rs, hands, dealer, policy, scores=(0, 0), bags=(0, 0), stock=None) -> dict:
    """``engine.play_hand`` with the card play stepped through ``HandState`` (one ``legal`` and one
    ``play`` per card, one ``finish_trick`` per trick: the rules called, not inlined)."""
    return E.play_hand(rs, hands, dealer, policy, scores, bags, stepped=True, stock=stock)


def _outcome(play, rs, deal, dealer, policy, scores, bags, stock=None):
    try:
        return play(rs, deal, dealer, policy, scores, bags, stock=stock)
    except DeadEndError as exc:
        return repr(exc)


CLASHING = """\
    id: clashing
    source: {doc: house, title: Play constraints that clash and dead-end; a comprehension}
    extends: standard
    rules:
      play.first_lead: hand & hearts @ house §1
      play.first_trick_trump: hand & trump.suit @ house §2
      play.first_trick_suit: (hand - trump.suit) | (hand - hand) @ house §3
      play.follow: hand & trick.led_suit @ house §4
      trump.breaks: >-
        card.suit == trump.suit and (not leading or all(c in hand where c.suit == trump.suit))
        @ house §5
"""


def _ruleset(variant: str):
    return ruleset_from_text(textwrap.dedent(CLASHING)) if variant == "clashing" else load_ruleset(variant)


def test_the_clashing_variant_has_conflicts_and_dead_ends():
    rs = _ruleset("clashing")
    hand = C.mask_of(C.parse_cards("AS KS 2C 3C"))             # no hearts: play.first_lead allows none
    legal = E.legal_cards(rs, hand, [], 1, False)
    assert [d["rule"] for d in legal.dead_ends] == ["play.first_lead"]
    assert [c["rules"] for c in legal.conflicts] == [["play.lead", "play.first_trick_trump"]]


@pytest.mark.parametrize("variant", [*bundled_ids(), "clashing"])
@pytest.mark.parametrize("policy", [RandomPolicy, SensiblePolicy])
def test_fused_play_gives_the_reference_records(variant, policy):
    rs = _ruleset(variant)
    for i in range(40):
        deal = E.deal_for("fused", i, rs)
        scores, bags = ((i * 53) % 400 - 150, (i * 31) % 300), (i % 10, (i * 7) % 10)
        stock = E.stock_for("fused", i, rs)        # (where the hands are drawn: deal.draw)
        ours = _outcome(E.play_hand, rs, deal, i % 4, policy(random.Random(i)), scores, bags, stock)
        ref = _outcome(stepped_play_hand, rs, deal, i % 4, policy(random.Random(i)), scores, bags, stock)
        assert ours == ref, (variant, i)


HOUSE = """\
    id: broken-winner
    source: {doc: house, title: A winner outside the trick}
    extends: standard
    rules:
      trick.winner: %s @ house §1
"""


@pytest.mark.parametrize("winner, named", [("none", "named no card"), ("AS", "named AS")])
def test_a_winner_outside_the_trick_is_a_game_error(winner, named):
    rs = ruleset_from_text(textwrap.dedent(HOUSE % winner))
    deal = E.deal_for(0, 0, rs)
    with pytest.raises(GameError, match="which is not in the trick") as ours:
        E.play_hand(rs, deal, 0, RandomPolicy(random.Random(1)))
    with pytest.raises(GameError) as ref:
        stepped_play_hand(rs, deal, 0, RandomPolicy(random.Random(1)))
    assert str(ours.value) == str(ref.value) and named in str(ours.value)


def test_generated_code_reaches_only_the_rules_helpers_and_tables():
    rs = load_ruleset("tournament")
    play = fused.play_cards(rs)
    tricks = play.__closure__[next(i for i, name in enumerate(play.__code__.co_freevars) if name == "tricks")]
    env = tricks.cell_contents.__globals__
    assert set(env["__builtins__"]) == {"range", "min", "max"}
    assert set(env) - set(make_env({})) <= {"play_tricks", "NONE", "_KIND_NAME", "_fail", "_cnt", "_int", "_RANK",
                                            "_NSUIT", "_SUIT", "_POW", "_SM", "_PLACE"}
    assert fused.play_cards(rs) is play                 # generated once per ruleset


@pytest.mark.parametrize("variant", ["standard", "cutthroat", "jokers-deuces"])
def test_the_random_card_written_in_is_the_random_policy_s(variant):
    """The loop with the random player's draw written in plays the cards ``RandomPolicy.play`` chooses when
    called by the plain loop, from the same generator, and draws one number a card."""
    rs = load_ruleset(variant)
    for index in range(20):
        deal = E.deal_for("inline", index, rs)
        hands = list(deal)
        draws = []
        rng = random.Random(index)

        def counted() -> float:
            draws.append(1)
            return rng.random()
        written = fused.play_cards_random(rs)(hands, index % rs.params["table.seats"], counted)
        called = fused.play_cards(rs)(list(deal), index % rs.params["table.seats"],
                                      fused.policy_card(rs, RandomPolicy(random.Random(index)).play))
        assert written == called and not any(hands)
        assert len(draws) == len(written[1])
    source = loop_source(rs, "play_tricks", card="random")
    # (one draw written in per place of the trick: the lead peeled, the other places unrolled)
    assert "_choose_card" not in source and source.count("_random()") == rs.params["table.seats"]


@pytest.mark.parametrize("variant", ["standard", "cutthroat", "six-handed", "pirates", "jokers-deuces"])
def test_the_sensible_card_written_in_is_the_lowered_player_s(variant):
    """The loop with the sensible player's card written into its module (its rules inlined) plays the cards
    the lowered player (``policies.lowered``, the steps' Python calling the compiled rules) chooses when the
    plain loop calls it, on the bids the sensible player made."""
    rs = load_ruleset(variant)
    seats = rs.params["table.seats"]
    for index in range(20):
        state = HandState(rs, E.deal_for("sensible", index, rs), index % seats)
        engine._bid_all(state, SensiblePolicy(random.Random(index)))     # (the bids as play_hand makes them)
        kind = [KIND_CODE[bid.kind] for bid in state.bids]
        num = [bid.n for bid in state.bids]
        hands = list(state.hands)
        written = fused.play_cards_sensible(rs)(hands, state.leader, None, kind, num)
        called = fused.play_cards(rs)(list(state.hands), state.leader, lowered(rs).card, kind, num)
        assert written == called and not any(hands)
    source = loop_source(rs, "play_tricks", card="sensible")
    assert "_choose_card" not in source and "def sensible_card(" in source


def test_an_unknown_card_player_is_refused():
    with pytest.raises(ValueError, match="unknown card player 'clever'"):
        loop_source(load_ruleset("standard"), "play_tricks", card="clever")


@pytest.mark.parametrize("expr, what", [("open(a0)", "name 'open'"), ("_SM.__class__", "attribute '__class__'")])
def test_inlining_rejects_a_source_that_reaches_anything_else(expr, what):
    rs = ruleset_from_text(textwrap.dedent(HOUSE % "highest(trick.cards)"))
    forged = replace(rs.rules["play.lead"], source=f"def rule(a0, a1, a2, a3, a4, a5, a6, a7):\n    return {expr}\n")
    rs.rules = {**rs.rules, "play.lead": forged}
    with pytest.raises(ValueError, match=f"unexpected {what}"):
        inline_rule(rs, "play.lead", "play", [f"v{i}" for i in range(8)])


def test_the_whole_hand_loop_leaves_the_hand_state_as_the_steps_do():
    """After the card play, the generated loop leaves ``HandState`` where the steps leave it (tricks,
    plays, winners, the last trick, the next leader and trick number, the hand over)."""
    from rulespec.game.engine import _play_out_fused, play_out
    rs = load_ruleset("standard")
    for i in range(5):
        deal = E.deal_for("state", i, rs)
        after = []
        for play in (play_out, _play_out_fused):
            state = E.HandState(rs, list(deal), i % 4)
            while state.bidder is not None:
                state.bid(next(b for b in state.legal_bids() if str(b) == "3"))
            play(state, RandomPolicy(random.Random(i)))
            after.append((state.won, state.plays, state.winners, state.last, state.leader, state.number, state.over))
        assert after[0] == after[1], i
        assert after[0][5] == rs.params["deal.hand_size"] + 1 and after[0][6]


@pytest.mark.parametrize("source, kept", [
    ("x = a\nx = 5\ny = x", "x = 5\ny = x"),                          # replaced unread: dropped
    ("x = a\nx += 1\nx = 5\ny = x", None),                            # read by an augmented assignment
    ("x = a\nif c:\n    y = x\nx = 5\nz = x", None),                  # read in a branch before it is replaced
    ("x = a\nx = x | b\ny = x", None),                                # read by the value that replaces it
    ("x = f(a)\nx = 3\ny = x", None),                                 # a call is not arithmetic: kept
    ("for i in r:\n    x = a\n    x = i\n    y = x", "for i in r:\n    x = i\n    y = x"),
])
def test_the_lowering_drops_only_copies_replaced_unread(source, kept):
    """A lowered function loses an arithmetic assignment only where the same block gives the name a new value
    before anything reads it (the copies that writing a function into its caller leaves)."""
    body = form_module._drop_overwritten(ast.parse(source).body)
    assert ast.unparse(ast.Module(body, [])) == (kept or source)


_BIT_LOOPS = """\
def f(m, n):
    total = 0
    for c in range(54):
        if m >> c & 1 == 1:
            total = total * 7 + c
    for d in range(54):
        if n >> d & 1 == 0:
            total = total * 3 + d
    return total
"""


def test_a_loop_over_the_card_ids_a_mask_holds_runs_over_its_bits():
    """The Python loop's rewrite (``loop_passes.set_bits``) visits the same ids in the same order, set or clear, and
    leaves a loop alone whose mask the body changes or whose id is read after it."""
    from rulespec.procedure.loop_passes import set_bits
    rewritten = ast.unparse(set_bits(ast.parse(_BIT_LOOPS)))
    assert "range(54)" not in rewritten and rewritten.count("while _bits") == 2
    env_a: dict = {}
    env_b: dict = {}
    exec(_BIT_LOOPS, env_a)        # noqa: S102 - the test's own text
    exec(rewritten, env_b)         # noqa: S102
    rng = random.Random(7)
    for _ in range(300):
        m, n = rng.getrandbits(54) & rng.getrandbits(54), rng.getrandbits(54) | rng.getrandbits(54)
        assert env_a["f"](m, n) == env_b["f"](m, n)
    changed = _BIT_LOOPS.replace("total = total * 7 + c", "m = m >> 1")
    read_after = _BIT_LOOPS.replace("    return total", "    return total + c")
    for text in (changed, read_after):       # the first loop kept as it is, the second rewritten
        assert ast.unparse(set_bits(ast.parse(text))).count("range(54)") == 1


def test_a_copy_back_into_the_caller_s_variable_iscoalesced():
    """``loop_passes.coalesced``: ``_t = E ... v = _t`` becomes ``v = E`` with ``_t`` read as ``v``, unless something
    in between reads ``v`` or something after reads ``_t``."""
    from rulespec.procedure.loop_passes import coalesced
    text = "def f(a, b):\n    _t = a + 1\n    if b:\n        _t = _t * 2\n    a = _t\n    return a\n"
    rewritten = ast.unparse(coalesced(ast.parse(text).body[0]))
    assert "_t" not in rewritten and "a = a + 1" in rewritten
    env_a: dict = {}
    env_b: dict = {}
    exec(text, env_a)           # noqa: S102 - the test's own text
    exec(rewritten, env_b)      # noqa: S102
    assert [env_a["f"](n, n % 2) for n in range(6)] == [env_b["f"](n, n % 2) for n in range(6)]
    for kept in (text.replace("_t = _t * 2", "_t = _t * a"), text.replace("return a", "return a + _t")):
        assert ast.unparse(coalesced(ast.parse(kept).body[0])) == ast.unparse(ast.parse(kept).body[0])


def test_a_loop_s_text_kept_on_disk_is_the_one_made_and_its_key_covers_every_rule():
    """``loop_source`` reads the text from disk (``core.derived``) under ``_loop_key``: the same text as made
    afresh, and another key where any rule differs (so a house rule never plays another's kept loop)."""
    from rulespec.procedure import python
    rs = load_ruleset("tournament")
    for card in ("random", "sensible"):
        assert loop_source(rs, "play_tricks", card=card) == python._loop_text(rs, "play_tricks", frozenset(), card)
    house = ruleset_from_text(textwrap.dedent(HOUSE % "highest(trick.cards)"))
    keys = {python._loop_key(r, "play_tricks", frozenset(), "random") for r in (load_ruleset("standard"), house, rs)}
    assert len(keys) == 3
    assert python._loop_key(house, "play_tricks", frozenset(), "random") != python._loop_key(
        house, "play_tricks", frozenset(), "sensible")
