"""Plain-language reasons: why a rule applied (or allowed something) and why it
refused, in a player's words, for every rule slot.

One template per slot (``TEMPLATES``), shared by the API (a ``reason`` beside
each line of a rule trail), the command line (``rulespec explain``) and the
dispute page.  A template names *facts* (``{card}``, ``{team}``...) from its
``group``; ``*_facts`` build those facts from the situation the answer is
about.  ``why_not`` may depend on a ``case`` the facts builder picks (e.g. a
spade led before spades are broken reads differently from another card).
``why`` too may depend on a case (a play rule that left every card: you
hold only spades, or none of the suit led).  ``difference_sentence`` puts one difference between two rule books in a
sentence: "Under standard (001) NS score −59 this hand, under classic (004) −10: a
failed nil costs 100 in standard and 50 in classic (001 §Nil bids; 004 §Nil and
Blind Nil)."
"""
from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..core import cards as C
from ..core.schema import BOOL, INT, SLOTS
from ..game.scoring import Wording, line_words

SEAT_NAMES = dict(zip(C.SEATS, ("North", "East", "South", "West", "X", "Y")))
_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

# The facts each group of templates may name (every group also has "value": the rule's value in words).
GROUPS: dict[str, frozenset[str]] = {
    "plain": frozenset({"value"}),
    "play": frozenset({"value", "card", "allowed", "led_suit", "trump", "trump_state", "holding", "trick_number"}),
    "trick": frozenset({"value", "led_card", "led_suit", "trump", "trumps_played", "winner_card"}),
    "bid": frozenset({"value", "seat", "bid", "team", "team_score", "opponents", "opponents_score", "other_bid"}),
    "team_bid": frozenset({"value", "team", "bids"}),
    "hand": frozenset({"value", "team", "points", "detail"}),
    "game": frozenset({"value", "ns_score", "ew_score", "standing", "target"}),
}


@dataclass(frozen=True)
class Template:
    """``why``: the rule applied or allowed; ``why_not``: it refused (each a text, or texts by case, the
    first the default); ``subject``: the rule as a phrase for comparisons ("a failed nil", "the winning
    total")."""
    group: str
    why: str | Mapping[str, str]
    why_not: str | Mapping[str, str]
    subject: str

    def texts(self) -> list[str]:
        return [text for side in (self.why, self.why_not)
                for text in (side.values() if isinstance(side, Mapping) else [side])]


