"""The engine, driven by compiled variants."""
import random
import textwrap

import pytest

from rulespec.core import cards as C
from rulespec import game as E
from rulespec.errors import GameError
from rulespec.game.policies import RandomPolicy, SensiblePolicy
from rulespec.model.ruleset import load_ruleset, ruleset_from_text

JOKERS = textwrap.dedent("""\
    id: jj
    extends: standard
    rules:
      deck.cards: all_cards - {2C, 2H} @ 003 ¶1
      card.suit: if card in {BJ, LJ, 2D} then spades else card.natural_suit @ 003 ¶1
      card.power: >-
        if card == BJ then 18 else if card == LJ then 17 else if card == 2D then 16
        else if card == 2S then 15 else card.rank @ 003 ¶1
    """)

FIRST_TRICK = textwrap.dedent("""\
    id: ft
    extends: standard
    rules:
      play.first_trick_suit: if hand.has(clubs) then {lowest(hand & clubs)} else hand @ 000 §PLAY OF THE HAND
      play.first_trick_trump: hand - spades @ 000 §PLAY OF THE HAND
    """)


def cards(text):
    return C.parse_cards(text)


def mask(text):
    return C.mask_of(cards(text))


@pytest.mark.parametrize("trick,winner", [
    ("QH 2S AH 5H", 1),      # a trump wins
    ("QH 3H AH 5H", 2),      # highest of the led suit
    ("QH AD AC 5H", 0),      # off-suit aces do not win
    ("2S AS KS 3H", 1),      # highest trump
])
def test_trick_winner_standard(standard, trick, winner):
    assert E.trick_winner(standard, cards(trick))[0] == winner


def test_trick_winner_explains_with_citations(standard):
    _, steps = E.trick_winner(standard, cards("QH 2S AH 5H"), explain=True)
    assert [s["rule"] for s in steps] == ["card.suit", "trump.suit", "trick.winner"]
    assert steps[-1]["value"] == "2S" and steps[-1]["cite"] == "001 §Turns"


def test_jokers_and_deuces():
    rs = ruleset_from_text(JOKERS)
    assert rs.deck.bit_count() == 52 and (rs.deck >> C.BIG_JOKER) & 1
    assert E.trick_winner(rs, cards("AS 2D KS QS"))[0] == 1        # 2D is a spade above AS
    assert E.trick_winner(rs, cards("2S LJ BJ 2D"))[0] == 2        # big joker highest
    assert E.trick_winner(rs, cards("AH 2D 3H 4H"))[0] == 1        # 2D trumps a heart lead
    # 2D counts as a spade for following suit: a player with 2D must play it on a spade lead
    legal = E.legal_cards(rs, mask("2D 5D 9H"), cards("3S"), 2, True).cards
    assert C.card_names(legal) == ["2D"]


def test_follow_suit_and_leading_spades(standard):
    hand = mask("2C 5C KH AS 2S")
    assert C.card_names(E.legal_cards(standard, hand, cards("QC"), 9, False).cards) == ["2C", "5C"]
    assert C.card_names(E.legal_cards(standard, hand, cards("QD"), 9, False).cards) == C.card_names(hand)
    assert C.card_names(E.legal_cards(standard, hand, [], 9, False).cards) == ["2C", "5C", "KH"]
    assert C.card_names(E.legal_cards(standard, hand, [], 9, True).cards) == C.card_names(hand)
    only_spades = mask("2S AS")
    assert E.legal_cards(standard, only_spades, [], 12, False).cards == only_spades


def _broken_after(rs, hand: str, trick: str, card: str) -> bool:
    """Whether ``card`` from ``hand`` breaks trumps, played by the seat after ``trick`` (cards led so far)."""
    others = [c for c in C.iter_cards(rs.deck & ~mask(hand) & ~mask(trick))]
    led = cards(trick)
    hands = [0, 0, 0, 0]
    for pos, c in enumerate(led):     # the leader is North (seat 0): each earlier card is its seat's
        hands[pos] |= 1 << c
    hands[len(led)] = mask(hand)
    for seat in range(4):             # fill the hands up to 13 cards from the rest of the pack
        while hands[seat].bit_count() < 13:
            hands[seat] |= 1 << others.pop()
    state = E.HandState(rs, hands, 3)           # dealer W: North leads
    for c in led:
        state.play(c)
    assert not state.broken
    state.play(C.parse_card(card))
    return state.broken


