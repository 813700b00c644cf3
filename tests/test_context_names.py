"""Every context name reaches its rules with the right value, through the engine's own paths.

For each context of ``schema.CONTEXTS`` and each of its names there is a *probe*: a
rule that reads the name (``name == the value it should have``) placed where the
engine evaluates that context, and two situations, A and B, in which the name has
different values.  The probe must be true in A and false in B, so an engine that
passed another value (the team's score for the opponents', a trick's cards emptied,
a position shifted) fails here.  ``test_every_context_name_has_a_probe`` reads the
names from the schema, so a new context name needs a probe.
"""
from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from rulespec import game as E
from rulespec.core import cards as C
from rulespec.core.schema import CONTEXTS
from rulespec.game.bids import BLIND, BLIND_NIL, NIL, REGULAR, Bid
from rulespec.model.ruleset import Ruleset, ruleset_from_text


def mask(text: str) -> int:
    return C.mask_of(C.parse_cards(text))


def variant(rules: dict[str, str]) -> Ruleset:
    lines = "\n".join(f"  {name}: '{text} @ house §probe'" for name, text in rules.items())
    return ruleset_from_text(textwrap.dedent("""\
        id: probe
        source: {doc: house, title: a context name under test}
        extends: standard
        rules:
        """) + lines + "\n")


@dataclass
class Probe:
    context: str
    name: str
    test: str                                        # true in situation A, false in B
    observe: Callable[[str, bool], bool]             # (probe text, situation A?) -> the probe's value as seen
    constant: bool = False                           # the name has one value in every situation (no B)


# --------------------------------------------------------------------------- play, break, trick
def _play_state(rs: Ruleset, a: bool) -> E.HandState:
    """A: East to play third to trick 2 (3H 7H so far), spades broken; B: the same seat leads trick 3."""
    hand = mask("2H KH 5C 9D") if a else mask("2H KH 5C 6C 9D")
    hands = [mask("4D"), hand, mask("5D"), mask("6D")]
    state = E.HandState(rs, hands, 3)
    state.leader, state.number, state.broken = (3, 2, True) if a else (1, 3, False)
    if a:
        state.trick, state.trick_mask, state.led = [C.parse_card("3H"), C.parse_card("7H")], mask("3H 7H"), C.HEARTS
    state.played = mask("3H 7H AS 2S 3S 4S") if a else mask("AS 2S 3S 4S")
    return state


def _legal(text: str, a: bool) -> bool:
    """The probe as ``play.lead``/``play.follow``: the seat may play only hearts when it holds."""
    rule = f"if {text} then hand & hearts else hand"
    rs = variant({"play.lead": rule, "play.follow": rule})
    state = _play_state(rs, a)
    hearts = mask("2H KH")
    stepped, explained = state.legal(1), state.legal_cards(1).cards
    assert stepped == explained                      # HandState's generated step and play.legal_cards agree
    return stepped == hearts


def _breaks(text: str, a: bool) -> bool:
    """The probe as ``trump.breaks``: A, East plays 5C second to 3H of trick 2; B, East leads 2H to trick 3."""
    rs = variant({"trump.breaks": text})
    hands = [mask("3H 4D"), mask("2H KH 5C AS") if a else mask("2H KH 5C"), mask("5D"), mask("6D")]
    state = E.HandState(rs, hands, 3)
    state.leader, state.number = (0, 2) if a else (1, 3)
    if a:
        state.play(C.parse_card("3H"))
    state.play(C.parse_card("5C") if a else C.parse_card("2H"))
    return state.broken


def _winner(text: str, a: bool) -> bool:
    """The probe in ``trick.winner``: the highest heart wins when it holds, else the lowest."""
    rs = variant({"trick.winner": f"if {text} then highest(trick.cards & trick.led_suit) "
                                  "else lowest(trick.cards & trick.led_suit)"})
    trick = C.parse_cards("5H KH 2H 9H" if a else "9D QD 2D 5D")
    number = 2 if a else 3
    index, _ = E.trick_winner(rs, trick, number)
    state = E.HandState(rs, [1 << c for c in trick], 3)      # North leads: each seat holds its card
    state.number = number
    for c in trick:
        state.play(c)
    assert state.finish_trick() == index             # the generated step and play.trick_winner agree
    return trick[index] == max(trick, key=lambda c: rs.power[c])


