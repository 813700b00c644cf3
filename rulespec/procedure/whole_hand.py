"""The lowered form: one whole hand, its phases in order -- the draw (where the hands are drawn from the stock, not
dealt), the kitty (the dealer takes the cards the deal left
over and discards as many), the bids (each followed by the nil bidder's partner's raise), the raise round once
every seat has bid, the exchanges (blind nil, then the nil pass), the tricks, the score -- for the back ends
that play whole hands (the Python loop, the compiled engine, the arrays).  The deal is the back end's (its own
generator); the players' decisions are its ``choose_*``.  The scalar steps (``game.hand.HandState``) take the
phases one call at a time instead, from the same functions.
"""
from __future__ import annotations

from .bidding import candidate, legal_bids, may_raise, raise_options, round_raise_options, table_of, tricks_named
from .card_play import legal, play_card, trick_winner
from .lang import (K_BLIND_NIL, K_NIL, K_PENDING, K_REGULAR, NO_BID, NONE, choose_bid, choose_card, choose_cards,
                   choose_discard, choose_keep, choose_raise, fail, inline, rule, suit_cards, zeros)
from .scoring import score_team
from .seating import next_seat, partner_bid_kind, partner_of, partnered, places, rival, seat_count, side_count, side_of


@inline
def draw_hands(hands, dealer, stock, drawn):
    """The drawn deal (``deal.draw``): from ``stock`` (the shuffled pack, its top card first) each seat in turn
    from the dealer's left looks at the top card and keeps it, the next card discarded, or discards it and
    keeps the next (its choice), until every seat holds ``deal.hand_size``; ``drawn``: each turn's choice (1:
    the top card kept).  The discards and the cards left (none where the pack is twice the hands) count for
    nobody."""
    for seat in range(seat_count()):
        hands[seat] = 0
    for turn in range(seat_count() * rule("deal.hand_size")):
        seat = next_seat(dealer, turn + 1)
        top = stock[2 * turn]
        keep = choose_keep(seat, top, hands[seat], turn)
        drawn[turn] = keep
        hands[seat] = hands[seat] | (1 << (stock[2 * turn + 1] + keep * (top - stock[2 * turn + 1])))


@inline
def take_kitty(hands, dealer, kitty):
    """The kitty (``deal.kitty``): the pack's cards no seat was dealt go to the dealer, who discards as many (its
    choice); ``kitty``: the cards taken, then the cards discarded (they count for nobody)."""
    count = rule("deal.kitty")
    if count > 0:
        left = suit_cards(0) | suit_cards(1) | suit_cards(2) | suit_cards(3)
        for seat in range(seat_count()):
            left = left & ~hands[seat]
        held = hands[dealer] | left
        discard = choose_discard(dealer, held, count)
        hands[dealer] = held & ~discard
        kitty[0] = left
        kitty[1] = discard


@inline
def bidder(first, turn, scores):
    """The seat ``turn`` places after the first bidder ``first``, its partner, its side and the side its score is
    compared with (``seating.rival``)."""
    seat = next_seat(first, turn)
    team = side_of(seat)
    return seat, partner_of(seat), team, rival(scores, team)


def bid_all(hands, dealer, scores, bags, kind, num, opening, options, raises):
    """Every seat bids in turn from the first bidder (``kind``, ``num``; ``opening``: the number bid before a
    raise); after a nil the partner who bid a number may raise it."""
    size = rule("deal.hand_size")
    first = rule("deal.first_bidder")
    for turn in range(seat_count()):
        seat, partner, team, rival_side = bidder(first, turn, scores)
        bids_made, bids_total, opponents_bids, opponents_tricks = table_of(kind, num, seat)
        count = legal_bids(options, hands[seat], seat, dealer, turn + 1, partner_bid_kind(kind, partner),
                           num[partner] if partnered() else 0, scores[team], bags[team], scores[rival_side],
                           bags[rival_side], bids_made, bids_total, opponents_bids, opponents_tricks)
        if count == 0:
            fail(NO_BID, seat)
        choice = choose_bid(seat, options, count, hands[seat], kind, num, scores)
        bid_kind, bid_n = candidate(choice, size)
        kind[seat] = bid_kind
        num[seat] = bid_n
        opening[seat] = bid_n
        if may_raise(bid_kind, partner_bid_kind(kind, partner)):
            count = raise_options(raises, num[partner], bid_kind, scores[team], bags[team], scores[rival_side],
                                  bags[rival_side])
            if count > 0:
                num[partner] = choose_raise(partner, raises, count, hands[partner])


@inline
def raise_round(hands, dealer, scores, bags, kind, num, raises):
    """The raise round once every seat has bid (``raise.by`` > 0): in bidding order, each seat with a regular
    bid that rule ``raise.allowed`` lets raise bids again, its own number or up to ``raise.by`` more."""
    if rule("raise.by") > 0:
        first = rule("deal.first_bidder")
        for turn in range(seat_count()):
            seat, partner, team, rival_side = bidder(first, turn, scores)
            if kind[seat] == K_REGULAR:
                count = round_raise_options(raises, hands[seat], seat, dealer, turn + 1,
                                            partner_bid_kind(kind, partner), num[partner] if partnered() else 0,
                                            num[seat], scores[team], bags[team], scores[rival_side],
                                            bags[rival_side])
                if count > 1:
                    num[seat] = choose_raise(seat, raises, count, hands[seat])


@inline
def passes(kind, partner_kind, code):
    """Whether a seat that bid ``kind`` (its partner ``partner_kind``) passes cards in the exchange of bid kind
    ``code``: a blind-nil bidder in the blind-nil exchange, an ordinary nil bidder whose partner bid a number in
    the nil pass."""
    return kind == code and (code == K_BLIND_NIL or partner_kind == K_REGULAR)


