"""The lowered form: a hand's score (reneges, each partnership's contract, overtricks, nils, the last
trick's bonus, bags and their penalty) and whether the game is over.

Each score line is a ``note("line", rule, points, fact=value, ...)``: the rule that gave the points and
the facts they were worked out from (the words are the explaining back end's, ``game.scoring``).
"""
from __future__ import annotations

from .bidding import contract_of
from .lang import (K_BLIND, K_BLIND_NIL, K_NIL, K_REGULAR, NONE, RENEGE_BOTH, RENEGE_UNDEFINED, Same, fail, inline,
                   note, rule)
from .seating import partner_bid_kind, partner_value, partnered, rival, second_member, side_count, side_of


def renege_transfers(won, reneges, count: Same, adjust, offenders):
    """The tricks each partnership gains (or loses) by the ``count`` reneges (their seats, in order) in
    transfer mode (into ``adjust``), and which partnerships reneged (``offenders``); returns whether the reneges
    forfeit the hand (forfeit mode: the offenders are set, the other side makes its bid)."""
    mode = rule("renege.mode")
    for side in range(side_count()):
        adjust[side] = 0
        offenders[side] = False
    for i in range(count):
        seat = reneges[i]
        if seat != NONE:
            if mode == "none":
                fail(RENEGE_UNDEFINED, seat)
            off = side_of(seat)
            offenders[off] = True
            if mode == "transfer":
                moved = min(rule("renege.transfer_tricks"),
                            won[off] + partner_value(won, second_member(off)) + adjust[off])
                adjust[off] = adjust[off] - moved
                adjust[1 - off] = adjust[1 - off] + moved
    sides_off = 0
    for side in range(side_count()):
        sides_off = sides_off + (1 if offenders[side] else 0)
    if mode == "forfeit" and sides_off > 1:
        fail(RENEGE_BOTH, 0)
    return mode == "forfeit" and sides_off > 0


@inline
def is_nil(kind):
    """Whether a bid of ``kind`` is a nil or a blind nil."""
    return kind == K_NIL or kind == K_BLIND_NIL


@inline
def tricks_of(won, a, b, nil_a, nil_b, adjust, has_contract, offender, victim, team_contract):
    """The partnership's tricks as the rules count them: its nil bidders', its other partners', all of them,
    those toward the contract (``adjust``: moved by a transfer renege), whether the contract is made (a forfeit
    renege decides it: ``offender``, ``victim``), whether overtricks count and how many there are."""
    team_nil_tricks = (won[a] if nil_a else 0) + (won[b] if nil_b else 0)
    team_regular_tricks = won[a] + (won[b] if partnered() else 0) - team_nil_tricks
    team_tricks = team_regular_tricks + team_nil_tricks
    team_won = team_regular_tricks + (team_nil_tricks if rule("nil.tricks_count") else 0) + adjust
    team_made = has_contract and not offender and (victim or team_won >= team_contract)
    counts_overtricks = team_made or not (has_contract or offender)
    beyond = team_regular_tricks + (team_nil_tricks if rule("nil.tricks_bags") else 0) + adjust - team_contract
    team_overtricks = max(0, beyond) if counts_overtricks else 0
    return team_nil_tricks, team_regular_tricks, team_tricks, team_won, team_made, counts_overtricks, team_overtricks


@inline
def nils_of(won, a, b, nil_a, nil_b, offender):
    """The partnership's nil and blind-nil bids, and how many of them succeed (none, after its forfeit renege)."""
    team_nil_count = (1 if nil_a else 0) + (1 if nil_b else 0)
    team_nil_made = 0 if offender else (1 if nil_a and won[a] == 0 else 0) + (1 if nil_b and won[b] == 0 else 0)
    return team_nil_count, team_nil_made


@inline
def last_trick_of(team, a, b, nil_a, nil_b, last_winner, last_cards):
    """The last trick as the partnership sees it: whether it won it, the winning card, the cards its partners
    played to it and of those its nil bidders' (cards by seat: ``last_cards``)."""
    last_trick_won = side_of(last_winner) == team
    last_trick_winning_card = last_cards[last_winner]
    last_trick_team_cards = (1 << last_cards[a]) | ((1 << last_cards[b]) if partnered() else 0)
    last_trick_nil_cards = ((1 << last_cards[a]) if nil_a else 0) | ((1 << last_cards[b]) if nil_b else 0)
    return last_trick_won, last_trick_winning_card, last_trick_team_cards, last_trick_nil_cards