T = Template
TEMPLATES: dict[str, Template] = {
    # deck and cards
    "deck.cards": T("plain", "the pack is {value}", "that card is not in the pack these rules play with",
                    "the pack"),
    "card.suit": T("trick", "{led_card} was led, so the trick is in {led_suit}",
                   "a card counts in the suit these rules give it, not always the one printed on it",
                   "which suit a card belongs to"),
    "card.power": T("trick", "of the cards that could win, these rules rank {value}, highest first",
                    "a lower-ranked card cannot beat a higher one", "the order of the cards"),
    "trump.suit": T("trick", "{trump} are trumps: {trumps_played}", "only {trump} are trumps", "the trump suit"),
    # deal
    "deal.hand_size": T("plain", "each player is dealt {value} cards", "a hand here has {value} cards",
                        "the number of cards dealt to each player"),
    "deal.next_dealer": T("plain", "{value} deals next", "the deal passes in the order these rules give",
                          "who deals next"),
    "deal.first_bidder": T("plain", "{value} bids first", "the bidding starts with the player these rules name",
                           "who bids first"),
    # bidding
    "bid.regular_min": T("bid", "the smallest bid here is {value}",
                         "a bid must be at least {value} here", "the smallest bid"),
    "bid.regular_max": T("bid", "the largest bid here is {value}",
                         "a bid may be at most {value} here", "the largest bid"),
    "nil.allowed": T("bid", "{seat} may bid nil", "these rules do not allow {seat} to bid nil here", "nil"),
    "blind_nil.allowed": T("bid", "{seat} may bid blind nil here",
                           {"never": "these rules do not allow blind nil at all",
                            "scores": "blind nil is allowed only at some scores, and not with {team} on {team_score} "
                                      "against {opponents} on {opponents_score}"},
                           "blind nil"),
    "blind_bid.allowed": T("bid", "{team} may bid blind {bid}",
                           {"never": "these rules do not allow a blind team bid",
                            "scores": "a blind team bid is allowed only at some scores, and not with {team} on "
                                      "{team_score} against {opponents} on {opponents_score}",
                            "number": "these rules allow a blind bid of only some numbers of tricks, not blind {bid}",
                            "number_scores": "a blind team bid is allowed only for some numbers of tricks and at "
                                             "some scores, and not blind {bid} with {team} on {team_score} against "
                                             "{opponents} on {opponents_score}",
                            "pair": "a blind bid is {team}'s bid as a side, made by both partners together "
                                    "(blind {bid}); {other_bid} beside it is not allowed"},
                           "a blind team bid"),
    "bid.team_min": T("team_bid", "{team}'s bids together must make at least {value}",
                      "{team}'s bids ({bids}) add up to too little: together they must make at least {value}",
                      "the smallest contract for a partnership"),
    "bid.team_max": T("team_bid", "{team}'s bids together may make at most {value}",
                      "{team}'s bids ({bids}) add up to too much: together they may make at most {value}",
                      "the largest contract for a partnership"),
    "bid.team_valid": T("team_bid", "{team}'s pair of bids ({bids}) is allowed",
                        "these rules do not allow {team}'s pair of bids ({bids})",
                        "which pairs of bids a partnership may make"),
    "bid.team_contract": T("team_bid", "{team} play for {value} tricks together ({bids})",
                           "{team}'s contract is worked out from both bids ({bids})",
                           "a partnership's contract"),
    "nil.partner_may_raise": T("plain", "a nil bidder's partner may raise a bid already made: {value}",
                               "a nil bidder's partner may not change a bid already made",
                               "whether a nil bidder's partner may raise"),
    "blind_nil.exchange": T("plain", "a blind nil bidder and partner swap {value} cards",
                            "no cards are swapped for blind nil here", "the cards swapped for blind nil"),
    "nil.exchange": T("plain", "a nil bidder and a partner who bid a number swap {value} cards",
                      "no cards are swapped for an ordinary nil here", "the cards swapped for a nil"),
    # play
    "play.lead": T("play", {"some": "you may lead {allowed}",
                            "broken": "you may lead any card, {trump} too: {trump_state}",
                            "only_trump": "you hold only {trump}, so you may lead one",
                            "no_trump": "you may lead any card: you hold no {trump}",
                            "all": "you may lead any card you hold"},
                   {"trump_unbroken": "{card} may not be led: {trump_state}, and {holding}",
                    "other": "{card} may not be led here; you may lead {allowed}"},
                   "which cards may be led"),
    "play.follow": T("play", {"some": "you may play {allowed}",
                              "void": "you may play any card: {led_suit} were led and you hold none",
                              "all_led": "you may play any card you hold: all are {led_suit}, the suit led",
                              "all": "you may play any card you hold"},
                     {"must_follow": "{card} may not be played: {led_suit} were led and you hold {led_suit}, "
                                     "so you must follow suit with {allowed}",
                      "other": "{card} may not be played here; you may play {allowed}"},
                     "which cards may be played to a trick"),
    "play.first_lead": T("play", {"some": "the first trick may be opened with {allowed}",
                                  "all": "any card you hold may open the first trick here"},
                         "{card} may not open the first trick; it may be opened with {allowed}",
                         "which cards may open the first trick"),
    "play.first_trick_trump": T("play", {"some": "on the first trick you may play {allowed}",
                                         "no_trump": "you hold no {trump}, so nothing is barred on the first trick",
                                         "all": "on the first trick you may play any card you hold"},
                                "{card} may not be played on the first trick: no {trump} on the first trick "
                                "while you have another card",
                                "whether trumps may be played on the first trick"),
    "play.first_trick_suit": T("play", {"some": "the first trick demands {allowed}",
                                        "all": "the first trick's demand leaves every card you hold"},
                               "{card} may not be played on the first trick: these rules demand {allowed}",
                               "what the first trick demands"),
    "trump.breaks": T("play", "{card} breaks {trump}: they may be led from now on",
                      "{card} does not break {trump}", "when trumps are broken"),
    "play.first_leader": T("plain", "{value} leads the first trick", "the first trick is led by the player these "
                           "rules name", "who leads the first trick"),
    # trick
    "trick.winner": T("trick", "{winner_card} wins the trick", "only the card these rules name wins the trick",
                      "which card wins a trick"),
    # hand scoring
    "nil.tricks_count": T("hand", "{value}", "{value}", "whether a nil bidder's tricks count toward the contract"),
    "nil.tricks_bags": T("hand", "{value}", "{value}", "whether a failed nil bidder's tricks count as bags"),
    "scoring.made": T("hand", "{team} made the contract ({detail}): it {points}",
                      "{team} did not make the contract", "a contract made"),
    "scoring.set": T("hand", "{team} were set ({detail}): it {points}", "{team} were not set", "a contract set"),
    "scoring.overtrick_points": T("hand", "the overtrick bonus ({detail}) {points}",
                                  "no overtricks, no points for them", "the overtrick bonus"),
    "scoring.bags": T("hand", "{team} add {value} bag(s) this hand", "{team} add no bags this hand", "bags"),
    "blind_bid.made": T("hand", "{team} made their blind bid ({detail}): it {points}",
                        "{team} did not make their blind bid", "a blind team bid made"),
    "blind_bid.set": T("hand", "{team} were set on their blind bid ({detail}): it {points}",
                       "{team} were not set on their blind bid", "a blind team bid set"),
    "nil.made": T("hand", "nil made ({detail}): it {points}", "the nil bidder took a trick, so nil is not made",
                  "a nil made"),
    "nil.failed": T("hand", "nil failed ({detail}): it {points}", "the nil bidder took no trick, so nil did not fail",
                    "a failed nil"),
    "blind_nil.made": T("hand", "blind nil made ({detail}): it {points}",
                        "the blind nil bidder took a trick, so blind nil is not made", "a blind nil made"),
    "blind_nil.failed": T("hand", "blind nil failed ({detail}): it {points}",
                          "the blind nil bidder took no trick, so blind nil did not fail", "a failed blind nil"),
    "bonus.last_trick": T("hand", "last-trick bonus ({detail}): it {points}", "no last-trick bonus this hand",
                          "the last-trick bonus"),
    "bags.limit": T("hand", "bags are penalised at {value}", "there is no bag penalty", "the bag limit"),
    "bags.penalty": T("hand", "too many bags ({detail}): it {points}", "{team} are below the bag limit",
                      "reaching the bag limit"),
    "bags.carry": T("hand", "{value}", "{value}", "bags beyond the limit"),
    "renege.mode": T("hand", "a called renege is settled this way: {value}",
                     "these rules have no penalty for a renege: an illegal card is simply not allowed",
                     "a called renege"),
    "renege.transfer_tricks": T("hand", "renege ({detail})", "no tricks move for a renege",
                                "tricks moved for a renege"),
    "renege.lead": T("hand", "{value}", "{value}", "whether leading a trump too early is a renege"),
    "play.irregular": T("hand", "an irregular card that is not a renege: {value}",
                        "an irregular card that is not a renege: {value}", "an irregular card that is not a renege"),
    "renege.victim_bags": T("hand", "after a renege: {detail}", "after a renege the opponents' overtricks are bags",
                            "the opponents' overtricks after a renege"),
    # game
    "game.target": T("game", "the game is played to {value}", "the game is played to {value}", "the winning total"),
    "game.target_reached": T("game", "a side has reached the target of {target} ({standing})",
                             {"short": "no side has reached the target of {target} yet ({standing})",
                              "not_past": "no side has gone past the target of {target} yet ({standing}): these "
                                          "rules end the game only on a score above the target, not on reaching it"},
                             "reaching the target"),
    "game.mercy": T("game", "the game ends early under these rules ({standing})",
                    "nothing else ends the game at {standing}", "ending the game early"),
    "game.winner": T("game", "{value} wins the game", "no winner yet: play on", "the winner"),
}
del T

