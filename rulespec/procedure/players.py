"""The lowered form: the sensible player, a function for each of ``whole_hand``'s decisions (``choose_*``).

Every back end plugs these into its holes (the compiled engine's ``_choose_*``, the array engine's choosers,
the scalar ``policies.SensiblePolicy``), so the same deal gets the same bids and cards on every engine.  The
player is deterministic: it draws no random numbers, and it reads only what a seat at the table knows (its
own cards, the bids, the tricks won, the trick being played, the scores).

Bids: a count of the hand's tricks in half tricks (``hand_value``): the ace of a side suit, a guarded king,
half a trick for a queen with two guards; the ace, king and queen of trumps where long enough to keep them,
every trump past the third, and ruffs (a short side suit while trumps are left over); nil with a hand that
counts less than one and a half tricks and holds no high card it cannot shed, unless the partner bid nil;
blind nil where the rules offer it while the side is ``BLIND_BEHIND`` or more behind.  The regular bid
nearest the count (rounded down; the lower of two), else the first legal bid.  A raise: the smallest allowed.
A dealer with a kitty discards its lowest cards, side suits before trumps.  Drawing from the stock, it keeps
the card it has looked at where it is a trump or one of its suit's top ``KEEP_PLACE`` cards, else takes the next.

Play: a seat that still needs tricks (for its side's contract, to set the opponents' while theirs is open, or
to cover its partner's clean nil) leads the top card left of a side suit (else its lowest side-suit card, else
its top trump) and, following, wins as cheaply as it can unless its partner already holds the trick (a nil's
partner overtakes it then); a nil bidder, or a seat whose side and opponents have both taken their bids, leads
its lowest card and sheds its highest card that loses.  Against an opponent's clean nil (its own side's nil
being clean comes first) it plays its lowest card, and where the nil bidder holds the trick its highest card
that leaves it there.
Cards are ordered side suits first, then by power, then by id.
"""
from __future__ import annotations

from .bidding import candidate
from .card_play import winner_card
from .lang import (K_BLIND, K_BLIND_NIL, K_NIL, K_REGULAR, NONE, Same, inline, place_of, popcount, power_of, rule,
                   suit_cards, suit_of, zeros)
from .seating import (next_seat, partner_bid_kind, partner_of, partner_value, partnered, rival, seat_count,
                      second_member, side_count, side_of)

PACK_IDS = 54           # card ids (``core.cards.NUM_CARDS``): a loop over cards runs over these
BLIND_BEHIND = 100      # points behind at which the sensible player bids blind nil where it may
TOP = 1073741824        # above every order key (2 ** 30)
KEEP_PLACE = 3          # drawing, a side card among its suit's top three (ace, king, queen) is kept


@inline
def order_key(card, trump):
    """Where ``card`` stands in the sensible player's order: side suits before trumps, then power, then id."""
    return (1 if suit_of(card) == trump else 0) * 65536 + (power_of(card) + 256) * 64 + card


@inline
def is_nil(kind):
    return kind == K_NIL or kind == K_BLIND_NIL


@inline
def card_value(place, length, trump_suit):
    """What a card ``place`` from the top of its suit, held ``length`` long, counts (half tricks), and whether
    it keeps a nil from being safe."""
    half = 0
    unsafe = False
    if trump_suit:
        if place < 3 and length > place:
            half = 2
        unsafe = place < 6
    else:
        if place == 0 or (place == 1 and length >= 2):
            half = 2
        if place == 2 and length >= 3:
            half = 1
        unsafe = place < 2 or (place == 2 and length < 4)
    return half, unsafe


@inline
def shape_value(hand, trump):
    """The half tricks of a hand's trumps past the third and of its ruffs (short side suits, while trumps are
    left over), and how many trumps it holds."""
    trumps = popcount(hand & suit_cards(trump))
    short = 0
    for suit in range(4):
        if suit != trump:
            short = short + max(2 - popcount(hand & suit_cards(suit)), 0)
    return 2 * max(trumps - 3, 0) + min(short, 2 * max(trumps - 2, 0)), trumps


def hand_value(hand):
    """The tricks ``hand`` counts for the sensible player, in half tricks, and whether it is safe for nil."""
    trump = rule("trump.suit")
    half, trumps = shape_value(hand, trump)
    safe = trumps <= 3
    for card in range(PACK_IDS):
        if ((hand >> card) & 1) == 1:
            suit = suit_of(card)
            if suit >= 0 and suit < 4:
                counted, unsafe = card_value(place_of(card), popcount(hand & suit_cards(suit)), suit == trump)
                half = half + counted
                if unsafe:
                    safe = False
    return half, safe and half < 3


