"""The batch replay of the differential tester agrees with the scalar replay, and tallies the same report."""
import textwrap
from dataclasses import replace

import numpy as np
import pytest

import rulespec.tools.diff.deal_runs as runner
from rulespec.core import cards as C
from rulespec.tools.diff.batch_replay import Replays, replayers_for
from rulespec.tools.diff.deals import seeded_deal
from rulespec.tools.diff.replay import STAGES, policy_for, record, replay
from rulespec.errors import RulespecError
from rulespec.model.ruleset import load_ruleset, ruleset_from_text
from rulespec.model.variants import bundled_ids


def _transcripts(rss, deals: int, seed: str) -> list:
    out = []
    for index in range(deals):
        for policy in ("random", "sensible"):
            for rs in rss:
                try:
                    out.append(record(rs, seeded_deal(seed, index, rs), policy_for(policy, seed, str(index))))
                except RulespecError:
                    pass
    return out


def _assert_same(rss, ts) -> Replays:
    reps = Replays(rss, replayers_for(rss), ts)
    for k, t in enumerate(ts):
        for w, rs in enumerate(rss):
            ref, got = replay(rs, t), reps.outcome(k, w)
            assert got.sig == ref.sig, (rs.id, k)
            assert got.rules == ref.rules, (rs.id, k)
            for stage in got.rules:                  # built directly, without replaying the hand
                assert got.note(stage) == ref.notes[stage], (rs.id, k, stage)
            assert got.full().notes == ref.notes and got.situations == ref.situations, (rs.id, k)
    return reps


@pytest.fixture(scope="module")
def every_variant():
    # (the batch replay is the four-seat partnership game's; a diff compares variants of one table only)
    rss = [rs for rs in map(load_ruleset, bundled_ids()) if C.table_of(rs.params) is C.FOUR]
    return rss, _transcripts(rss, 6, "batch-replay")


def test_every_bundled_variant_replays_every_transcript_as_the_scalar_replay_does(every_variant):
    rss, ts = every_variant
    reps = _assert_same(rss, ts)
    # the vector path did the work; the rows it leaves to the scalar replay (compared above all the same) are
    # tricks whose winner the variant's trick.winner cannot name (transcripts dealt from the other pack)
    other_pack = sum(rs.deck != rss[0].deck for rs in rss)         # (the joker packs)
    # (jokers-deuces: 58% of these transcripts, played by the sensible player, stay clear of such tricks)
    assert all(e.mean() > 0.55 for e in reps.exact)
    assert sum(e.mean() > 0.95 for e in reps.exact) >= len(rss) - other_pack
    assert any(o.sig["legal"] is not None for o in (reps.outcome(k, 0) for k in range(len(ts))))


def test_differences_on_the_arrays_match_the_outcomes(every_variant):
    rss, ts = every_variant
    reps = Replays(rss, replayers_for(rss), ts)
    rows = np.arange(len(ts))
    for i, j in ((0, 1), (1, 2), (0, len(rss) - 1)):
        for stage in STAGES:
            found = reps.differs(stage, i, j, rows)
            if found is None:        # a row the vector path did not take: the caller compares outcomes
                continue
            expected = [reps.outcome(k, i).sig[stage] != reps.outcome(k, j).sig[stage] for k in rows]
            assert found.tolist() == expected, (stage, rss[i].id, rss[j].id)


def test_scores_bags_and_game_end_start_from_the_scores_before_the_hand():
    rss = [load_ruleset(ref) for ref in ("tournament", "standard", "classic", "house")]
    ts = [replace(t, before=((480 - 30 * n, 20 * n - 150), (9 - n % 10, n % 7)), hands_played=1 + n % 9)
          for n, t in enumerate(_transcripts(rss, 5, "before"))]
    reps = _assert_same(rss, ts)
    assert any(reps.outcome(k, 0).sig["game"][0] for k in range(len(ts)))      # some games end


BROKEN = """\
    id: broken-winner
    source: {doc: house, title: A winner outside the trick}
    extends: standard
    rules:
      trick.winner: AS @ house §1
"""


def test_rows_the_vector_path_cannot_take_go_to_the_scalar_replay():
    standard = load_ruleset("standard")
    rss = [standard, ruleset_from_text(textwrap.dedent(BROKEN))]
    ts = _transcripts([standard], 3, "fallback")
    ts.append(replace(ts[0], plays=ts[0].plays[:48], won=None, play_sig=None))    # a hand cut short
    reps = _assert_same(rss, ts)
    assert not reps.exact[0][-1] and reps.exact[0][:-1].all()
    assert not reps.exact[1].all()                     # AS was not in every trick
    assert any(str(reps.outcome(k, 1).sig["trick"]).startswith("error") for k in range(len(ts)))


def test_array_tallies_give_the_same_report_as_the_one_by_one_comparison(monkeypatch):
    cfg = runner.DiffConfig(("tournament", "standard", "pirates", "jokers-deuces", "classic"), deals=12,
                            seed="tally", games=2, attribute=0)
    ctx = runner.Context(cfg)
    fast = [runner.run_deals(ctx, 0, 12), runner.run_games(ctx, 0, 2)]
    monkeypatch.setattr(runner, "_tally", lambda *args: False)
    slow = [runner.run_deals(ctx, 0, 12), runner.run_games(ctx, 0, 2)]
    assert fast == slow
    pair = fast[0]["pairs"]["tournament|standard"]["transcript"]["stages"]
    assert pair["bid"]["count"] and pair["legal"]["clauses"] and pair["score"]["deltas"]


def test_a_card_outside_the_pack_is_never_legal_and_stays_the_first_forbidden_card():
    tournament, jokers = load_ruleset("tournament"), load_ruleset("jokers-deuces")
    outside = tournament.deck & ~jokers.deck                         # 2C and 2H: in every 52-card deal
    ts = _transcripts([tournament], 4, "pack")
    reps = _assert_same([tournament, jokers], ts)
    unsettled = 0
    for k, t in enumerate(ts):
        got = reps.outcome(k, 1)
        first_outside = next(step for step, (_, card) in enumerate(t.plays) if (outside >> card) & 1)
        trick, seat, card = got.sig["legal"]
        step = t.plays.index((seat, card))
        assert step <= first_outside                                  # nothing after it is the first
        if step == first_outside:
            assert got.rules["legal"] == "deck.cards" and got.note("legal")["rule"] == "deck.cards"
        if str(got.sig["trick"]).startswith("error"):                 # jokers-deuces cannot settle the trick
            unsettled += 1
    assert unsettled                                                  # ... and the forbidden card was kept


MIRROR_ACROSS = """\
    id: mirror-across
    source: {doc: house, title: Mirror bids from the dealer's partner}
    extends: mirror
    rules:
      deal.first_bidder: partner_of(dealer) @ house §1
"""


def test_variants_bidding_in_another_order_are_given_their_own_bidders_facts():
    # (mirror's bid rules read the bidder's hand: the facts of one order's bidder refuse the other's bids)
    mirror = load_ruleset("mirror")
    across = ruleset_from_text(textwrap.dedent(MIRROR_ACROSS))
    ts = _transcripts([mirror], 4, "order")
    reps = _assert_same([mirror, across], ts)
    assert all(e.all() for e in reps.exact)                         # (the batch did the work)