# Words for a few parameter values that a template shows as {value}.
_BOOL_WORDS = {
    "nil.tricks_count": ("a nil bidder's tricks count toward the partners' contract",
                         "a nil bidder's tricks do not count toward the partners' contract"),
    "nil.tricks_bags": ("a failed nil bidder's tricks count as the partnership's bags",
                        "a failed nil bidder's tricks are not bags"),
    "renege.lead": ("leading a trump before trumps are broken is a renege",
                    "leading a trump before trumps are broken is an irregular card, not a renege"),
    "bags.carry": ("bags beyond the limit carry over", "bags start again from 0 after the penalty"),
    "nil.partner_may_raise": ("yes", "no"),
}
# ... and their words at a table where each plays alone (rule table.sides): no partners, no partnership; a
# player who bids nil has no contract besides it (005 §Cutthroat, §Two-player)
_ALONE_BOOL_WORDS = {
    "nil.tricks_count": ("a nil bidder's tricks count toward a contract, and a player alone who bids nil has "
                         "none besides",
                         "a nil bidder's tricks count toward no contract (a player alone who bids nil has none "
                         "besides)"),
    "nil.tricks_bags": ("a failed nil bidder's tricks count as the bidder's own bags",
                        "a failed nil bidder's tricks are not bags"),
}