def sensible_bid(seat, options, count, hand, kind, num, scores):
    """The sensible player's bid: the index of a true entry of ``options`` (see the module's text)."""
    size = rule("deal.hand_size")
    half, safe = hand_value(hand)
    want = half // 2
    partner = partner_of(seat)
    team = side_of(seat)
    behind = scores[rival(scores, team)] - scores[team]
    partner_nil = is_nil(partner_bid_kind(kind, partner))
    choice = NONE
    gap = TOP
    first = NONE
    nil = NONE
    blind_nil = NONE
    for option in range(2 * size + 3):
        bid_kind, bid_n = candidate(option, size)
        if options[option] != 0:
            if first == NONE:
                first = option
            if bid_kind == K_REGULAR:
                off = max(bid_n - want, want - bid_n)
                if off < gap:
                    choice = option
                    gap = off
            if bid_kind == K_NIL:
                nil = option
            if bid_kind == K_BLIND_NIL:
                blind_nil = option
    if safe and nil != NONE and not partner_nil:
        choice = nil
    if blind_nil != NONE and behind >= BLIND_BEHIND and not partner_nil:
        choice = blind_nil
    if choice == NONE:
        choice = first
    return choice


def sensible_raise(seat, options, count, hand):
    """The sensible player's raise beside its partner's nil: the smallest value allowed."""
    size = rule("deal.hand_size")
    choice = NONE
    for value in range(size + 1):
        if options[value] != 0 and choice == NONE:
            choice = value
    return choice


@inline
def picked(hand, count, high):
    """``count`` cards of ``hand`` taken one by one in the order of ``order_key``: its highest where ``high``,
    else its lowest."""
    trump = rule("trump.suit")
    out = 0
    for turn in range(count):
        pick = NONE
        pick_key = 0
        for card in range(PACK_IDS):
            if ((hand >> card) & 1) == 1 and ((out >> card) & 1) == 0:
                key = order_key(card, trump)
                if pick == NONE or (key > pick_key if high else key < pick_key):
                    pick = card
                    pick_key = key
        out = out | (1 << pick)
    return out


def sensible_cards(seat, hand, count: Same, kind):
    """The cards the sensible player passes in the blind-nil exchange: a nil bidder its highest, its partner
    its lowest."""
    return picked(hand, count, is_nil(kind[seat]))


def sensible_discard(seat, hand, count: Same):
    """The cards the sensible dealer discards from its hand and the kitty: its lowest, side suits before trumps
    (the order of ``order_key``)."""
    return picked(hand, count, False)


def sensible_keep(seat, card, hand, turn: Same):
    """Whether the sensible player keeps the stock's top card (1) or takes the next one unseen (0): it keeps a
    trump or a side card among its suit's top ``KEEP_PLACE``.  Any other card is worth less than the next
    card on average: of a 52-card pack 22 cards are trumps or such side cards, so the next card is one of them
    four times in ten, and else no worse than a low side card."""
    keep = 0
    if suit_of(card) == rule("trump.suit") or place_of(card) < KEEP_PLACE:
        keep = 1
    return keep


@inline
def wants_tricks(seat, kind, num, won):
    """Whether ``seat``'s side still needs tricks for its contract (a nil bidder never does)."""
    partner = partner_of(seat)
    mine = kind[seat]
    together = mine == K_REGULAR and partner_bid_kind(kind, partner) == K_REGULAR
    contract = num[seat] + (partner_value(num, partner) if together else 0)
    taken = won[seat] + (partner_value(won, partner) if together or mine == K_BLIND else 0)
    return (mine == K_REGULAR or mine == K_BLIND) and taken < contract


@inline
def bid_open(team, kind, num, won):
    """Whether ``team``'s bid tricks are not all taken yet (its nil bidders' bids and tricks left out)."""
    first = 0 if is_nil(kind[team]) else 1
    second = 0 if is_nil(partner_bid_kind(kind, second_member(team))) else 1
    return (won[team] * first + partner_value(won, second_member(team)) * second
            < num[team] * first + partner_value(num, second_member(team)) * second)


@inline
def suit_tops(played):
    """The top card left of each suit (``NONE``: none left), from the cards not yet played."""
    tops = zeros(4)
    for suit in range(4):
        tops[suit] = NONE
    for card in range(PACK_IDS):
        if ((played >> card) & 1) == 0:
            suit = suit_of(card)
            if suit >= 0 and suit < 4:
                if tops[suit] == NONE or power_of(card) > power_of(tops[suit]):
                    tops[suit] = card
    return tops