# --------------------------------------------------------------------------- bids
def _bid_situation(a: bool) -> dict:
    """A: East bids third (dealer S), partner West bid 4, EW -150 with 7 bags against NS 200 with 4;
    B: East bids second (dealer W), partner West bid nil, other scores."""
    bids: list = [None] * 4
    bids[3] = Bid(REGULAR, 4) if a else Bid(NIL)
    return {"seat": 1, "dealer": 2 if a else 3, "bids": bids, "hand": mask("AS 2H 3H") if a else mask("KS 2H 3H"),
            "scores": (200, -150) if a else (10, 20), "bags": (4, 7) if a else (1, 2)}


def _bid_rule(text: str, a: bool) -> bool:
    """The probe as ``nil.allowed``, seen in ``bid_refusals``' trail and in ``legal_bids``."""
    rs = variant({"nil.allowed": text})
    s = _bid_situation(a)
    checked: list = []
    E.bid_refusals(rs, s["seat"], Bid(NIL), hand=s["hand"], dealer=s["dealer"], bids=s["bids"],
                   scores=s["scores"], bags=s["bags"], checked=checked)
    value = next(step["value"] for step in checked if step["rule"] == "nil.allowed")
    listed = Bid(NIL) in E.legal_bids(rs, s["seat"], s["hand"], s["dealer"], s["bids"], s["scores"], s["bags"])
    assert listed == value
    return value


def _bid_n(text: str, a: bool) -> bool:
    """``bid.n`` is the number of the bid asked about: a blind team bid of 7 (A) or 6 (B)."""
    rs = variant({"blind_bid.allowed": text})
    s = _bid_situation(True)
    checked: list = []
    E.bid_refusals(rs, s["seat"], Bid(BLIND, 7 if a else 6), hand=s["hand"], dealer=s["dealer"], bids=[None] * 4,
                   scores=s["scores"], bags=s["bags"], checked=checked)
    return next(step["value"] for step in checked if step["rule"] == "blind_bid.allowed")


def _table_rule(text: str, a: bool) -> bool:
    """The probe as ``bid.table_valid``, seen in ``bid_refusals``' trail and in ``legal_bids``: A, East bids 5
    after West's 4 and North's 3; B, East bids 2 after West's nil (the situations of ``_bid_situation``)."""
    rs = variant({"bid.table_valid": text})
    s = _bid_situation(a)
    bids = list(s["bids"])
    if a:
        bids[0] = Bid(REGULAR, 3)
    bid = Bid(REGULAR, 5 if a else 2)
    checked: list = []
    E.bid_refusals(rs, s["seat"], bid, hand=s["hand"], dealer=s["dealer"], bids=bids, scores=s["scores"],
                   bags=s["bags"], checked=checked)
    value = next(step["value"] for step in checked if step["rule"] == "bid.table_valid")
    assert (bid in E.legal_bids(rs, s["seat"], s["hand"], s["dealer"], bids, s["scores"], s["bags"])) == value
    return value


def _team_bid(text: str, a: bool) -> bool:
    """The probe as ``bid.team_valid``: A, EW bid 4 and nil at -150/7 against 200/4;
    B, a blind 6 team bid at other scores; C (for counts that need it) 4 and blind nil."""
    rs = variant({"bid.team_valid": text})
    pair = [Bid(REGULAR, 4), Bid(NIL)] if a else [Bid(BLIND, 6), Bid(BLIND, 6)]
    checked: list = []
    E.team_refusals(rs, pair, (200, -150) if a else (10, 20), (4, 7) if a else (1, 2), 1, checked=checked)
    return next(step["value"] for step in checked if step["rule"] == "bid.team_valid")


def _team_bid_blind_nil(text: str, a: bool) -> bool:
    rs = variant({"bid.team_valid": text})
    pair = [Bid(REGULAR, 4), Bid(BLIND_NIL)] if a else [Bid(REGULAR, 4), Bid(NIL)]
    checked: list = []
    E.team_refusals(rs, pair, (0, 0), (0, 0), 1, checked=checked)
    return next(step["value"] for step in checked if step["rule"] == "bid.team_valid")