def test_trump_breaking(standard):
    assert _broken_after(standard, "2S 3H", "4D", "2S")
    assert not _broken_after(standard, "2S 3H", "4D", "3H")
    assert _broken_after(standard, "2S AS", "", "2S")     # spade-tight lead


def test_first_trick_rules_conflict_and_dead_end():
    rs = ruleset_from_text(FIRST_TRICK)
    # lowest club demanded, no spade allowed
    assert C.card_names(E.legal_cards(rs, mask("2C 9C AS KH"), cards("5C"), 1, False).cards) == ["2C"]
    # follow diamonds vs play the lowest club: a conflict, following suit applied
    result = E.legal_cards(rs, mask("2C 9D AS"), cards("5D"), 1, False, explain=True)
    assert C.card_names(result.cards) == ["9D"]
    assert result.conflicts and result.conflicts[0]["rules"] == ["play.follow", "play.first_trick_suit"]
    # a hand of only spades: the no-spade rule allows nothing
    dead = E.legal_cards(rs, mask("2S 3S 4S"), cards("5D"), 1, False)
    assert [d["rule"] for d in dead.dead_ends] == ["play.first_trick_trump"]


def test_bids(standard):
    nothing = [None] * 4
    assert not E.bid_refusals(standard, 0, E.Bid("regular", 4), hand=0, dealer=3, bids=nothing)
    refused = E.bid_refusals(standard, 0, E.Bid("blind_nil"), hand=0, dealer=3, bids=nothing)
    assert refused[0]["rule"] == "blind_nil.allowed"
    assert E.bid_refusals(standard, 0, E.Bid("regular", 14), hand=0, dealer=3, bids=nothing)[0]["rule"] == \
        "bid.regular_max"
    assert E.parse_bid(0) == E.Bid("nil") and E.parse_bid("blind 7") == E.Bid("blind", 7)
    assert E.parse_bid("Blind Nil") == E.Bid("blind_nil")
    with pytest.raises(GameError, match="not a bid"):
        E.parse_bid("seven")
    for odd in ("²", "blind ²", "٣"):                  # digits int() refuses, or not ASCII: a clear error
        with pytest.raises(GameError, match="not a bid"):
            E.parse_bid(odd)
    assert [str(E.parse_bid(v)) for v in (3, "nil", "blind nil", "blind 6")] == ["3", "nil", "blind nil", "blind 6"]


def test_an_odd_digit_in_a_bid_is_a_422_not_a_500():
    from service.app import create_app
    body = {"variant": "standard", "bids": {"N": "²", "E": 3, "S": 4, "W": 3},
            "tricks": {"N": 3, "E": 3, "S": 4, "W": 3}}
    resp = create_app().test_client().post("/v1/score", json=body)
    assert resp.status_code == 422 and resp.get_json()["field"] == "bids.N"


def seats(n, e, s, w):
    return [n, e, s, w]


def test_scoring_001_worked_example(standard):
    bids = seats(E.Bid("regular", 3), E.Bid("regular", 4), E.Bid("regular", 2), E.Bid("regular", 4))
    ns, ew = E.score_hand(standard, bids, seats(4, 3, 3, 3), scores=(0, 0), bags=(9, 0))
    assert (ns.points, ns.bags_added, ns.bags) == (52 - 100, 2, 1)
    assert [line["rule"] for line in ns.lines] == ["scoring.made", "scoring.overtrick_points", "bags.penalty"]
    assert ew.points == -80


def test_failed_nil_tricks_count_in_standard(standard):
    bids = seats(E.Bid("nil"), E.Bid("regular", 4), E.Bid("regular", 4), E.Bid("regular", 4))
    ns, _ = E.score_hand(standard, bids, seats(2, 4, 3, 4))
    assert ns.points == 40 + 1 - 100 and ns.bags_added == 1


def test_tricks_must_sum_to_hand_size(standard):
    bids = [E.Bid("regular", 3)] * 4
    with pytest.raises(GameError, match="add up to 12"):
        E.score_hand(standard, bids, seats(3, 3, 3, 3))