def exchange_count(kind, partner_kind):
    """How many cards a seat that bid ``kind`` passes to its partner (who bid ``partner_kind``) and takes back
    (0: none): ``blind_nil.exchange`` for a blind nil, ``nil.exchange`` for a nil beside a number."""
    count = 0
    if passes(kind, partner_kind, K_BLIND_NIL):
        count = rule("blind_nil.exchange")
    elif passes(kind, partner_kind, K_NIL):
        count = rule("nil.exchange")
    return count


@inline
def swap(hands, seat, partner, count, kind, gave, received):
    """``seat`` passes ``count`` cards to ``partner`` and gets as many back (chosen from the partner's hand before
    the pass; ``kind``: the bids)."""
    give = choose_cards(seat, hands[seat], count, kind)
    back = choose_cards(partner, hands[partner], count, kind)
    hands[seat] = (hands[seat] & ~give) | back
    hands[partner] = (hands[partner] & ~back) | give
    gave[seat] = give
    received[seat] = back


@inline
def pass_all(hands, kind, gave, received, code, count):
    """Each seat whose bid is of kind ``code`` and passes (``passes``) swaps ``count`` cards with its partner, in
    seat order."""
    if count > 0 and partnered():
        for seat in range(seat_count()):
            partner = partner_of(seat)
            if passes(kind[seat], kind[partner], code):
                swap(hands, seat, partner, count, kind, gave, received)


def exchange(hands, kind, gave, received):
    """The passes after the bids: each blind-nil bidder and partner exchange ``blind_nil.exchange`` cards, then
    each ordinary nil bidder whose partner bid a number and that partner ``nil.exchange`` cards."""
    pass_all(hands, kind, gave, received, K_BLIND_NIL, rule("blind_nil.exchange"))
    pass_all(hands, kind, gave, received, K_NIL, rule("nil.exchange"))


def first_leader(hands, kind, num, dealer):
    """Who leads the first trick once the bids are in (and any exchange made): rule ``play.first_leader``'s seat,
    the holder of ``play.first_leader_card`` (``play.first_leader_by``: card) or the highest bidder (high_bid: the
    first in bidding order of equal bids; nils name no tricks)."""
    by = rule("play.first_leader_by")
    leader = rule("play.first_leader")
    if by == "card":
        card = rule("play.first_leader_card")
        for seat in range(seat_count()):
            if (hands[seat] >> card) & 1 == 1:
                leader = seat
    elif by == "high_bid":
        first = rule("deal.first_bidder")
        best = -1
        for turn in range(seat_count()):
            seat = next_seat(first, turn)
            named = tricks_named(kind[seat], num[seat])
            if named > best:
                best = named
                leader = seat
    return leader


def play_tricks(hands, leader, kind, num, won, plays, leaders, winners):
    """Every trick of the hand from ``leader`` (``kind``, ``num``: the bids): each seat's legal cards, the card
    chosen, the trick settled (``plays``: each trick's cards from its leader on)."""
    size = rule("deal.hand_size")
    trump_broken = False
    played = 0
    trick = zeros(places())
    trick_seats = zeros(places())
    if seat_count() < 4:
        trick[3] = NONE
    for trick_number in range(1, size + 1):
        trick_cards = 0
        trick_led_suit = NONE
        leaders[trick_number - 1] = leader
        for trick_position in range(1, seat_count() + 1):
            leading = trick_position == 1
            seat = (leader + (trick_position - 1)) % seat_count()
            hand = hands[seat]
            allowed = legal(hand, trick_cards, trick_led_suit, trick_number, trick_position, leading, trump_broken,
                            played)
            card = choose_card(seat, allowed, trick, trick_position - 1, hand, trick_number, kind, num, won,
                               trick_cards, trick_led_suit, played)
            trump_broken, played, trick_cards, trick_led_suit = play_card(
                hands, seat, hand, card, trick, trick_seats, trick_cards, trick_led_suit, trick_number, trick_position,
                leading, trump_broken, played)
            plays[trick_number - 1, trick_position - 1] = card
        leader = trick_winner(trick, trick_seats, trick_cards, trick_led_suit, trick_number)
        won[leader] = won[leader] + 1
        winners[trick_number - 1] = leader


def whole_hand(hands, dealer, scores, bags, kind, num, opening, won, points, bags_added, bags_after, plays, leaders,
               winners, gave, received, kitty, stock, drawn, dealt, options, raises):
    """One hand from the deal ``hands`` (or, where the hands are drawn, from ``stock``: the hands drawn go to
    ``dealt``, each turn's choice to ``drawn``) to each team's score (from ``scores`` and ``bags`` before it)."""
    size = rule("deal.hand_size")
    for seat in range(places()):
        kind[seat] = K_PENDING
        num[seat] = 0
        gave[seat] = 0
        received[seat] = 0
        won[seat] = 0
    if rule("deal.draw"):
        draw_hands(hands, dealer, stock, drawn)
        for seat in range(seat_count()):
            dealt[seat] = hands[seat]
    take_kitty(hands, dealer, kitty)
    bid_all(hands, dealer, scores, bags, kind, num, opening, options, raises)
    raise_round(hands, dealer, scores, bags, kind, num, raises)
    exchange(hands, kind, gave, received)
    play_tricks(hands, first_leader(hands, kind, num, dealer), kind, num, won, plays, leaders, winners)
    last_cards = zeros(places())
    last_leader = leaders[size - 1]
    for position in range(seat_count()):
        last_cards[next_seat(last_leader, position)] = plays[size - 1, position]
    for team in range(side_count()):
        points[team], bags_added[team], bags_after[team], contract, made = score_team(
            team, kind, num, won, scores, bags, 0, False, False, True, winners[size - 1], last_cards)
