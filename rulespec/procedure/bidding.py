"""The lowered form: the bids (what a seat may bid, what a partnership may bid together, the raise).

A bid is a kind (``K_*``) and a number: a regular bid of n tricks (0: a zero, where ``bid.zero``), nil, blind
nil, or a blind team bid of n.  The candidates a seat chooses among are, in order: regular 1 to the hand
size, nil, blind nil, blind 1 to the hand size, zero (``candidate``; ``candidates``: how many).  A refusal is
the index in ``BID_RULES`` of the first rule that refuses (``NO_RULE``: none).  Besides the bidder's own rules
and its side's, ``bid.table_valid`` sees every bid so far: how many were made, the tricks they name in all and
the other side's (``table_of``).
"""
from __future__ import annotations

from .lang import (K_BLIND, K_BLIND_NIL, K_NIL, K_PENDING, K_REGULAR, NO_RULE, Note, Same, distinct, inline, note,
                   reads, rule)
from .seating import seat_count, side_of

# the rules that can refuse a bid, in the order they are asked
BID_RULES = ("bid.regular_min", "bid.regular_max", "nil.allowed", "blind_nil.allowed", "blind_bid.allowed",
             "bid.team_min", "bid.team_max", "bid.team_valid", "bid.zero", "bid.table_valid")
R_MIN, R_MAX, R_NIL, R_BLIND_NIL, R_BLIND, R_TEAM_MIN, R_TEAM_MAX, R_TEAM_VALID, R_ZERO, R_TABLE = range(10)


@inline
def ask(name: Note, unknown, hand_known):
    """Rule ``name``'s value, or ``unknown`` where it reads a hand that is not known (an answer about a
    bid without the bidder's cards)."""
    value = unknown
    if hand_known or not reads(name, "hand"):
        value = rule(name)
        note("checked", name, value)
    else:
        note("unchecked", name)
    return value


@inline
def own_refusal(kind, bid_n, hand, seat, dealer, position, partner_kind, partner_n, team_score, team_bags,
                opponents_score, opponents_bags, hand_known: Same):
    """The first of the bidder's own rules that refuses a bid of ``kind`` (and ``bid_n`` tricks)."""
    refused = NO_RULE
    if kind == K_REGULAR and bid_n == 0:
        if not rule("bid.zero"):
            refused = R_ZERO
            note("refused_kind", "bid.zero")
    elif kind == K_REGULAR:
        low = ask("bid.regular_min", 0, hand_known)
        high = ask("bid.regular_max", bid_n, hand_known)
        if bid_n < low:
            refused = R_MIN
            note("refused_range", "bid.regular_min", low, high)
        elif bid_n > high:
            refused = R_MAX
            note("refused_range", "bid.regular_max", low, high)
    elif kind == K_NIL:
        if not ask("nil.allowed", True, hand_known):
            refused = R_NIL
            note("refused_kind", "nil.allowed")
    elif kind == K_BLIND_NIL:
        if not ask("blind_nil.allowed", True, hand_known):
            refused = R_BLIND_NIL
            note("refused_kind", "blind_nil.allowed")
    elif kind == K_BLIND:
        if not ask("blind_bid.allowed", True, hand_known):
            refused = R_BLIND
            note("refused_kind", "blind_bid.allowed")
    return refused


@inline
def kind_count(a, b, code):
    """How many of two bid kinds are ``code``."""
    return (1 if a == code else 0) + (1 if b == code else 0)


@inline
def regular_sum(ka, na, kb, nb):
    """The tricks two bids name as regular bids."""
    return (na if ka == K_REGULAR else 0) + (nb if kb == K_REGULAR else 0)


def contract_of(ka, na, kb, nb, team_score, team_bags, opponents_score, opponents_bags):
    """The contract a partnership plays for: a blind team bid's number, else rule ``bid.team_contract`` of
    its regular bids (0 without one)."""
    team_regular_sum = regular_sum(ka, na, kb, nb)
    team_regular_count = kind_count(ka, kb, K_REGULAR)
    team_nil_count = kind_count(ka, kb, K_NIL)
    team_blind_nil_count = kind_count(ka, kb, K_BLIND_NIL)
    team_blind_count = kind_count(ka, kb, K_BLIND)
    contract = 0
    if team_blind_count > 0:
        contract = na if ka == K_BLIND else nb
    elif team_regular_count > 0:
        contract = rule("bid.team_contract")
    return contract