def test_game_end(standard):
    assert E.game_status(standard, (499, 100))["over"] is False
    status = E.game_status(standard, (500, 100))
    assert status["over"] and status["winner"] == "NS"
    assert E.game_status(standard, (520, 530))["winner"] == "EW"
    tie = E.game_status(standard, (510, 510))
    assert tie["over"] is False and "tied" in tie["reason"]


def test_simulate_reproducible(standard):
    a = list(E.simulate(standard, 5, seed=7))
    b = list(E.simulate(standard, 5, seed=7))
    assert a == b
    assert list(E.simulate(standard, 1, seed=8))[0]["deal"] != a[0]["deal"]


def test_inherited_rule_from_the_same_document_is_not_called_unstated():
    from rulespec.model.ruleset import load_ruleset
    rs = load_ruleset("whiz-min-four")          # extends house; both encode 003
    info = rs.cite("play.lead")
    assert info["inherited_from"] != "whiz-min-four" and "not stated" not in info.get("note", "")
    pirates = load_ruleset("pirates")
    inherited = [name for name, rule in pirates.rules.items() if rule.origin == "standard"]
    assert inherited and "not stated in 002; inherited from standard" in pirates.cite(inherited[0])["note"]


def test_transfer_renege_leaves_a_cited_line():
    from rulespec.model.ruleset import load_ruleset
    rs = load_ruleset("three-trick-renege")
    bids = [E.Bid("regular", 4)] * 4
    ns, ew = E.score_hand(rs, bids, seats(4, 3, 3, 3), reneges=[0])
    moved = [line for line in ns.lines if line["rule"] == "renege.transfer_tricks"]
    assert moved and moved[0]["decided_by"][0]["rule"] == "renege.mode"
    assert any(line["rule"] == "renege.transfer_tricks" for line in ew.lines)


def test_card_rules_may_name_the_jokers():
    rs = ruleset_from_text(JOKERS.replace("if card in {BJ, LJ, 2D}", "if card in jokers | {2D}"))
    assert E.trick_winner(rs, cards("AS 2D KS QS"))[0] == 1


def test_bid_checks_are_explained_even_when_allowed(standard):
    checked = []
    assert not E.bid_refusals(standard, 0, E.Bid("regular", 4), hand=0, dealer=3,
                              bids=[None, None, E.Bid("regular", 3), None], checked=checked)
    assert [s["rule"] for s in checked] == ["bid.regular_min", "bid.regular_max", "bid.team_contract",
                                            "bid.team_min", "bid.team_max", "bid.team_valid"]


def test_a_deal_from_another_pack_is_refused_with_the_pack_rule():
    jokers = load_ruleset("jokers-deuces")
    standard_deal = E.deal_for(0, 0, load_ruleset("standard"))
    with pytest.raises(GameError, match="not in the pack of variant 'jokers-deuces'") as refused:
        E.play_hand(jokers, standard_deal, 0, SensiblePolicy(random.Random(0)))
    assert refused.value.rule == "deck.cards" and refused.value.field == "deal"


def test_the_bid_candidates_run_to_the_hand_size(standard):
    names = [str(b) for b in E.bid_candidates(standard)]
    assert names == ([str(n) for n in range(1, 14)] + ["nil", "blind nil"] + [f"blind {n}" for n in range(1, 14)]
                     + ["zero"])


def _bids(text: str) -> list:
    return [E.parse_bid(b) for b in text.split()]


def test_scoring_defaults_are_a_new_game(standard):
    bids, tricks = _bids("4 3 3 3"), [5, 3, 2, 3]
    assert [r.as_dict() for r in E.score_hand(standard, bids, tricks)] == \
        [r.as_dict() for r in E.score_hand(standard, bids, tricks, (0, 0), (0, 0))]
    counting = ruleset_from_text("id: counting\nsource: {doc: house, title: t}\nextends: standard\nrules:\n"
                                 "  game.mercy: hands >= 1 or ns.bags + ew.bags > 0 @ house §End\n")
    assert not E.game_status(counting, (120, 40), explain=True)["explanation"][1]["value"]    # no hands, no bags
    assert E.game_status(counting, (120, 40), hands=1, explain=True)["explanation"][1]["value"]