@inline
def bag_penalties(total):
    """The points the bags cost (each time they reach the limit) and the bags left after it."""
    limit = rule("bags.limit")
    points = 0
    if limit > 0:
        hits = 0
        if rule("bags.carry"):
            hits = total // limit
        elif total >= limit:
            hits = 1
        for k in range(hits):
            note("line", "bags.penalty", rule("bags.penalty"), total=total - k * limit, limit=limit)
        points = hits * rule("bags.penalty")
        total = total - hits * limit if rule("bags.carry") else (0 if hits > 0 else total)
    return points, total


@inline
def contract_points(has_contract, offender, victim, team_score, team_bags, opponents_score, opponents_bags,
                    team_contract, team_blind, team_tricks, team_regular_tricks, team_nil_tricks, team_won, team_made,
                    team_overtricks, team_nil_count, team_nil_made):
    """The points of the partnership's contract, made or set (blind or not), and of its overtricks (the rest
    of its parameters are the ``team_hand`` context's names, which the rules read)."""
    points = 0
    if has_contract:
        if team_blind:
            points = rule("blind_bid.made") if team_made else rule("blind_bid.set")
            note("line", "blind_bid.made" if team_made else "blind_bid.set", points, blind=True,
                 contract=team_contract, won=team_won, made=team_made, offender=offender, victim=victim)
        else:
            points = rule("scoring.made") if team_made else rule("scoring.set")
            note("line", "scoring.made" if team_made else "scoring.set", points, blind=False,
                 contract=team_contract, won=team_won, made=team_made, offender=offender, victim=victim)
    per = rule("scoring.overtrick_points") if team_overtricks != 0 else 0
    if per != 0:
        points = points + per * team_overtricks
        note("line", "scoring.overtrick_points", per * team_overtricks, over=team_overtricks, per=per,
             contract=has_contract, nil_tricks=team_nil_tricks, alone=not partnered())
    return points


@inline
def nil_points(seat, player_blind, player_tricks, offender, team_score, team_bags, opponents_score, opponents_bags,
               team_contract, team_blind, team_tricks, team_regular_tricks, team_nil_tricks, team_won, team_made,
               team_overtricks, team_nil_count, team_nil_made):
    """The points of ``seat``'s nil or blind nil (``player_blind``), made if it took no trick and its side did not
    renege (a forfeit)."""
    made = player_tricks == 0 and not offender
    if player_blind:
        points = rule("blind_nil.made") if made else rule("blind_nil.failed")
        note("line", "blind_nil.made" if made else "blind_nil.failed", points, seat=seat, blind=True,
             tricks=player_tricks)
    else:
        points = rule("nil.made") if made else rule("nil.failed")
        note("line", "nil.made" if made else "nil.failed", points, seat=seat, blind=False, tricks=player_tricks)
    return points


@inline
def side_members(kind, team):
    """The side's seats (``a`` and ``b``; ``b`` is ``a`` where each plays alone) and the kind of ``b``'s bid as the
    partner's (``K_PENDING`` alone: no partner's bid counts)."""
    a = team
    b = second_member(team)
    kind_b = partner_bid_kind(kind, b)
    return a, b, kind_b


@inline
def side_seats(a, b):
    """The seats that score for the side: both partners, or the player alone."""
    return (a, b) if rule("table.sides") == "partners" else (a,)


