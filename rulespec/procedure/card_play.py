"""The lowered form: the card play of a hand (a seat's legal cards, a card played, a trick settled).

Every back end plays cards from these functions (``procedure`` says how they are lowered); the
variables are named after the rule contexts' names, so each ``rule(...)`` finds its arguments.
"""
from __future__ import annotations

from .lang import BAD_WINNER, NO_RULE, NONE, Note, Same, fail, inline, note, permits_hand, rule, suit_of
from .seating import trick_places


@inline
def narrow(allowed, hand, permitted, constraint: Note, card, index, refused):
    """``allowed`` narrowed by a play constraint that permits ``permitted``, unless it would leave no card:
    a constraint that allows none of the hand is a dead end, one that allows none of what the earlier
    ones left is a conflict (the earlier rule stands).  ``refused``: the first constraint applied that
    excludes ``card`` (its ``index`` in ``schema.PLAY_CONSTRAINTS``), when a card is asked about."""
    narrowed = allowed & permitted          # (allowed is a part of the hand)
    held = permitted & hand
    if held != hand:
        if held == 0:
            note("dead_end", constraint)
        elif narrowed == 0:
            note("conflict", constraint, held)
        else:
            note("applied", constraint, held)
            if card != NONE and refused == NO_RULE and (held >> card) & 1 == 0:
                refused = index
    if narrowed != 0:
        allowed = narrowed
    return allowed, refused


@inline
def legal_excluding(hand, card, trick_cards, trick_led_suit, trick_number, trick_position, leading, trump_broken,
                    played):
    """The cards ``hand`` may play (the play constraints that apply, in priority order), and the first
    constraint that excludes ``card`` (``NO_RULE``: none, or no card asked about: ``NONE``)."""
    allowed = hand
    refused = NO_RULE
    if leading:
        allowed, refused = narrow(allowed, hand, rule("play.lead"), "play.lead", card, 0, refused)
    else:
        allowed, refused = narrow(allowed, hand, rule("play.follow"), "play.follow", card, 1, refused)
    if trick_number == 1:       # (a constraint that permits the whole hand changes nothing)
        if leading and not permits_hand("play.first_lead"):
            allowed, refused = narrow(allowed, hand, rule("play.first_lead"), "play.first_lead", card, 2, refused)
        if not permits_hand("play.first_trick_trump"):
            allowed, refused = narrow(allowed, hand, rule("play.first_trick_trump"), "play.first_trick_trump", card,
                                      3, refused)
        if not permits_hand("play.first_trick_suit"):
            allowed, refused = narrow(allowed, hand, rule("play.first_trick_suit"), "play.first_trick_suit", card,
                                      4, refused)
    return allowed, refused


def legal(hand, trick_cards, trick_led_suit, trick_number: Same, trick_position: Same, leading: Same,
          trump_broken, played):
    """The cards ``hand`` may play: the play constraints that apply, in priority order (``schema.PLAY_CONSTRAINTS``)."""
    allowed, refused = legal_excluding(hand, NONE, trick_cards, trick_led_suit, trick_number, trick_position, leading,
                                       trump_broken, played)
    return allowed


def forbidding(hand, card, trick_cards, trick_led_suit, trick_number: Same, trick_position: Same, leading: Same,
               trump_broken, played):
    """The first play constraint that excludes ``card`` from ``hand``'s legal cards (``NO_RULE``: none)."""
    allowed, refused = legal_excluding(hand, card, trick_cards, trick_led_suit, trick_number, trick_position, leading,
                                       trump_broken, played)
    return refused


def legal_forbidding(hand, card, trick_cards, trick_led_suit, trick_number: Same, trick_position: Same, leading: Same,
                     trump_broken, played):
    """``legal`` and ``forbidding`` in one pass: the cards ``hand`` may play and the first play constraint that
    excludes ``card`` (``NO_RULE``: none)."""
    allowed, refused = legal_excluding(hand, card, trick_cards, trick_led_suit, trick_number, trick_position, leading,
                                       trump_broken, played)
    return allowed, refused


@inline
def breaks(card, hand, leading, trick_led_suit, trick_number):
    """Whether playing ``card`` breaks trumps."""
    return rule("trump.breaks")


@inline
def winner_card(trick_cards, trick_led_suit, trick_number, trick_lead):
    """The card rule ``trick.winner`` names in a complete trick."""
    return rule("trick.winner")


def play_card(hands, seat, hand, card, trick, trick_seats, trick_cards, trick_led_suit, trick_number: Same,
              trick_position: Same, leading: Same, trump_broken, played):
    """``seat`` plays ``card`` from its ``hand``: trumps may break, the card leaves the hand and joins the trick.
    Returns whether trumps are broken, the cards played, the trick's cards and the suit led."""
    trump_broken = trump_broken or breaks(card, hand, leading, trick_led_suit, trick_number)
    bit = 1 << card
    hands[seat] = hand & ~bit
    played = played | bit
    trick_cards = trick_cards | bit
    trick[trick_position - 1] = card
    trick_seats[trick_position - 1] = seat
    if leading:
        trick_led_suit = suit_of(card)
    return trump_broken, played, trick_cards, trick_led_suit


@inline
def winner_place(trick, trick_cards, trick_led_suit, trick_number):
    """Where in the complete trick the card rule ``trick.winner`` names is (``NONE``: the rule named a card that
    is not in the trick)."""
    win = winner_card(trick_cards, trick_led_suit, trick_number, trick[0])
    place = NONE
    for position in trick_places():
        if trick[position] == win:
            place = position
    return place


def trick_winner(trick, trick_seats, trick_cards, trick_led_suit, trick_number: Same):
    """The seat that played the card rule ``trick.winner`` names in the complete trick (it leads next)."""
    place = winner_place(trick, trick_cards, trick_led_suit, trick_number)
    if place == NONE:
        fail(BAD_WINNER, winner_card(trick_cards, trick_led_suit, trick_number, trick[0]))
    return trick_seats[place]