def test_without_a_bag_limit_bags_pile_up_unpunished():
    rs = ruleset_from_text("id: no-bags\nsource: {doc: house, title: t}\nextends: standard\n"
                           "rules:\n  bags.limit: 0 @ house §Bags\n")
    ns, _ = E.score_hand(rs, _bids("3 3 3 3"), [5, 3, 2, 3], (100, 100), (9, 0))
    assert (ns.bags_added, ns.bags, ns.points) == (1, 10, 61)


def test_a_game_status_explains_itself_only_when_asked(standard):
    assert E.game_status(standard, (520, 300))["explanation"] == []
    steps = E.game_status(standard, (520, 300), explain=True)["explanation"]
    assert [s["rule"] for s in steps] == ["game.target_reached", "game.mercy", "game.winner"]


def test_a_set_contract_takes_no_bags_from_a_failed_nil():
    classic = load_ruleset("classic")       # 004: a failed nil's tricks are bags, but only beyond a made bid
    ns, _ = E.score_hand(classic, _bids("4 3 nil 4"), [3, 4, 2, 4])
    assert (ns.bags_added, [line["rule"] for line in ns.lines]) == (0, ["scoring.set", "nil.failed"])


def test_a_forfeit_line_says_which_side_reneged():
    tournament = load_ruleset("tournament")
    ns, ew = E.score_hand(tournament, _bids("3 3 3 3"), [4, 3, 3, 3], reneges=[1])
    assert ns.lines[0]["why"].endswith("(renege by the other side)")
    assert ew.lines[0]["why"].endswith("(renege by this side)")


# --------------------------------------------------------------------------- gaps found by the mutation run
def _variant(rules: str) -> object:
    return ruleset_from_text("id: probe\nsource: {doc: house, title: t}\nextends: standard\nrules:\n" + rules)


def test_a_winner_rule_naming_a_card_outside_the_trick_names_that_card():
    rs = _variant("  trick.winner: 2C @ house §Tricks\n")          # 2C is card 0
    with pytest.raises(GameError, match="named 2C, which is not in the trick"):
        E.trick_winner(rs, cards("QH 3H AH 5H"))


def test_a_card_from_outside_the_pack_is_refused_in_every_seat(standard):
    for seat in range(4):
        hands = E.deal_for(0, 0, standard)
        hands[seat] |= 1 << C.BIG_JOKER
        with pytest.raises(GameError, match="not in the pack of variant 'standard': BJ"):
            E.play_hand(standard, hands, 0, SensiblePolicy(random.Random(0)))


def test_a_new_game_starts_from_nothing_with_the_next_dealer(standard):
    records = list(E.simulate(standard, 6, seed=3, game_limit=2))
    assert [r["game"] for r in records] == [1, 1, 2, 2, 3, 3]
    assert [r["dealer"] for r in records] == ["N", "E", "S", "W", "N", "E"]
    for index in (2, 4):                            # the first hand of a game: scores and bags from zero
        dealer = "NESW".index(records[index]["dealer"])
        fresh = E.play_hand(standard, E.deal_for(3, index, standard), dealer,
                            RandomPolicy(random.Random(f"play:3:{index}")))
        assert records[index]["totals"] == fresh["totals"]


def test_the_fused_loop_records_the_last_trick_as_the_stepped_play_does():
    rs = load_ruleset("last-trick-ace-bonus")
    for index in range(8):
        deal = E.deal_for("last", index, rs)
        fused = E.play_hand(rs, deal, index % 4, SensiblePolicy(random.Random(index)), record=False)
        stepped = E.play_hand(rs, deal, index % 4, SensiblePolicy(random.Random(index)), record=False, stepped=True)
        assert fused["_last"] == stepped["_last"] and fused["_plays"] == stepped["_plays"]
        assert [r.as_dict() for r in fused["_results"]] == [r.as_dict() for r in stepped["_results"]]


def test_a_copied_hand_state_bids_and_plays_without_touching_the_original(standard):
    deal = E.deal_for(0, 0, standard)
    state = E.HandState(standard, deal, 3)
    for bid in _bids("3 4 nil"):
        state.bid(bid)
    copy = state.copy()
    copy.bid(E.Bid("regular", 2))
    card = next(C.iter_cards(copy.legal()))
    copy.play(card)
    assert state.bidder is not None and state.bids.count(None) == 1
    assert state.hands == deal and state.trick == [] and state.plays == []
    assert copy.bidder is None and copy.trick == [card] and copy.hands != state.hands