def pair_refusal(pk, pn, kind, bid_n, skip_min, team_score, team_bags, opponents_score, opponents_bags):
    """The first team rule that refuses the pair of the partner's bid (``pk``, ``pn``) and this one
    (``skip_min``: the team minimum is not asked, a nil bidder's partner may still raise)."""
    refused = NO_RULE
    if (pk == K_BLIND or kind == K_BLIND) and not (pk == K_BLIND and kind == K_BLIND and pn == bid_n):
        refused = R_BLIND
        note("blind_pair")
    else:
        team_regular_sum = regular_sum(pk, pn, kind, bid_n)
        team_regular_count = kind_count(pk, kind, K_REGULAR)
        team_nil_count = kind_count(pk, kind, K_NIL)
        team_blind_nil_count = kind_count(pk, kind, K_BLIND_NIL)
        team_blind_count = kind_count(pk, kind, K_BLIND)
        if team_regular_count > 0:
            contract = rule("bid.team_contract")
            low = rule("bid.team_min")
            high = rule("bid.team_max")
            note("checked", "bid.team_contract", contract)
            note("checked", "bid.team_min", low)
            note("checked", "bid.team_max", high)
            if contract < low and not skip_min:
                refused = R_TEAM_MIN
                note("refused_contract", "bid.team_min", low, contract)
            if contract > high:
                if refused == NO_RULE:
                    refused = R_TEAM_MAX
                note("refused_contract", "bid.team_max", high, contract)
        valid = rule("bid.team_valid")
        note("checked", "bid.team_valid", valid)
        if not valid:
            if refused == NO_RULE:
                refused = R_TEAM_VALID
            note("refused_pair", "bid.team_valid")
    return refused


@inline
def tricks_named(kind, n):
    """The tricks a bid of ``kind`` and ``n`` names (a nil or a pending bid: none)."""
    return n if kind == K_REGULAR or kind == K_BLIND else 0


@inline
def table_of(kind, num, seat):
    """The bids so far as ``bid.table_valid`` sees them from ``seat`` (``kind``, ``num``: every seat's, pending
    where not yet made): how many were made, the tricks they name, how many of the other side bid and the
    tricks it named (all 0 where the rule names none of them)."""
    bids_made = 0
    bids_total = 0
    opponents_bids = 0
    opponents_tricks = 0
    seen = (reads("bid.table_valid", "bids.made") or reads("bid.table_valid", "bids.total")
            or reads("bid.table_valid", "opponents.bids") or reads("bid.table_valid", "opponents.tricks"))
    if seen:
        for other in range(seat_count()):
            if other != seat and kind[other] != K_PENDING:
                named = tricks_named(kind[other], num[other])
                bids_made = bids_made + 1
                bids_total = bids_total + named
                if side_of(other) != side_of(seat):
                    opponents_bids = opponents_bids + 1
                    opponents_tricks = opponents_tricks + named
    return bids_made, bids_total, opponents_bids, opponents_tricks


@inline
def table_refusal(kind, bid_n, hand, seat, dealer, position, partner_kind, partner_n, team_score, team_bags,
                  opponents_score, opponents_bags, bids_made, bids_total, opponents_bids, opponents_tricks,
                  hand_known: Same):
    """Whether rule ``bid.table_valid`` refuses the bid, given every bid so far."""
    bid_tricks = tricks_named(kind, bid_n)
    refused = NO_RULE
    if not ask("bid.table_valid", True, hand_known):
        refused = R_TABLE
        note("refused_table", "bid.table_valid", bids_made, bids_total, bid_tricks)
    return refused