@inline
def lead_card(allowed, played, trump, low):
    """The card a seat that wants tricks leads: the top card left of a side suit, else its lowest side-suit
    card (toward the partner), else (trumps only) its highest trump if it is the top one left, else ``low``."""
    tops = suit_tops(played)
    master = NONE
    side = NONE
    side_key = TOP
    for card in range(PACK_IDS):
        if ((allowed >> card) & 1) == 1:
            suit = suit_of(card)
            if suit >= 0 and suit < 4:
                if tops[suit] == card and (suit != trump or master == NONE):
                    master = card
                key = order_key(card, trump)
                if suit != trump and key < side_key:
                    side = card
                    side_key = key
    choice = master
    if choice == NONE:
        choice = side
    if choice == NONE:
        choice = low
    return choice


@inline
def holder_of(seat, trick, position, trick_cards, trick_led_suit, number):
    """The seat whose card holds the trick so far (``NONE`` when leading)."""
    holder = NONE
    if position > 0:
        best = winner_card(trick_cards, trick_led_suit, number, trick[0])
        for k in range(seat_count()):
            if k < position and trick[k] == best:
                holder = (seat + seat_count() - position + k) % seat_count()
    return holder


@inline
def follow_cards(allowed, trick, position, trick_cards, trick_led_suit, number, trump):
    """Of the cards ``allowed``: the lowest; following, the lowest that would win the trick, the highest and
    the lowest that would not (``NONE`` each where there is none)."""
    low = NONE
    low_key = TOP
    win = NONE
    win_key = TOP
    shed = NONE
    shed_key = 0
    keep = NONE
    keep_key = TOP
    for card in range(PACK_IDS):
        if ((allowed >> card) & 1) == 1:
            key = order_key(card, trump)
            if key < low_key:
                low = card
                low_key = key
            if position > 0:
                if winner_card(trick_cards | (1 << card), trick_led_suit, number, trick[0]) == card:
                    if key < win_key:
                        win = card
                        win_key = key
                else:
                    if key > shed_key:
                        shed = card
                        shed_key = key
                    if key < keep_key:
                        keep = card
                        keep_key = key
    return low, win, shed, keep


@inline
def clean_nil(seat, kind, won):
    """Whether ``seat`` bid nil (or blind nil) and has taken no trick yet."""
    return is_nil(kind[seat]) and won[seat] == 0


@inline
def playing_for(seat, kind, num, won):
    """Whether ``seat`` covers its partner's clean nil, and whether it plays to take tricks (for its contract,
    to set the opponents', or to cover)."""
    covering = partnered() and clean_nil(partner_of(seat), kind, won) and not is_nil(kind[seat])
    short = wants_tricks(seat, kind, num, won)
    open_against = False
    if partnered() and seat_count() == 4:
        open_against = bid_open(1 - seat % 2, kind, num, won)
    else:
        for k in range(1, side_count()):
            if bid_open((side_of(seat) + k) % side_count(), kind, num, won):
                open_against = True
    return covering, short or covering or (open_against and not is_nil(kind[seat]))


@inline
def against_nil(seat, kind, won, covering, holder):
    """Whether ``seat`` plays to set an opponent's clean nil (where its own side has none to keep), and whether
    that nil bidder holds the trick so far."""
    attacking = False
    if partnered() and seat_count() == 4:
        attacking = not covering and not is_nil(kind[seat]) and (clean_nil((seat + 1) % 4, kind, won)
                                                                 or clean_nil((seat + 3) % 4, kind, won))
    else:
        for k in range(1, seat_count()):
            opponent = not partnered() or k != seat_count() // 2
            attacking = attacking or (opponent and not covering and not is_nil(kind[seat])
                                      and clean_nil(next_seat(seat, k), kind, won))
    nil_holds = (holder != NONE and side_of(holder) != side_of(seat)
                 and clean_nil((holder + seat_count()) % seat_count(), kind, won))
    return attacking, nil_holds


def sensible_card(seat, allowed, trick, position: Same, hand, number: Same, kind, num, won, trick_cards,
                  trick_led_suit, played):
    """The sensible player's card from ``allowed`` (see the module's text)."""
    trump = rule("trump.suit")
    partner = partner_of(seat)
    covering, wants = playing_for(seat, kind, num, won)
    holder = holder_of(seat, trick, position, trick_cards, trick_led_suit, number)
    attacking, nil_holds = against_nil(seat, kind, won, covering, holder)
    low, win, shed, keep = follow_cards(allowed, trick, position, trick_cards, trick_led_suit, number, trump)
    card = low
    if attacking:
        if nil_holds and shed != NONE:
            card = shed
    elif position == 0:
        if wants:
            card = lead_card(allowed, played, trump, low)
    elif wants and win != NONE and (holder != partner or covering):
        card = win
    elif keep != NONE:
        card = keep if wants else shed
    return card


def bid_candidate(choice):
    """Candidate bid ``choice`` as its kind and number (for a player outside the form)."""
    bid_kind, bid_n = candidate(choice, rule("deal.hand_size"))
    return bid_kind, bid_n