def test_a_blind_bid_of_thousands_of_digits_is_a_clear_error():
    for text in ("blind 100", "blind " + "9" * 5000):          # int() of 5000 digits would raise ValueError
        with pytest.raises(GameError, match="a blind bid is at most 99 tricks"):
            E.parse_bid(text)


def test_a_refused_blind_nil_gives_the_bidders_score_then_the_opponents(standard):
    for seat, why in ((0, "team 10, opponents 20"), (1, "team 20, opponents 10")):
        [refusal] = E.bid_refusals(standard, seat, E.Bid("blind_nil"), hand=0, dealer=3, bids=[None] * 4,
                                   scores=(10, 20))
        assert refusal["why"] == f"blind nil is not allowed here ({why})"


def test_without_carrying_bags_the_penalty_clears_them(standard):
    no_carry = _variant("  bags.carry: false @ house §Bags\n")
    bids, tricks = _bids("3 3 3 3"), [5, 3, 3, 2]                # NS: 2 overtricks on 9 bags
    assert E.score_hand(no_carry, bids, tricks, bags=(9, 0))[0].bags == 0
    assert E.score_hand(standard, bids, tricks, bags=(9, 0))[0].bags == 1


def test_the_game_status_names_the_winner_and_the_rule_on_a_tie(standard):
    steps = E.game_status(standard, (520, 300), explain=True)["explanation"]
    assert steps[-1]["value"] == "NS"
    assert E.game_status(standard, (300, 520), explain=True)["explanation"][-1]["value"] == "EW"
    tie = E.game_status(standard, (510, 510), explain=True)
    assert tie["rule"]["rule"] == "game.winner" and tie["explanation"][-1]["value"] is None


def test_a_transfer_moves_tricks_without_points_of_its_own():
    rs = load_ruleset("three-trick-renege")
    ns, ew = E.score_hand(rs, _bids("4 4 4 4"), [4, 3, 3, 3], reneges=[0])     # NS 7 - 3, EW 6 + 3
    assert (ns.points, ew.points) == (-80, 81)
    assert [line["points"] for line in ns.lines if line["rule"] == "renege.transfer_tricks"] == [0]


def test_one_trick_given_by_a_transfer_makes_the_receivers_victims():
    rs = _variant("  renege.mode: transfer @ house §Renege\n  renege.transfer_tricks: 1 @ house §Renege\n"
                  "  renege.victim_bags: false @ house §Renege\n")
    ns, ew = E.score_hand(rs, _bids("4 2 4 2"), [4, 4, 4, 1], reneges=[0])       # EW 5 + 1 on a contract of 4
    assert (ns.points, ns.bags_added) == (-80, 0)
    assert (ew.points, ew.bags_added) == (42, 0)
    assert [line["why"] for line in ew.lines if line["rule"] == "renege.victim_bags"] == \
        ["2 overtrick(s) not counted as bags"]


def test_only_a_pair_of_nils_scores_overtricks_as_beyond_a_contract_of_zero(standard):
    ns, ew = E.score_hand(standard, _bids("nil 4 nil 5"), [1, 6, 1, 5])
    over = {team: [line["why"] for line in result.lines if line["rule"] == "scoring.overtrick_points"]
            for team, result in (("NS", ns), ("EW", ew))}
    assert over == {"NS": ["2 overtrick(s) x 1 (both partners bid nil: a contract of 0)"],
                    "EW": ["2 overtrick(s) x 1"]}


LOWBALL = ("  trick.winner: >-\n    if trick.cards.has(trump.suit) then highest(trick.cards & trump.suit)\n"
           "    else lowest(trick.cards & trick.led_suit) @ house §Tricks\n")