def pretty(card: str) -> str:
    """``10H`` → ``10♥``; jokers as they are."""
    return card[:-1] + _SYMBOL[card[-1]] if len(card) > 1 and card[-1] in _SYMBOL else card


def cards_text(cards: Iterable[str]) -> str:
    text = " ".join(pretty(c) for c in cards)
    return text or "no card"


def num(n: int) -> str:
    """A number with a true minus sign."""
    return f"−{-n}" if n < 0 else str(n)


def points_text(points: int) -> str:
    """``scores 40``, ``costs 100``, ``scores nothing``."""
    return f"scores {points}" if points > 0 else f"costs {-points}" if points < 0 else "scores nothing"


def value_text(rule: str, value, alone: bool = False) -> str:
    """A rule's value in words (``alone``: at a table where each plays alone)."""
    if isinstance(value, bool):
        yes, no = (alone and _ALONE_BOOL_WORDS.get(rule)) or _BOOL_WORDS.get(rule, ("yes", "no"))
        return yes if value else no
    if isinstance(value, list):
        return cards_text(str(v) for v in value)
    if value is None:
        return "not checked"
    if isinstance(value, str) and value in C.SEATS:
        return SEAT_NAMES[value]
    return num(value) if isinstance(value, int) else str(value)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


# A bid refused by a rule whose condition has words (``conditions.when``): the condition, then the scores
# where it names them.
CONDITIONS = {"blind_nil.allowed": "blind nil is allowed only {condition}",
              "blind_bid.allowed": "a blind team bid is allowed only {condition}"}
STANDING = ": {team} are on {team_score} against {opponents} on {opponents_score}"


def condition_reason(rule: str, condition: str, facts: Mapping[str, str], scores_named: bool) -> str:
    """Why a bid is refused, in the words of the rule's condition ("blind nil is allowed only when EW are
    behind by 200 or more: EW are on 0 against NS on 0")."""
    return CONDITIONS[rule].format(condition=condition) + (STANDING.format_map(facts) if scores_named else "")


_GROUP_OF_CONTEXT = {"team_hand": "hand", "nil_hand": "hand", "bonus_hand": "hand", "bid": "bid",
                     "team_bid": "team_bid", "play": "play", "break": "play", "trick": "trick", "game": "game"}