# --------------------------------------------------------------------------- scoring
@dataclass(frozen=True)
class Hand:
    """A scored hand seen from NS, with the facts every NS scoring rule should be given."""
    bids: str
    tricks: tuple[int, int, int, int]
    scores: tuple[int, int]
    bags: tuple[int, int]
    last: tuple[int, str]
    facts: dict

    def score(self, rs: Ruleset) -> list[dict]:
        bids = [E.parse_bid(b) for b in self.bids.split(",")]
        winner, cards = self.last
        return E.score_hand(rs, bids, self.tricks, self.scores, self.bags,
                            last_trick=(winner, C.parse_cards(cards)))[0].lines


def _facts(contract, blind, tricks, regular, nil_tricks, won, made, over, nil_count, nil_made, score, bags,
           opp_score, opp_bags, **extra) -> dict:
    return {"team.contract": contract, "team.blind": blind, "team.tricks": tricks, "team.regular_tricks": regular,
            "team.nil_tricks": nil_tricks, "team.won": won, "team.made": made, "team.overtricks": over,
            "team.nil_count": nil_count, "team.nil_made": nil_made, "team.score": score, "team.bags": bags,
            "opponents.score": opp_score, "opponents.bags": opp_bags, **extra}


# N 4 and S nil (fails with 2), NS take 7 of 13 at 120 / 3 bags against -40 / 7 (standard: a failed nil's
# tricks count toward the contract)
REGULAR_AND_NIL = Hand("4,3,nil,4", (5, 3, 2, 3), (120, -40), (3, 7), (0, "AS 2S 3S 4S"),
                       _facts(4, False, 7, 5, 2, 7, True, 3, 1, 0, 120, 3, -40, 7, **{
                           "player.tricks": 2, "player.blind": False, "last_trick.won": True,
                           "last_trick.winning_card": "AS", "last_trick.team_cards": "{AS, 3S}",
                           "last_trick.nil_cards": "{3S}"}))
# a blind 6 team bid set with 4, at -200 / 0 bags against 350 / 2; East wins the last trick with KS
BLIND_TEAM_BID = Hand("blind 6,3,blind 6,4", (2, 5, 2, 4), (-200, 350), (0, 2), (1, "2S KS 3S 4S"),
                      _facts(6, True, 4, 4, 0, 4, False, 0, 0, 0, -200, 0, 350, 2, **{
                          "last_trick.won": False, "last_trick.winning_card": "KS",
                          "last_trick.team_cards": "{2S, 3S}", "last_trick.nil_cards": "{}"}))
# N blind nil (made), S nil (0: made too), at 60 / 9 bags against 0 / 0; North wins the last trick with 2S
DOUBLE_NIL = Hand("blind nil,7,nil,6", (0, 7, 0, 6), (60, 0), (9, 0), (1, "2S KS 3S 4S"),
                  _facts(0, False, 0, 0, 0, 0, False, 0, 2, 2, 60, 9, 0, 0, **{
                      "player.tricks": 0, "player.blind": False}))
# N 4 and S blind nil (fails with 2), as REGULAR_AND_NIL otherwise
BLIND_NIL_SOUTH = Hand("4,3,blind nil,4", (5, 3, 2, 3), (120, -40), (3, 7), (0, "AS 2S 3S 4S"),
                       {"player.blind": True})
# N 4 and S nil made (0), NS take 7
REGULAR_AND_MADE_NIL = Hand("4,3,nil,4", (7, 3, 0, 3), (120, -40), (3, 7), (0, "AS 2S 3S 4S"),
                            _facts(4, False, 7, 7, 0, 7, True, 3, 1, 1, 120, 3, -40, 7))