@pytest.mark.parametrize("rules", [FIRST_TRICK, "lowball"], ids=["first-trick", "lowball"])
def test_the_hand_steps_agree_with_legal_cards_and_trick_winner_on_every_card(rules):
    rs = _variant(LOWBALL) if rules == "lowball" else ruleset_from_text(rules)
    for index in range(3):
        state = E.HandState(rs, E.deal_for("steps", index, rs), index)
        rng = random.Random(index)
        while not state.over:
            expected = E.legal_cards(rs, state.hands[state.to_play], state.trick, state.number, state.broken,
                                     state.played).cards
            assert state.legal() == expected, (state.number, state.trick)
            state.play(rng.choice(list(C.iter_cards(expected))))
            if len(state.trick) == 4:
                trick, leader, number = list(state.trick), state.leader, state.number
                assert state.finish_trick() == (leader + E.trick_winner(rs, trick, number)[0]) % 4


def test_each_seat_bids_once_in_order_from_the_first_bidder(standard):
    state = E.HandState(standard, E.deal_for(0, 0, standard), 1)      # dealer E: South bids first
    order = []
    while state.bidder is not None:
        order.append(state.bidder)
        state.bid(E.Bid("regular", 3))
    assert order == [2, 3, 0, 1]


def test_a_hand_is_not_scored_before_every_seat_has_bid(standard):
    state = E.HandState(standard, E.deal_for(0, 0, standard), 1)
    state.bid(E.Bid("regular", 3))
    with pytest.raises(GameError, match="before every seat has bid") as caught:
        state.score([3, 3, 3, 4])
    assert caught.value.field == "bids"


def test_a_blind_team_bid_needs_both_partners_to_name_the_same_number():
    rs = load_ruleset("house")
    refusals = E.team_refusals(rs, [E.Bid("blind", 6), E.Bid("blind", 7)], (0, 0), (0, 0), 0)
    assert [r["rule"] for r in refusals] == ["blind_bid.allowed"]


def test_a_team_contract_by_default_is_at_the_start_of_a_game():
    rs = _variant("  bid.team_contract: team.regular_sum + team.bags + opponents.bags + team.score"
                  " + opponents.score @ house §Bids\n")
    pair = _bids("3 4")
    assert E.team_contract(rs, pair) == E.team_contract(rs, pair, (0, 0), (0, 0), 0) == 7
    assert E.team_contract(rs, pair, (0, 0), (2, 1), 0) == 10
    assert E.team_contract(rs, pair, (5, 1), (0, 0), 0) == 13


def test_the_legal_bids_memo_stays_bounded():
    from rulespec.game import bids as B
    house = load_ruleset("house")                 # (its blind nil reads the scores: they are part of the key)
    assert B._bid_memo(house)[2]
    for score in range(B._BID_MEMO_LIMIT + 10):                       # each score a new memo key
        E.legal_bids(house, 0, 0, 3, [None] * 4, (score, 0), (0, 0))
    assert 0 < len(B._bid_memo(house)[3]) <= B._BID_MEMO_LIMIT


def test_the_legal_bids_memo_keys_the_scores_where_the_contract_rule_reads_them():
    """A side's contract rule is asked by the pair's refusal: where it reads the scores, they are in the key."""
    from rulespec.game import bids as B
    rs = ruleset_from_text("id: h\nextends: standard\nrules:\n"
                           "  bid.team_contract: if team.score > 100 then 14 else team.regular_sum @ house §B\n")
    assert B._bid_memo(rs)[2]
    assert E.Bid(E.REGULAR, 2) in E.legal_bids(rs, 0, 0, 3, [None, None, E.Bid(E.REGULAR, 4), None], (0, 0), (0, 0))
    assert E.Bid(E.REGULAR, 2) not in E.legal_bids(rs, 0, 0, 3, [None, None, E.Bid(E.REGULAR, 4), None], (200, 0),
                                                   (0, 0))


def test_the_legal_bids_memo_keys_only_what_the_bid_rules_read(standard):
    """Under standard no bid rule reads the scores or the other bids: one answer serves every score."""
    from rulespec.game import bids as B
    assert B._bid_memo(standard)[:3] == (False, False, False)
    first = E.legal_bids(standard, 0, 0, 3, [None] * 4, (0, 0), (0, 0))
    count = len(B._bid_memo(standard)[3])
    assert E.legal_bids(standard, 0, 0, 3, [None] * 4, (250, -90), (3, 4)) == first
    assert len(B._bid_memo(standard)[3]) == count