@lru_cache(maxsize=None)
def template_of(rule: str) -> Template:
    """The rule's templates: its own (``TEMPLATES``), else made from its declaration (``Slot.doc`` and, for a
    score line, ``Slot.words``), so that a new slot has words as soon as it is declared."""
    if rule in TEMPLATES:
        return TEMPLATES[rule]
    slot = SLOTS[rule]
    group = _GROUP_OF_CONTEXT.get(slot.context, "plain")
    if group == "hand":
        return Template("hand", "{detail}: it {points}", f"no {slot.doc} this hand", slot.doc)
    return Template("plain", f"{slot.doc}: {{value}}", f"{slot.doc}: {{value}}", slot.doc)


def reason(rule: str, facts: Mapping[str, str], refused: bool = False, case: str | None = None) -> str:
    """The plain-language reason for one rule: why it applied, or (``refused``) why not."""
    template = template_of(rule)
    text = template.why_not if refused else template.why
    if isinstance(text, Mapping):
        text = text[case] if case in text else next(iter(text.values()))
    return text.format_map(facts)


# --------------------------------------------------------------------------- facts
def _suit_name(suit: str) -> str:
    return C.SUIT_NAMES["CDHS".index(suit)] if suit and suit in "CDHS" else "jokers"


def play_facts(card: str | None, allowed: list[str], hand_suits: list[str], led: str, trump: str,
               broken: bool, number: int) -> dict[str, str]:
    """Facts about a card and the hand it is played from.  Suits are letters (``CDHS``) as the variant
    counts them (``hand_suits``: one per card held); ``led`` is empty when leading."""
    trump_name = _suit_name(trump)
    return {"value": cards_text(allowed), "card": pretty(card) if card else "that card",
            "allowed": cards_text(allowed), "led_suit": _suit_name(led) if led else "nothing",
            "trump": trump_name,
            "trump_state": f"{trump_name} have been broken" if broken else f"{trump_name} are not broken yet",
            "holding": "you hold other suits" if any(s != trump for s in hand_suits) else f"you hold only {trump_name}",
            "trick_number": str(number)}


def allowed_case(rule: str, hand_suits: list[str], led: str, trump: str, broken: bool) -> str:
    """Which ``why`` text fits a play rule that left every card of the hand (suits as in ``play_facts``)."""
    if rule in ("play.lead", "play.first_trick_trump") and trump not in hand_suits:
        return "no_trump"
    if rule == "play.lead":
        return "only_trump" if all(s == trump for s in hand_suits) else "broken" if broken else "all"
    if rule == "play.follow" and led:
        return "void" if led not in hand_suits else "all_led" if all(s == led for s in hand_suits) else "all"
    return "all"


def play_case(rule: str, card_suit: str, hand_suits: list[str], led: str, trump: str, broken: bool) -> str:
    """Which ``why_not`` text fits a refused card (suits as in ``play_facts``)."""
    if rule == "play.lead" and card_suit == trump and not broken and any(s != trump for s in hand_suits):
        return "trump_unbroken"
    if rule == "play.follow" and led and led in hand_suits and card_suit != led:
        return "must_follow"
    return "other"


def trick_facts(cards: list[str], suits: list[str], trump: str, winner: str, value) -> dict[str, str]:
    """Facts about a complete trick: its cards in order and the suit each counts in."""
    trump_name = _suit_name(trump)
    trumps = [c for c, s in zip(cards, suits) if s == trump]
    return {"value": value_text("", value), "led_card": pretty(cards[0]), "led_suit": _suit_name(suits[0]),
            "trump": trump_name,
            "trumps_played": f"{cards_text(trumps)} played" if trumps else f"no {trump_name} were played",
            "winner_card": pretty(winner)}


def bid_facts(seat: str, bid: str, scores: tuple[int, ...], value, other_bid: str = "",
              table: C.Table = C.FOUR) -> dict[str, str]:
    """Facts about a seat's bid; ``other_bid`` is the other bid of the side it is judged beside
    ("South's 3"), where there is one (``table``: the sides; each alone, the opponents are the leader of the
    others)."""
    team = table.side_of(C.SEATS.index(seat))
    other = table.rival(table.padded(scores), team)
    names = table.side_names
    return {"value": value_text("", value), "seat": SEAT_NAMES[seat], "bid": bid, "team": names[team],
            "team_score": num(scores[team]), "opponents": names[other],
            "opponents_score": num(scores[other]), "other_bid": other_bid or "another bid"}