@inline
def bid_refusal(kind, bid_n, hand, seat, dealer, position, partner_kind, partner_n, team_score, team_bags,
                opponents_score, opponents_bags, bids_made, bids_total, opponents_bids, opponents_tricks,
                hand_known: Same):
    """The first rule that refuses ``seat``'s bid: its own rules, then (once the partner has bid) the team's,
    then the rule over every bid so far."""
    refused = own_refusal(kind, bid_n, hand, seat, dealer, position, partner_kind, partner_n, team_score, team_bags,
                          opponents_score, opponents_bags, hand_known)
    if refused == NO_RULE and partner_kind != K_PENDING:
        skip_min = (rule("nil.partner_may_raise") and (kind == K_NIL or kind == K_BLIND_NIL)
                    and partner_kind == K_REGULAR)
        refused = pair_refusal(partner_kind, partner_n, kind, bid_n, skip_min, team_score, team_bags, opponents_score,
                               opponents_bags)
    if refused == NO_RULE:
        refused = table_refusal(kind, bid_n, hand, seat, dealer, position, partner_kind, partner_n, team_score,
                                team_bags, opponents_score, opponents_bags, bids_made, bids_total, opponents_bids,
                                opponents_tricks, hand_known)
    return refused


@inline
def candidate(choice, size):
    """The bid of candidate ``choice``: its kind and number (the last candidate, ``2 * size + 2``: zero)."""
    kind = K_REGULAR if choice < size or choice == 2 * size + 2 else (
        K_NIL if choice == size else (K_BLIND_NIL if choice == size + 1 else K_BLIND))
    bid_n = choice + 1 if choice < size else (choice - size - 1 if choice > size + 1 and choice < 2 * size + 2 else 0)
    return kind, bid_n


@distinct
def legal_bids(options, hand, seat, dealer, position, partner_kind, partner_n, team_score, team_bags,
               opponents_score, opponents_bags, bids_made, bids_total, opponents_bids, opponents_tricks):
    """Which candidates ``seat`` may bid (into ``options``); returns how many.  The partner of a blind team
    bidder bids the same (and no other rule is asked)."""
    size = rule("deal.hand_size")
    count = 0
    for choice in range(2 * size + 3):
        kind, bid_n = candidate(choice, size)
        if partner_kind == K_BLIND:
            ok = kind == K_BLIND and bid_n == partner_n
        else:
            ok = bid_refusal(kind, bid_n, hand, seat, dealer, position, partner_kind, partner_n, team_score,
                             team_bags, opponents_score, opponents_bags, bids_made, bids_total, opponents_bids,
                             opponents_tricks, True) == NO_RULE
        options[choice] = ok
        count = count + (1 if ok else 0)
    return count


@distinct
def raise_options(options, partner_n, kind, team_score, team_bags, opponents_score, opponents_bags):
    """The numbers a nil bidder's partner who bid ``partner_n`` may raise to (``options[n]``), beside the nil
    bid of ``kind``; returns how many."""
    size = rule("deal.hand_size")
    count = 0
    options[0] = False
    for value in range(1, size + 1):
        ok = value >= partner_n
        if ok:
            ok = pair_refusal(K_REGULAR, value, kind, 0, False, team_score, team_bags, opponents_score,
                              opponents_bags) == NO_RULE
        options[value] = ok
        count = count + (1 if ok else 0)
    return count


@distinct
def round_raise_options(options, hand, seat, dealer, position, partner_kind, partner_n, bid_n, team_score, team_bags,
                        opponents_score, opponents_bags):
    """The numbers ``seat``, whose regular bid is ``bid_n``, may bid in the raise round once every seat has bid
    (``options[n]``, its own bid included): up to ``raise.by`` more where rule ``raise.allowed`` lets it, each
    a regular bid its own rules and its side's allow; returns how many (0: it may not raise)."""
    size = rule("deal.hand_size")
    count = 0
    allowed = rule("raise.allowed")
    top = bid_n + rule("raise.by")
    for value in range(size + 1):
        ok = allowed and value >= bid_n and value <= top
        if ok and value > bid_n:
            ok = own_refusal(K_REGULAR, value, hand, seat, dealer, position, partner_kind, partner_n, team_score,
                             team_bags, opponents_score, opponents_bags, True) == NO_RULE
        if ok and value > bid_n and partner_kind != K_PENDING:
            ok = pair_refusal(partner_kind, partner_n, K_REGULAR, value, False, team_score, team_bags,
                              opponents_score, opponents_bags) == NO_RULE
        options[value] = ok
        count = count + (1 if ok else 0)
    return count


def may_raise(kind, partner_kind):
    """Whether a seat's bid of ``kind`` lets its partner, who bid ``partner_kind``, raise that bid."""
    return rule("nil.partner_may_raise") and (kind == K_NIL or kind == K_BLIND_NIL) and partner_kind == K_REGULAR