# --------------------------------------------------------------------------- survivors of the merged mutation run
class _NilThenRaise(RandomPolicy):
    """Bids 3, or nil once the partner has bid; the nil bidder's partner raises as high as allowed."""

    def bid(self, rs, seat, legal, hand):
        nil = [b for b in legal if str(b) == "nil"]
        return nil[0] if nil and seat in (2, 3) else next(b for b in legal if str(b) == "3")

    def raise_bid(self, rs, seat, legal, hand):
        return legal[-1]


def test_the_nil_bidders_partner_raises_when_the_book_allows_it():
    tournament = load_ruleset("tournament")        # 000: the partner of a nil bidder may raise
    assert tournament.params["nil.partner_may_raise"]
    deal = E.deal_for(7, 0, tournament)
    record = play = E.play_hand(tournament, deal, 3, _NilThenRaise(random.Random(1)))
    bids = play["bids"]
    assert bids["S"] == "nil" and bids["W"] == "nil"
    assert int(bids["N"]) > 3 and int(bids["E"]) > 3                  # both partners raised from 3
    state = E.HandState(tournament, deal, 3)
    for seat, bid in ((0, "3"), (1, "3"), (2, "nil")):
        assert state.bidder == seat
        state.bid(E.parse_bid(bid))
    options = [b.n for b in state.raise_options(2)]
    assert len(options) > 1 and options == sorted(options) and options[0] >= 3 and options[-1] == 13
    assert record["tricks_per_seat"] and sum(record["tricks_per_seat"].values()) == 13


def test_simulated_games_carry_each_teams_own_totals_from_zero():
    standard = load_ruleset("standard")
    records = list(E.simulate(standard, 4, seed=5))
    totals = {"NS": (0, 0), "EW": (0, 0)}
    for record in records:
        for team in ("NS", "EW"):
            before = totals[team] if record["hand"] else (0, 0)
            assert record["totals"][team]["score"] == before[0] + record["score"][team]["points"]
        totals = {t: (record["totals"][t]["score"], record["totals"][t]["bags"]) for t in ("NS", "EW")}
    assert records[-1]["totals"]["NS"] != records[-1]["totals"]["EW"]


def test_a_hand_state_starts_without_bags():
    from rulespec.game.engine import play_out
    standard = load_ruleset("standard")
    state = E.HandState(standard, E.deal_for(3, 0, standard), 3)
    while state.bidder is not None:
        state.bid(state.legal_bids()[0] if state.bidder % 2 else E.parse_bid("3"))
    play_out(state, RandomPolicy(random.Random(2)))
    ns, ew = state.score()
    assert (ns.bags, ew.bags) == (ns.bags_added, ew.bags_added)


@pytest.mark.parametrize("may_raise", [False, True])
def test_a_nil_below_the_team_minimum_only_where_the_partner_may_raise(may_raise):
    """With a team minimum of 4 and a partner's bid of 1, nil leaves the side short; it is a legal bid
    only where the partner may then raise (000's rule), not merely because the partner bid a number."""
    from rulespec.app.answers import inline_variant
    rs = inline_variant({"extends": "standard",
                         "rules": {"bid.team_min": 4, "nil.partner_may_raise": may_raise}}, "variant")
    legal = [str(b) for b in E.legal_bids(rs, 2, 0, 3, [E.parse_bid("1"), None, None, None], (0, 0), (0, 0))]
    assert legal[0] == "3" and ("nil" in legal) is may_raise


@pytest.mark.parametrize("high", ["0 - 5", "0", "20"])
def test_legal_bids_are_the_bids_no_rule_refuses(high):
    """``legal_bids`` offers exactly the candidates ``bid_refusals`` accepts, also where the highest
    regular bid is below 1 (a negative bound once gave 59 numbers) or above the hand."""
    from rulespec.app.answers import inline_variant
    rs = inline_variant({"extends": "standard", "rules": {"bid.regular_max": high}}, "variant")
    legal = E.legal_bids(rs, 1, 0, 0, [None] * 4, (0, 0), (0, 0))
    accepted = [b for b in E.bid_candidates(rs)
                if not E.bid_refusals(rs, 1, b, hand=0, dealer=0, bids=[None] * 4)]
    assert legal == accepted