def team_bid_facts(team: str, bids: str, value) -> dict[str, str]:
    return {"value": value_text("", value), "team": team, "bids": bids}


def hand_facts(rule: str, team: str, points: int | None, detail: str, value=None,
               alone: bool = False) -> dict[str, str]:
    return {"value": value_text(rule, value, alone), "team": team,
            "points": points_text(points) if points is not None else "", "detail": detail}


Facts = tuple[tuple[str, object], ...]


def facts_key(facts: Mapping[str, object]) -> Facts:
    """A score line's facts as a hashable key (lists as tuples), for the cached reasons."""
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in facts.items())


@lru_cache(maxsize=4096)
def line_reason(rule: str, team: str, points: int, facts: Facts, bids: tuple[str, ...]) -> str:
    """The reason of a score line from the facts the score noted (``facts_key``) and the four bids in words
    (cached: a few hundred distinct lines make up most hands)."""
    return reason(rule, hand_facts(rule, team, points, hand_detail(rule, dict(facts), bids)))


def _overtricks(n: int, per: int) -> str:
    beyond = "1 overtrick, a trick won beyond the bid" if n == 1 else f"{n} overtricks, tricks won beyond the bid"
    return f"{beyond}, at {per} each"


# the score lines' facts in a player's words (the engine's short note is ``scoring.SHORT``)
PLAIN = Wording(lambda seat: SEAT_NAMES[C.SEATS[seat]], lambda card: pretty(C.card_name(card)), _overtricks,
                lambda made: "")


def hand_detail(rule: str, facts: Mapping, bids: Sequence[str]) -> str:
    """A score line's facts in a player's words: "North bid nil, took 1"."""
    return line_words(rule, facts, bids, PLAIN)


@lru_cache(maxsize=4096)
def contract_reason(team: str, bids: str, contract: int, alone: bool = False) -> str:
    """Why a partnership (or, ``alone``, a player) plays for its contract."""
    if alone:
        return f"{SEAT_NAMES[team]} plays for {value_text('', contract)} tricks ({bids})"
    return reason("bid.team_contract", team_bid_facts(team, bids, contract))


@lru_cache(maxsize=256)
def setting_reason(rule: str, team: str, value, alone: bool = False) -> str:
    """A setting of the scoring group shown in a trail (e.g. whether a nil bidder's tricks count; ``alone``: at a
    table where each plays alone, in words without partners)."""
    return reason(rule, hand_facts(rule, team, None, "", value, alone))


@lru_cache(maxsize=4096)
def game_reason(rule: str, scores: tuple[int, ...], target: int, value, case: str | None = None,
                names: tuple[str, ...] = C.TEAMS) -> str:
    """The reason of a game-end step: why the game ends, or why not yet (``case``: ``not_past`` where a
    side is on the target and these rules need a score above it; ``names``: the sides)."""
    return reason(rule, game_facts(scores, target, value, names), refused=value in (False, None), case=case)


def game_facts(scores: tuple[int, ...], target: int, value, names: tuple[str, ...] = C.TEAMS) -> dict[str, str]:
    return {"value": value_text("", value), "ns_score": num(scores[0]), "ew_score": num(scores[1]),
            "standing": ", ".join(f"{name} {num(score)}" for name, score in zip(names, scores)),
            "target": num(target)}


# --------------------------------------------------------------------------- comparisons
_FIELD_WORDS = {"points": "score {v} this hand", "score": "total {v}", "bags": "bags {v}",
                "bags_added": "{v} bag(s) added"}


def _plain_value(value) -> bool:
    """A value a sentence can show: a number, text, yes/no, nothing, or a list of cards."""
    return not isinstance(value, (dict, list)) or all(isinstance(v, str) for v in value)


def _team_field_phrase(parts: list[str], value, first: bool) -> str:
    text = _FIELD_WORDS[parts[2]].format(v=num(value) if isinstance(value, int) else value)
    return f"{parts[1]} {text}" if first else text.replace("score ", "").replace("total ", "").replace(
        " this hand", "")