def _literal(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _scoring_probe(context: str, name: str, pair: tuple[Hand, Hand], rules: tuple[str, ...],
                   line: Callable[[dict], bool]) -> Probe:
    """A probe of ``name`` in ``rules`` (100 points when true, else 0), seen on the NS line ``line`` picks."""
    a, b = pair
    assert a.facts[name] != b.facts[name], (context, name)

    def observe(text: str, in_a: bool) -> bool:
        rs = variant({rule: f"if {text} then 100 else 0" for rule in rules})
        lines = [x for x in (a if in_a else b).score(rs) if line(x)]
        return lines[0]["points"] == 100 if lines else False
    return Probe(context, name, f"{name} == {_literal(a.facts[name])}", observe)


_CONTRACT = ("scoring.made", "scoring.set", "blind_bid.made", "blind_bid.set")
_NILS = ("nil.made", "nil.failed", "blind_nil.made", "blind_nil.failed")


def _is_contract(line: dict) -> bool:
    return line["rule"] in _CONTRACT


def _is_south_nil(line: dict) -> bool:
    return line["rule"] in _NILS and line["why"].startswith("S bid")


def _is_bonus(line: dict) -> bool:
    return line["rule"] == "bonus.last_trick"


def _scoring_probes() -> list[Probe]:
    probes = [_scoring_probe("team_hand", n, (REGULAR_AND_MADE_NIL, REGULAR_AND_NIL) if n == "team.nil_made"
                             else (REGULAR_AND_NIL, BLIND_TEAM_BID), _CONTRACT, _is_contract)
              for n in CONTEXTS["team_hand"]]
    probes += [_scoring_probe("bonus_hand", n, (REGULAR_AND_NIL, BLIND_TEAM_BID), ("bonus.last_trick",), _is_bonus)
               for n in CONTEXTS["bonus_hand"] if n != "team.nil_made"]
    probes.append(_scoring_probe("bonus_hand", "team.nil_made", (REGULAR_AND_MADE_NIL, REGULAR_AND_NIL),
                                 ("bonus.last_trick",), _is_bonus))
    # a nil is scored only where a partner bid nil: never beside a blind team bid (team.blind is always false)
    probes += [_scoring_probe("nil_hand", n, (REGULAR_AND_NIL, DOUBLE_NIL), _NILS, _is_south_nil)
               for n in CONTEXTS["nil_hand"] if n not in ("team.blind", "player.blind")]
    probes.append(_scoring_probe("nil_hand", "player.blind", (BLIND_NIL_SOUTH, REGULAR_AND_NIL), _NILS,
                                 _is_south_nil))
    return probes


# --------------------------------------------------------------------------- game, seating, deck, card
def _game(text: str, a: bool) -> bool:
    rs = variant({"game.target_reached": text})
    scores, bags, hands = ((510, 480), (2, 9), 11) if a else ((300, 420), (5, 1), 4)
    history = (E.GameHistory((9, 4), (True, False), (1, 3), (0, 2)) if a
               else E.GameHistory((5, 6), (False, True), (2, 0), (1, 0)))
    return E.game_status(rs, scores, bags, hands, explain=True, history=history)["explanation"][0]["value"]


def _seating(text: str, a: bool) -> bool:
    """The probe (a seat: the language has no seat literals) as the three seating rules: the first
    bidder, the first leader and the next dealer; true when it names North (A: dealer S, partner_of)."""
    rs = variant({"deal.first_bidder": text, "play.first_leader": text, "deal.next_dealer": text})
    dealer = 2 if a else 1
    state = E.HandState(rs, E.deal_for(0, 0, rs), dealer)
    seats = {state.bidder, state.leader, E.seat_rule(rs, "deal.next_dealer", dealer)}
    assert len(seats) == 1
    return seats.pop() == 0


def _deck(text: str, a: bool) -> bool:
    """The probe in ``deck.cards``: the plain 52 cards when true, with the jokers when false."""
    rs = variant({"deck.cards": f"if {text} then all_cards - jokers else all_cards"})
    return rs.deck == C.ALL_CARDS & ~C.JOKERS


def _card(text: str, a: bool) -> bool:
    """The probe in ``card.power``: a card ranks 20 when true; A looks at the ace of spades, B at the king."""
    rs = variant({"card.power": f"if {text} then 20 else card.rank"})
    return rs.power[C.parse_card("AS" if a else "KS")] == 20


PROBES = [
    *(Probe("play", name, test, _legal) for name, test in [
        ("hand", "hand.count(clubs) == 1"), ("trick.cards", "trick.cards == {3H, 7H}"),
        ("trick.led_suit", "trick.led_suit == hearts"), ("trick.number", "trick.number == 2"),
        ("trick.position", "trick.position == 3"), ("leading", "not leading"), ("trump_broken", "trump_broken"),
        ("played", "count(played) == 6")]),
    *(Probe("break", name, test, _breaks) for name, test in [
        ("card", "card == 5C"), ("hand", "hand.has(AS)"), ("leading", "not leading"),
        ("trick.led_suit", "trick.led_suit == hearts"), ("trick.number", "trick.number == 2")]),
    *(Probe("trick", name, test, _winner) for name, test in [
        ("trick.cards", "trick.cards.has(KH)"), ("trick.led_suit", "trick.led_suit == hearts"),
        ("trick.number", "trick.number == 2"), ("trick.lead", "trick.lead == 5H")]),
    *(Probe("bid", name, test, _bid_rule) for name, test in [
        ("hand", "hand.has(AS)"), ("seat", "seat == right_of(dealer)"), ("dealer", "dealer == left_of(seat)"),
        ("position", "position == 3"), ("partner.kind", "partner.kind == regular"), ("partner.n", "partner.n == 4"),
        ("team.score", "team.score == -150"), ("team.bags", "team.bags == 7"),
        ("opponents.score", "opponents.score == 200"), ("opponents.bags", "opponents.bags == 4")]),
    Probe("bid", "bid.n", "bid.n == 7", _bid_n),
    *(Probe("table_bid", name, test, _table_rule) for name, test in [
        ("hand", "hand.has(AS)"), ("seat", "seat == right_of(dealer)"), ("dealer", "dealer == left_of(seat)"),
        ("position", "position == 3"), ("partner.kind", "partner.kind == regular"), ("partner.n", "partner.n == 4"),
        ("team.score", "team.score == -150"), ("team.bags", "team.bags == 7"),
        ("opponents.score", "opponents.score == 200"), ("opponents.bags", "opponents.bags == 4"),
        ("bid.n", "bid.n == 5"), ("bid.tricks", "bid.tricks == 5"), ("bids.made", "bids.made == 2"),
        ("bids.total", "bids.total == 7"), ("opponents.bids", "opponents.bids == 1"),
        ("opponents.tricks", "opponents.tricks == 3")]),
    *(Probe("team_bid", name, test, _team_bid) for name, test in [
        ("team.regular_sum", "team.regular_sum == 4"), ("team.regular_count", "team.regular_count == 1"),
        ("team.nil_count", "team.nil_count == 1"), ("team.blind_count", "team.blind_count == 0"),
        ("team.score", "team.score == -150"), ("team.bags", "team.bags == 7"),
        ("opponents.score", "opponents.score == 200"), ("opponents.bags", "opponents.bags == 4")]),
    Probe("team_bid", "team.blind_nil_count", "team.blind_nil_count == 1", _team_bid_blind_nil),
    *_scoring_probes(),
    *(Probe("game", name, test, _game) for name, test in [
        ("ns.score", "ns.score == 510"), ("ns.bags", "ns.bags == 2"), ("ew.score", "ew.score == 480"),
        ("ew.bags", "ew.bags == 9"), ("high.score", "high.score == 510"), ("low.score", "low.score == 480"),
        ("lead", "lead == 30"), ("hands", "hands == 11"), ("ns.contract", "ns.contract == 9"),
        ("ew.contract", "ew.contract == 4"), ("ns.made", "ns.made"), ("ew.made", "not ew.made"),
        ("ns.sets", "ns.sets == 1"), ("ew.sets", "ew.sets == 3"), ("ns.sets_in_a_row", "ns.sets_in_a_row == 0"),
        ("ew.sets_in_a_row", "ew.sets_in_a_row == 2"), ("high.side", "high.side == NS")]),
    Probe("seating", "dealer", "partner_of(dealer)", _seating),
    Probe("deck", "all_cards", "count(all_cards) == 54", _deck, constant=True),
    Probe("deck", "jokers", "count(jokers) == 2 and jokers.has(BJ)", _deck, constant=True),
    Probe("card", "card", "card == AS", _card),
    Probe("card", "all_cards", "count(all_cards) == 54", _card, constant=True),
    Probe("card", "jokers", "count(jokers) == 2 and jokers.has(LJ)", _card, constant=True),
]

# context names no situation can change where their context is evaluated
EXEMPT = {("nil_hand", "team.blind"): "a nil is never scored beside a blind team bid: always false there"}


@pytest.mark.parametrize("probe", PROBES, ids=lambda p: f"{p.context}:{p.name}")
def test_the_rule_sees_the_value_the_situation_gives(probe: Probe):
    assert probe.observe(probe.test, True)
    if not probe.constant:
        assert not probe.observe(probe.test, False)


def test_every_context_name_has_a_probe():
    probed = {(p.context, p.name) for p in PROBES}
    required = {(context, name) for context, names in CONTEXTS.items() for name in names}
    assert required - probed - set(EXEMPT) == set()
    assert set(EXEMPT) <= required and not set(EXEMPT) & probed