def score_team(team: Same, kind, num, won, scores, bags, adjust, offender, victim, has_last: Same, last_winner,
               last_cards):
    """One partnership's hand: its points, the bags it adds, its bags after the hand, its contract and whether
    it made it (false without a contract).
    ``adjust``: tricks moved by a transfer renege; ``offender``/``victim``: a forfeit renege by this side or the other;
    ``last_cards``: the last trick's cards by seat (``has_last``: known), won by ``last_winner``."""
    a, b, kind_b = side_members(kind, team)
    team_score = scores[team]
    team_bags = bags[team]
    rival_side = rival(scores, team)
    opponents_score = scores[rival_side]
    opponents_bags = bags[rival_side]
    team_blind = kind[a] == K_BLIND or kind_b == K_BLIND
    has_contract = team_blind or kind[a] == K_REGULAR or kind_b == K_REGULAR
    team_contract = contract_of(kind[a], num[a], kind_b, partner_value(num, b), team_score, team_bags,
                                opponents_score, opponents_bags)
    nil_a = is_nil(kind[a])
    nil_b = is_nil(kind_b)
    team_nil_tricks, team_regular_tricks, team_tricks, team_won, team_made, counts_overtricks, team_overtricks = \
        tricks_of(won, a, b, nil_a, nil_b, adjust, has_contract, offender, victim, team_contract)
    team_nil_count, team_nil_made = nils_of(won, a, b, nil_a, nil_b, offender)
    if adjust != 0:
        note("line", "renege.transfer_tricks", 0, moved=adjust)
    points = contract_points(has_contract, offender, victim, team_score, team_bags, opponents_score, opponents_bags,
                             team_contract, team_blind, team_tricks, team_regular_tricks, team_nil_tricks, team_won,
                             team_made, team_overtricks, team_nil_count, team_nil_made)
    for seat in side_seats(a, b):
        if is_nil(kind[seat]):
            points = points + nil_points(seat, kind[seat] == K_BLIND_NIL, won[seat], offender, team_score, team_bags,
                                         opponents_score, opponents_bags, team_contract, team_blind, team_tricks,
                                         team_regular_tricks, team_nil_tricks, team_won, team_made, team_overtricks,
                                         team_nil_count, team_nil_made)
    if has_last:
        last_trick_won, last_trick_winning_card, last_trick_team_cards, last_trick_nil_cards = \
            last_trick_of(team, a, b, nil_a, nil_b, last_winner, last_cards)
        bonus = rule("bonus.last_trick")
        if bonus != 0:
            points = points + bonus
            note("line", "bonus.last_trick", bonus, winner=last_winner, card=last_trick_winning_card, team=team,
                 cards=last_cards, seats=(a, b), nils=(nil_a, nil_b) if partnered() else (nil_a,))
    added = rule("scoring.bags") if counts_overtricks else 0
    if (victim or adjust > 0) and not rule("renege.victim_bags"):
        if added != 0:
            note("line", "renege.victim_bags", 0, bags=added)
        added = 0
    penalty, total = bag_penalties(team_bags + added)
    return points + penalty, added, total, team_contract, team_made


@inline
def standings(scores):
    """The highest score, the lowest, the leader's margin over the next side and the side alone at the top
    (``NONE``: tied for it)."""
    high_side = 0 if scores[0] > scores[1] else (1 if scores[1] > scores[0] else NONE)
    high_score = max(scores[0], scores[1])
    second = min(scores[0], scores[1])
    low_score = second
    for side in range(2, side_count()):
        score = scores[side]
        above = score > high_score
        level = score == high_score
        between = score > second and not above and not level
        if above:
            second = high_score
            high_score = score
            high_side = side
        if level:
            second = score
            high_side = NONE
        if between:
            second = score
        low_score = min(low_score, score)
    return high_score, low_score, high_score - second, high_side


def game_end(scores, bags, hands, contracts, made, sets, streaks):
    """Whether the game is over after a hand with ``scores`` and ``bags`` (``hands`` played; each side's
    ``contracts`` this hand and whether it ``made`` them, its ``sets`` in the game and in a row, ``streaks``, this
    hand included): whether a score reached the target, whether another condition ends it, and the winning side
    (``NONE``: none, or tied).  ``ns_*`` and ``ew_*`` are sides 0 and 1 (the partnerships where there are any)."""
    ns_score = scores[0]
    ew_score = scores[1]
    ns_bags = bags[0]
    ew_bags = bags[1]
    ns_contract = contracts[0]
    ew_contract = contracts[1]
    ns_made = made[0]
    ew_made = made[1]
    ns_sets = sets[0]
    ew_sets = sets[1]
    ns_sets_in_a_row = streaks[0]
    ew_sets_in_a_row = streaks[1]
    high_score, low_score, lead, high_side = standings(scores)
    reached = rule("game.target_reached")
    mercy = rule("game.mercy")
    winner = NONE
    if reached or mercy:
        winner = rule("game.winner")
    return reached, mercy, winner