# words for the answer fields that are not a team's: field -> (value, first mention) -> phrase
_FIELD_PHRASES = {
    "winner": lambda v, first: f"{SEAT_NAMES.get(v, v)} wins the trick",
    "card": lambda v, first: f"{pretty(v)} takes it" if first else pretty(v),
    "allowed": lambda v, first: "the bid is allowed" if v else "the bid is refused",
    "legal": lambda v, first: f"you may play {cards_text(v)}" if first else cards_text(v),
    "conflicts": lambda v, first: "two rules clash" if v else "no clash",
    "dead_ends": lambda v, first: "a rule allows no card of the hand" if v else "no dead end",
    "game.over": lambda v, first: "the game is over" if v else "the game goes on",
    "game.winner": lambda v, first: f"{v} wins the game" if v else "no winner",
}


def _field_phrase(path: str, value, first: bool) -> str:
    sheet = re.match(r"sheet\[(\d+)\]\.", path)     # a game's sheet: the hand it is about
    if sheet:
        phrase = _field_phrase(path[sheet.end():], value, first)
        return phrase.replace("this hand", f"in hand {int(sheet.group(1)) + 1}") if first else phrase
    parts = path.split(".")
    team = re.search(r"(?:^|\.)(NS|EW)\.(points|score|bags|bags_added)$", path)
    if team and parts[0] != "teams":      # a game's result: result.scores.NS.score
        parts = ["teams", team.group(1), team.group(2)]
    if parts[0] == "teams" and len(parts) == 3 and parts[2] in _FIELD_WORDS:
        return _team_field_phrase(parts, value, first)
    if path in _FIELD_PHRASES:
        return _FIELD_PHRASES[path](value, first)
    if isinstance(value, list):
        return f"{path} {cards_text(str(v) for v in value)}"
    return f"{path} {value_text('', value)}" if first else value_text("", value)


_FIELD_ORDER = ("points", "score", "game.over", "game.winner", "bags", "bags_added", "winner", "allowed", "legal")


def _main_field(fields: list[str]) -> str:
    for key in _FIELD_ORDER:
        for f in fields:
            if f.endswith(key):
                return f
    return fields[0]


def _rule_value(rule: str, team: str | None, ruling: Mapping, text: str):
    """A rule's value in one ruling: the points of its lines for ``team`` (or both teams), else its
    literal text, else None."""
    teams = ruling.get("teams") or {}
    points = [line["points"] for name, result in teams.items() if team in (None, name)
              for line in result["lines"] if line.get("rule") == rule]
    if points:
        return sum(points)
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d+", text or ""):
        return int(text)
    return None


def _rule_clause(rule: str, a: str, b: str, va, vb, texts: tuple[str, str],
                 reasons: tuple[str | None, str | None] = (None, None)) -> str:
    """"a failed nil costs 100 in standard and 50 in classic"."""
    slot = SLOTS[rule]
    subject = template_of(rule).subject
    if isinstance(va, bool) and isinstance(vb, bool) and slot.type == BOOL:
        return _yes_no_clause(rule, subject, a, b, va, vb)
    if isinstance(va, int) and isinstance(vb, int) and slot.type == INT:
        return _number_clause(rule, slot.context, subject, a, b, va, vb)
    if reasons[0] and reasons[1] and reasons[0] != reasons[1]:
        return f"in {a} {reasons[0]}; in {b} {reasons[1]}"
    shown = f" ({a}: {texts[0]}; {b}: {texts[1]})" if max(map(len, texts)) <= 30 else ""
    return f"{a} and {b} differ on {subject}{shown}"


def _yes_no_clause(rule: str, subject: str, a: str, b: str, va: bool, vb: bool) -> str:
    if rule in _BOOL_WORDS and _BOOL_WORDS[rule] != ("yes", "no"):
        yes_in, no_in = (a, b) if va else (b, a)
        return f"{_BOOL_WORDS[rule][0]} in {yes_in}, not in {no_in}"
    return (f"{subject} is {'allowed' if va else 'not allowed'} in {a} and "
            f"{'allowed' if vb else 'not allowed'} in {b}")


def _number_clause(rule: str, context: str, subject: str, a: str, b: str, va: int, vb: int) -> str:
    if context in ("team_hand", "nil_hand", "bonus_hand") or rule == "bags.penalty":
        if (va < 0) == (vb < 0):
            return f"{subject} {points_text(va)} in {a} and {abs(vb)} in {b}"
        return f"{subject} {points_text(va)} in {a} and {points_text(vb)} in {b}"
    return f"{subject} is {num(va)} in {a} and {num(vb)} in {b}"


def _trail_reason(rule: str, ruling: Mapping) -> str | None:
    """The reason the ruling's trail gives for ``rule`` (its first step for that rule)."""
    steps = list(ruling.get("explanation") or [])
    return next((step["reason"] for step in steps if step.get("rule") == rule and step.get("reason")), None)


def difference_sentences(difference: Mapping, rulings: Mapping[str, Mapping],
                         docs: Mapping[str, str] | None = None) -> list[str]:
    """One sentence per rule behind a difference between two rulings (or one sentence when no single
    rule explains it); ``docs`` gives each variant's document id, named after it at the head."""
    a, b = difference["variants"]
    fields = [f["field"] for f in difference["fields"]]
    docs = docs or {}
    named = {key: f"{key} ({docs[key]})" if docs.get(key) else key for key in (a, b)}
    out = []
    for rule in difference["rules"] or [None]:
        moved = [f for f in (rule["changes"] if rule else fields) if f in fields] or fields
        main = _main_field(moved)
        head = _sentence_head(difference, main, named, a, b, rulings)
        if rule is None or rule["rule"] not in TEMPLATES:
            out.append(f"{head}: several rules together make the difference.")
        else:
            out.append(f"{head}: {_rule_part(rule, main, rulings, a, b)}.")
    return out


def _sentence_head(difference: Mapping, main: str, named: Mapping[str, str], a: str, b: str,
                   rulings: Mapping[str, Mapping]) -> str:
    """"Under standard (001) NS score −59 this hand, under classic (004) −10"; where one of them gives
    no ruling (its error instead), what the other says and why that one cannot answer."""
    values = {f["field"]: f for f in difference["fields"]}[main]
    errors = {key: rulings[key]["error"]["detail"] for key in (a, b) if "error" in rulings.get(key, {})}
    if len(errors) == 2:
        return f"{named[a]} gives no ruling ({errors[a]}), nor does {named[b]} ({errors[b]})"
    silent = next(iter(errors), None)
    if silent is not None and (main.startswith("error.") or values[silent] is None):
        other = b if silent == a else a
        said = (f"Under {named[other]} {_field_phrase(main, values[other], True)}"
                if values[other] is not None and _plain_value(values[other]) else f"{named[other]} answers")
        return f"{said}; {named[silent]} gives no ruling ({errors[silent]})"
    if _plain_value(values[a]) and _plain_value(values[b]):
        return (f"Under {named[a]} {_field_phrase(main, values[a], True)}, under {named[b]} "
                f"{_field_phrase(main, values[b], False)}")
    return f"{named[a]} and {named[b]} differ on {main.replace('.', ' ').replace('_', ' ')}"   # a whole record


def _rule_part(rule: Mapping, main: str, rulings: Mapping[str, Mapping], a: str, b: str) -> str:
    """What the rule says in each book, with both clauses cited."""
    name = rule["rule"]
    team = main.split(".")[1] if main.startswith("teams.") else None
    va = _rule_value(name, team, rulings.get(a, {}), rule[a]["value"])
    vb = _rule_value(name, team, rulings.get(b, {}), rule[b]["value"])
    clause = _rule_clause(name, a, b, va, vb, (rule[a]["value"], rule[b]["value"]),
                          (_trail_reason(name, rulings.get(a, {})), _trail_reason(name, rulings.get(b, {}))))
    cites = "; ".join(dict.fromkeys(c for c in (rule[a]["cite"], rule[b]["cite"]) if c)) or "not stated"
    return f"{clause} ({cites})"
