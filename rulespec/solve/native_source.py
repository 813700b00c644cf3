"""The solver's search as generated numba source, one module per ruleset (compiled by ``core.jit``).

The module holds the variant's card tables (as constant arrays), the rules' helpers
(``fast.native.HELPERS``), three small functions made of the hand procedure's templates with each
rule's checked expression inlined and rewritten into numba's typed subset by ``fast.native.NativeRules``
(which refuses, naming the rule, anything outside a fixed list of shapes: ``NativeRuleError``) —
``legal`` (a seat's legal set), ``breaks`` and ``winner``, the lowered form's ``legal``, ``breaks``
and ``winner_card`` as the Python search's are (``search.Rules``) — and the search itself (``ENGINE``,
fixed text, run without the GIL: the service's other threads go on).  The engine is the Python
search's algorithm: a null-window alpha-beta over single cards,
depth first on an explicit stack (numba cannot cache recursive functions), with interchangeable cards
(where ``symmetry.equivariant`` holds), its own move ordering where ``quick.Shape`` holds (``_moves``: a
forecast of each card's trick, lead weights, the last lead that cut a search short at the same depth;
the order changes the nodes searched, never an answer) and a ``playout`` of its first choices (the
first question's guess, ``NativeSearch.value``), the sure-trick bounds of
``quick.Shape`` (where it holds), a transposition table of bounds at trick boundaries in fixed-size
numpy arrays (open addressing, four slots a probe, the shallowest entry replaced) keyed on
rank-normalised hands, and, where ``partition`` allows it, entries on the relevant cards after the
first trick exactly as ``search.Search._partitioned`` keeps them (a bucket's most recent depth vectors
listed, ``DEPTHS`` of them).  The engine indexes only arrays it sized itself.
"""
from __future__ import annotations

import ast

from ..fast.native import HELPERS, TABLES, NativeRules
from ..model.ruleset import Ruleset
from ..procedure.form import Lowering, Target, renamed
from .generated import NAMES
from .partition import rank_free_breaks
from .quick import Shape
from .symmetry import equivariant, suit_orders

# codes the search returns besides 0 (not reached) and 1 (reached)
ABORT, BAD_WINNER = 2, 3
# the search's state array: hands, the trick's cards, counters and the question's constants
ST_TRICK = 4          # hands at 0-3, the trick's cards at 4-7
ST_NODES, ST_LIMIT, ST_TEAM, ST_COUNTED, ST_LAST, ST_QUICK, ST_BAD, ST_TTMASK, ST_REL = range(8, 17)
ST_SIZE = 17
# a row of the per-card frame array: the cards to try, their ordering keys, the position's table key, the
# position (leader, trick so far, suit and card led, broken, cards played, tricks needed), the hand, the
# number of cards to try and the next, the answer so far, the trick's first three cards (kept over the next)
KEYS, TTKEY = 32, 64
F_LEADER, F_MASK, F_LED, F_LEAD, F_BROKEN, F_PLAYED, F_NEED, F_HAND, F_N, F_I, F_RESULT, F_ALLOWED, F_OUTER, \
    F_SAVED = range(68, 82)
F_KILLER = 84              # 1 + the card that last cut this row's search short (0: none)
CODES = 85                 # 4 x 16: each suit's holder codes (``_codes``)
REPLIES = CODES + 64      # 4: the leader's forecast replies by suit led (``_moves``)
WEIGHTS = REPLIES + 4     # 4: the leads' weights by suit (``_moves``)
F_REL_IN = WEIGHTS + 4    # the cards that matter as the frame was entered (each card tried starts from them)
F_REL_ALL = WEIGHTS + 5   # the cards that mattered to any card tried so far
MV_WIDTH = WEIGHTS + 6
DEPTHS = 32                # depth vectors listed per bucket of relevant-card entries (the most recent)
PARTITION_KEY = 1 << 62    # marks a relevant-card entry's key (an exact key never has this bit)
ENTER, NEXT, RETURN, FINISH = range(4)
# the constants above that the generated module uses
_SHARED = ("ABORT", "BAD_WINNER", "ST_TRICK", "ST_NODES", "ST_LIMIT", "ST_TEAM", "ST_COUNTED", "ST_LAST", "ST_QUICK",
           "ST_BAD", "ST_TTMASK", "ST_REL", "KEYS", "TTKEY", "F_LEADER", "F_MASK", "F_LED", "F_LEAD", "F_BROKEN",
           "F_PLAYED", "F_NEED", "F_HAND", "F_N", "F_I", "F_RESULT", "F_ALLOWED", "F_OUTER", "F_SAVED", "F_KILLER",
           "DEPTHS", "PARTITION_KEY", "CODES", "REPLIES", "WEIGHTS", "F_REL_IN", "F_REL_ALL", "ENTER", "NEXT", "RETURN",
           "FINISH")

HEADER = """\
import numba
import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from rulespec.errors import RulespecError

NONE = -1
"""

# the search's card play: the lowered form's functions, as the engine calls them
_RULES = (("legal", "legal"), ("breaks", "breaks"), ("winner_card", "winner"))

ENGINE = """\


@njit(cache=True)
def _trump_tricks(hands, seat, goal):
    # quick.Shape.trump_tricks: (tricks, the trumps whose holders the count reads), stopping at ``goal``
    if TRUMP < 0:
        return 0, 0
    others = hands[(seat + 1) & 3] | hands[(seat + 3) & 3]
    best = 0
    best_read = 0
    for hand in (hands[seat], hands[(seat + 2) & 3]):
        free = 0
        held = 0
        lost = 0
        low = NONE
        rest = hand & SMASK[TRUMP]       # the hand's trumps not yet counted
        for j in range(ORDLEN[TRUMP]):
            if rest == 0:
                break
            card = ORDER[TRUMP, j]
            if (others >> card) & 1:
                free += 1
            elif (rest >> card) & 1:
                rest ^= 1 << card
                held += 1
                low = card
                if free > 0:
                    free -= 1
                    lost += 1
                elif held - lost >= goal:
                    return held - lost, ABOVE[card] | (1 << card)
        if held - lost > best:
            best = held - lost
            best_read = ABOVE[low] | (1 << low)
    return best, best_read


@njit(cache=True)
def _suit_tricks(suit, mine, partner, lho, rho, broken):
    # quick.Shape._suit: (rounds cashed, the same when partner can win none of them else 0, cards read)
    mask = SMASK[suit]
    if suit == RESTRICTED and not broken and (mine & ~mask) != 0:
        return 0, 0, 0
    opponents = lho | rho
    rounds = 0
    reach = mask
    for j in range(ORDLEN[suit]):
        card = ORDER[suit, j]
        if (opponents >> card) & 1:
            reach = ABOVE[card] | (1 << card)
            break
        if (mine >> card) & 1:
            rounds += 1
    trump_mask = 0 if TRUMP < 0 or suit == TRUMP else SMASK[TRUMP]
    if lho & trump_mask:
        rounds = min(rounds, _cnt(lho & mask))
    if rho & trump_mask:
        rounds = min(rounds, _cnt(rho & mask))
    if rounds == 0:
        return 0, 0, 0
    last_top = NONE            # the rounds-th card cashed
    k = 0
    for j in range(ORDLEN[suit]):
        card = ORDER[suit, j]
        if (mine >> card) & 1:
            k += 1
            if k == rounds:
                last_top = card
                break
    if partner & (trump_mask | ABOVE[last_top]) == 0:
        return rounds, rounds, reach
    # rounds up to the first that partner's card (its lowest of the suit, or a trump when void) could win
    i = 0
    low_j = ORDLEN[suit] - 1
    for j in range(ORDLEN[suit]):
        top = ORDER[suit, j]
        if not (mine >> top) & 1:
            continue
        if i == rounds:
            break
        while low_j >= 0 and not (partner >> ORDER[suit, low_j]) & 1:
            low_j -= 1
        if low_j >= 0:
            if (ABOVE[top] >> ORDER[suit, low_j]) & 1:
                return i + 1, 0, reach
            low_j -= 1
        elif partner & trump_mask:
            return i + 1, 0, reach
        i += 1
    return rounds, 0, reach


@njit(cache=True)
def _quick_tricks(hands, leader, broken, goal):
    # quick.Shape.tricks: (tricks, cards read); once a suit alone, or the suits partner cannot win added up,
    # reach ``goal``, the count stops there and reads those suits only
    mine = hands[leader]
    partner = hands[(leader + 2) & 3]
    lho = hands[(leader + 1) & 3]
    rho = hands[(leader + 3) & 3]
    single = 0
    single_read = 0
    clean = 0
    clean_read = 0
    for suit in range(4):
        if mine & SMASK[suit]:
            one, safe, read = _suit_tricks(suit, mine, partner, lho, rho, broken)
            if one >= goal:
                return one, read
            if one > single:
                single = one
                single_read = read
            if safe:
                clean += safe
                clean_read |= read
                if clean >= goal:
                    return clean, clean_read
    if single >= clean:
        return single, single_read
    return clean, clean_read


@njit(cache=True)
def _sure(st, leader, number, broken, left):
    # Search._sure: (low, high, cards the low bound reads, cards the high bound reads)
    team = st[ST_TEAM]
    ours, ours_read = _trump_tricks(st, team, left + 1)
    theirs, theirs_read = _trump_tricks(st, 1 - team, left + 1)
    if number > 1:
        cashed, read = _quick_tricks(st, leader, broken, left + 1)
        if leader & 1 == team and cashed > ours:
            ours = cashed
            ours_read = read
        elif leader & 1 != team and cashed > theirs:
            theirs = cashed
            theirs_read = read
    return ours, left - theirs, ours_read, theirs_read


@njit(cache=True)
def _decide(st, leader, number, broken, left, need):
    # ``_sure`` for one question: 1 or 0 when a side's sure tricks decide ``need``, else -1; and the cards read
    # (each count stops at its goal, and the counts not needed are not made)
    team = st[ST_TEAM]
    ours, read = _trump_tricks(st, team, need)
    if ours >= need:
        return 1, read
    theirs, read = _trump_tricks(st, 1 - team, left - need + 1)
    if left - theirs < need:
        return 0, read
    if number > 1:
        if leader & 1 == team:
            cashed, read = _quick_tricks(st, leader, broken, need)
            if cashed >= need:
                return 1, read
        else:
            cashed, read = _quick_tricks(st, leader, broken, left - need + 1)
            if left - cashed < need:
                return 0, read
    return -1, 0


@njit(cache=True)
def _reach(hands, read):
    # each suit's live cards down to the lowest card of ``read`` in it (partition.SuitView.tops/depth)
    out = 0
    for suit in range(4):
        live = (hands[0] | hands[1] | hands[2] | hands[3]) & SMASK[suit]
        if read & live:
            above = 0
            for j in range(ORDLEN[suit]):
                card = ORDER[suit, j]
                if (live >> card) & 1:
                    above |= 1 << card
                    if (read >> card) & 1:
                        out |= above
    return out


@njit(cache=True)
def _depth(hands, suit, rel):
    # how many of the suit's live cards, from the top, reach down to the lowest card of ``rel``
    live = (hands[0] | hands[1] | hands[2] | hands[3]) & SMASK[suit]
    k = 0
    depth = 0
    for j in range(ORDLEN[suit]):
        card = ORDER[suit, j]
        if (live >> card) & 1:
            k += 1
            if (rel >> card) & 1:
                depth = k
    return depth


@njit(cache=True)
def _codes(hands, row):
    # partition.SuitView.codes of each suit into the row: the holders of its top k live cards, highest first,
    # after a leading 1, at CODES + 16 * suit + k
    live = hands[0] | hands[1] | hands[2] | hands[3]
    odd = hands[1] | hands[3]       # a live card's holder: bit 0 from these, bit 1 from the next
    high = hands[2] | hands[3]
    for suit in range(4):
        code = 1
        k = 0
        row[CODES + 16 * suit] = 1
        rest = live & SMASK[suit]
        for j in range(ORDLEN[suit]):
            if rest == 0:
                break
            card = ORDER[suit, j]
            if not (rest >> card) & 1:
                continue
            rest ^= 1 << card
            code = (code << 2) | ((odd >> card) & 1) | (((high >> card) & 1) << 1)
            k += 1
            row[CODES + 16 * suit + k] = code


@njit(cache=True)
def _bucket(hands, leader, broken, key):
    # partition.Table.bucket: leader, broken and every seat's length in every suit, in key[0:2]
    words = 0
    for suit in range(4):
        lengths = 0
        for seat in range(4):
            lengths |= _cnt(hands[seat] & SMASK[suit]) << (4 * seat)
        words |= lengths << (16 * suit)
        if suit == 1:
            key[0] = words | ((leader | (4 if broken else 0)) << 32) | PARTITION_KEY
            words = 0
    key[1] = words


@njit(cache=True)
def _entry_key(row, depths, key):
    # an entry's key: the bucket (key[0:2], set) and each suit's holders down to its depth (``_codes``)
    key[2] = row[CODES + (depths & 255)] | (row[CODES + 16 + ((depths >> 8) & 255)] << 32)
    key[3] = row[CODES + 32 + ((depths >> 16) & 255)] | (row[CODES + 48 + ((depths >> 24) & 255)] << 32)


@njit(cache=True)
def _depth_slot(dt, key):
    # the row of dt listing the depth vectors of ``key``'s bucket (made empty for it when absent or evicted)
    mask = dt.shape[0] - 1
    h = key[0] * -7046029254386353131 + key[1] * 4354685564936845319
    h ^= h >> 29
    base = h & mask
    for i in range(4):
        s = (base + i) & mask
        if dt[s, 2] == 0:
            dt[s, 0] = key[0]
            dt[s, 1] = key[1]
            return s
        if dt[s, 0] == key[0] and dt[s, 1] == key[1]:
            return s
    dt[base, 0] = key[0]
    dt[base, 1] = key[1]
    dt[base, 2] = 0
    return base


@njit(cache=True)
def _look(st, tk, tv, dt, row, key, need):
    # partition.Table.look: 1 or 0 when an entry of the bucket decides ``need`` (the cards it relied on
    # marked as mattering), else -1; the bucket's depth vectors are tried most recently useful first
    _codes(st, row)
    s = _depth_slot(dt, key)
    for i in range(dt[s, 2]):
        depths = dt[s, 3 + i]
        _entry_key(row, depths, key)
        e = _slot(tk, tv, st[ST_TTMASK], key)
        if e >= 0 and (tv[e, 0] >= need or tv[e, 1] < need):
            for j in range(i, 0, -1):      # the depth vector that decided moves first in its bucket
                dt[s, 3 + j] = dt[s, 2 + j]
            dt[s, 3] = depths
            used = 0
            for suit in range(4):
                used |= _reach_depth(st, suit, (depths >> (8 * suit)) & 255)
            st[ST_REL] |= used
            return 1 if tv[e, 0] >= need else 0
    return -1


@njit(cache=True)
def _reach_depth(hands, suit, depth):
    # the suit's top ``depth`` live cards
    live = hands[0] | hands[1] | hands[2] | hands[3]
    out = 0
    k = 0
    for j in range(ORDLEN[suit]):
        if k == depth:
            break
        card = ORDER[suit, j]
        if (live >> card) & 1:
            out |= 1 << card
            k += 1
    return out


@njit(cache=True)
def _remember(st, tk, tv, dt, row, key, rel, low, high, left):
    # partition.Table.store: narrow the entry of the cards ``rel`` marks; its depth vector first in the bucket's
    depths = 0
    for suit in range(4):
        depths |= _depth(st, suit, rel) << (8 * suit)
    _entry_key(row, depths, key)
    _store(tk, tv, st[ST_TTMASK], key, low, high, left)
    s = _depth_slot(dt, key)
    n = dt[s, 2]
    at = n
    for i in range(n):
        if dt[s, 3 + i] == depths:
            at = i
            break
    if at == n:
        if n < DEPTHS:
            dt[s, 2] = n + 1
        at = min(n, DEPTHS - 1)
    for i in range(at, 0, -1):
        dt[s, 3 + i] = dt[s, 2 + i]
    dt[s, 3] = depths


@njit(cache=True)
def _close(st, allowed, trick_mask):
    # Search.close: a run of interchangeable cards any of which matters matters whole
    rel = st[ST_REL]
    live = st[0] | st[1] | st[2] | st[3] | trick_mask
    for suit in range(4):
        mine = allowed & SMASK[suit]
        if mine & (mine - 1):
            run = 0
            for j in range(ORDLEN[suit]):
                card = ORDER[suit, j]
                if (live >> card) & 1:
                    if (allowed >> card) & 1:
                        run |= 1 << card
                        continue
                    if run & (run - 1) and rel & run:
                        rel |= run
                    run = 0
            if run & (run - 1) and rel & run:
                rel |= run
    st[ST_REL] = rel


@njit(cache=True)
def _key(hands, leader, broken, out):
    meta = leader | (4 if broken else 0)
    if NORMALISED:
        for suit in range(4):
            code = 1
            live = (hands[0] | hands[1] | hands[2] | hands[3]) & SMASK[suit]
            for j in range(ORDLEN[suit]):
                card = ORDER[suit, j]
                if (live >> card) & 1:
                    seat = 0
                    while not (hands[seat] >> card) & 1:
                        seat += 1
                    code = (code << 2) | seat
            out[suit] = code
        out[0] |= meta << 40
    else:
        for seat in range(4):
            out[seat] = hands[seat]
        out[0] |= meta << 56


@njit(cache=True)
def _slot(tk, tv, mask, key):
    # the slot holding ``key``, else -1 - (the slot to store it in: an empty one, else the shallowest)
    h = key[0] * -7046029254386353131 + key[1] * 4354685564936845319 + key[2] * -4658895280553007687 \\
        + key[3] * 7109453100751455733
    h ^= h >> 29
    base = h & mask
    victim = base
    for i in range(4):
        s = (base + i) & mask
        if tv[s, 2] == 0:
            return -1 - s
        if tk[s, 0] == key[0] and tk[s, 1] == key[1] and tk[s, 2] == key[2] and tk[s, 3] == key[3]:
            return s
        if tv[s, 2] < tv[victim, 2]:
            victim = s
    return -1 - victim


@njit(cache=True)
def _store(tk, tv, mask, key, low, high, left):
    s = _slot(tk, tv, mask, key)
    if s >= 0:
        tv[s, 0] = max(tv[s, 0], low)
        tv[s, 1] = min(tv[s, 1], high)
        return
    s = -1 - s
    for k in range(4):
        tk[s, k] = key[k]
    tv[s, 0] = low
    tv[s, 1] = high
    tv[s, 2] = left + 1


@njit(cache=True)
def _strongest(st, seat, trick_mask, led, number, lead, broken, played, position):
    # the card of ``seat``'s legal set that trick.winner ranks highest (its lowest card when none can win)
    options = legal(st[seat], trick_mask, led, number, position, False, broken, played)
    best = winner(options, led, number, lead)
    if best >= 0 and (options >> best) & 1:
        return best
    return trailing_zeros(options)


@njit(cache=True)
def _responses(st, leader, index, trick_mask, led, number, lead, broken, played):
    # the strongest card (``_strongest``) of each seat to play after position ``index``, as one mask
    out = 0
    for k in range(index + 1, 4):
        out |= 1 << _strongest(st, (leader + k) & 3, trick_mask, led, number, lead, broken, played, k + 1)
    return out


@njit(cache=True)
def _taker(st, seat, card, leader, index, win):
    # the seat that holds or played ``win``: ``card`` (``seat``'s), a card of the trick, or a later seat's
    if win == card:
        return seat
    for k in range(index):
        if st[ST_TRICK + k] == win:
            return (leader + k) & 3
    for k in range(4):
        if (st[k] >> win) & 1:
            return k
    return seat


@njit(cache=True)
def _lead_weight(st, leader, suit):
    # how promising a lead of ``suit`` looks (higher first): opponents short in it, no ruff for them, a ruff
    # for partner, no lead into the next-but-two hand's top cards, a lead up to partner's second-best card
    mine = st[leader]
    lho = st[(leader + 1) & 3]
    partner = st[(leader + 2) & 3]
    rho = st[(leader + 3) & 3]
    mask = SMASK[suit]
    weight = -3 * (_cnt(lho & mask) + _cnt(rho & mask))
    if TRUMP >= 0 and suit != TRUMP:
        trumps = SMASK[TRUMP]
        if (lho & mask == 0 and lho & trumps) or (rho & mask == 0 and rho & trumps):
            weight -= 12
        if partner & mask == 0 and partner & trumps and rho & mask:
            weight += 17
    top = NONE
    second = NONE
    live = (mine | lho | partner | rho) & mask
    for j in range(ORDLEN[suit]):
        card = ORDER[suit, j]
        if (live >> card) & 1:
            if top == NONE:
                top = card
            else:
                second = card
                break
    if ((rho >> top) & 1 or (second != NONE and (rho >> second) & 1)) and _cnt(rho & mask) != 1:
        weight -= 12
    elif (lho >> top) & 1 and second != NONE and (partner >> second) & 1 and _cnt(partner & mask) != 1:
        weight += 27
    return weight


@njit(cache=True)
def _moves(st, out, seat, allowed, trick_mask, leader, index, led, lead, number, maximising, broken, played):
    # the cards to try, best guesses first: one of each run of interchangeable cards
    n = 0
    if SYMMETRIC:
        live = st[0] | st[1] | st[2] | st[3] | trick_mask
        for suit in range(4):
            if allowed & SMASK[suit]:
                run = False
                for j in range(ORDLEN[suit]):
                    card = ORDER[suit, j]
                    if (live >> card) & 1:
                        mine = (allowed >> card) & 1 == 1
                        if mine and not run:
                            out[n] = card
                            n += 1
                        run = mine
        rest = allowed & UNSUITED
    else:
        rest = allowed
    while rest:
        low = rest & -rest
        out[n] = trailing_zeros(low)
        n += 1
        rest ^= low
    if n < 2:
        return n
    keys = out[KEYS:]
    counted = st[ST_COUNTED]
    if SHAPE:
        # the trick forecast: each later seat plays its strongest card (trick.winner's form is known, so any
        # set of cards may be asked); the cards that make the trick go this seat's way first
        replies = 0
        if index > 0:
            replies = _responses(st, leader, index, trick_mask, led, number, lead, broken, played)
        seen = 0
        for i in range(n):
            card = out[i]
            if index == 0:
                suit = _SUIT[card]
                if suit < 0:
                    keys[i] = -_POW[card]
                    continue
                if not (seen >> suit) & 1:
                    seen |= 1 << suit
                    out[REPLIES + suit] = _responses(st, leader, 0, 1 << card, suit, number, card, broken, played)
                    out[WEIGHTS + suit] = _lead_weight(st, leader, suit) * 32
                win = winner((1 << card) | out[REPLIES + suit], suit, number, card)
            else:
                win = winner(trick_mask | (1 << card) | replies, led, number, lead)
            by = _taker(st, seat, card, leader, index, win)
            bad = ((counted >> by) & 1 == 1) != maximising
            if index == 0 and card == out[F_KILLER] - 1:
                keys[i] = -(1 << 40)
                continue
            if index == 0:       # good leads to another seat's card (partner's) first, lowest first; then the
                if bad:          # leader's own, highest first; then the others by their suit's weight
                    keys[i] = (1 << 32) + _POW[card] - out[WEIGHTS + suit]
                elif by != seat:
                    keys[i] = -(1 << 20) + _POW[card]
                else:
                    keys[i] = -_POW[card]
            else:
                keys[i] = (1 << 32 if bad else 0) + _POW[card]
    else:
        for i in range(n):
            card = out[i]
            if index == 0:
                keys[i] = -_POW[card]
            else:
                win = winner(trick_mask | (1 << card), led, number, lead)
                by = seat
                if win != card:
                    for k in range(index):
                        if st[ST_TRICK + k] == win:
                            by = (leader + k) & 3
                bad = ((counted >> by) & 1 == 1) != maximising
                keys[i] = (1 << 32 if bad else 0) + _POW[card]
    for i in range(1, n):            # stable insertion sort on the keys
        card = out[i]
        key = keys[i]
        j = i - 1
        while j >= 0 and keys[j] > key:
            keys[j + 1] = keys[j]
            out[j + 1] = out[j]
            j -= 1
        keys[j + 1] = key
        out[j + 1] = card
    return n


@njit(cache=True)
def _last_trick(st, leader, number):
    # one card each: (the seat winning, its card) or (NONE, the card trick.winner named, not in the trick)
    trick_mask = 0
    for seat in range(4):
        trick_mask |= st[seat]
    lead_card = trailing_zeros(st[leader])
    win = winner(trick_mask, _SUIT[lead_card], number, lead_card)
    if win < 0 or not (trick_mask >> win) & 1:
        return NONE, win
    seat = 0
    while not (st[seat] >> win) & 1:
        seat += 1
    return seat, win


@njit(cache=True)
def _boundary(st, mv, tk, tv, dt, p, leader, number, broken, need):
    # at a trick boundary: 1 or 0 when decided without a search, BAD_WINNER, else -1 (the table key in row p)
    if need <= 0:
        return 1
    left = st[ST_LAST] - number + 1
    if need > left:
        return 0
    if left == 1:
        seat, card = _last_trick(st, leader, number)
        if seat < 0:
            st[ST_BAD] = card
            return BAD_WINNER
        if PARTITION:
            if (st[0] | st[1] | st[2] | st[3]) & SMASK[OSUIT[card]] & ~(1 << card):   # it beat a card of its suit
                st[ST_REL] |= 1 << card
        return (st[ST_COUNTED] >> seat) & 1
    key = mv[p, TTKEY:TTKEY + 4]
    if PARTITION and number > 1:
        # partition: the sure-trick bounds, else an entry on the cards that mattered (the cards read marked)
        if st[ST_QUICK]:
            decided, read = _decide(st, leader, number, broken, left, need)
            if decided >= 0:
                st[ST_REL] |= _reach(st, read)
                return decided
        _bucket(st, leader, broken, key)
        return _look(st, tk, tv, dt, mv[p], key, need)
    _key(st, leader, broken, key)
    mask = st[ST_TTMASK]
    s = _slot(tk, tv, mask, key)
    if s >= 0:
        low = np.int64(tv[s, 0])
        high = np.int64(tv[s, 1])
    else:
        low = 0
        high = left
        if st[ST_QUICK] and SHAPE:
            low, high, low_read, high_read = _sure(st, leader, number, broken, left)
        _store(tk, tv, mask, key, low, high, left)
    if low >= need:
        return 1
    if high < need:
        return 0
    return -1


@njit(cache=True, nogil=True)
def playout(st, mv, leader, number, broken, played):
    # the counted seats' tricks when every seat plays its first card in search order (a guess for the
    # bisection; trick.winner naming a card outside the trick gives -1): the hands are restored after
    saved = st[0:4].copy()
    team = st[ST_TEAM]
    counted = st[ST_COUNTED]
    tricks = 0
    while number <= st[ST_LAST]:
        trick_mask = 0
        led = NONE
        lead = NONE
        for index in range(4):
            seat = (leader + index) & 3
            hand = st[seat]
            row = mv[4 * number + index]
            allowed = legal(hand, trick_mask, led, number, index + 1, index == 0, broken, played)
            _moves(st, row, seat, allowed, trick_mask, leader, index, led, lead, number, seat & 1 == team, broken,
                   played)
            card = row[0]
            if not broken and breaks(card, hand, index == 0, led, number):
                broken = True
            if index == 0:
                led = _SUIT[card]
                lead = card
            st[seat] = hand & ~(1 << card)
            st[ST_TRICK + index] = card
            trick_mask |= 1 << card
            played |= 1 << card
        win = winner(trick_mask, led, number, lead)
        if win < 0 or not (trick_mask >> win) & 1:
            tricks = -1
            break
        for k in range(4):
            if st[ST_TRICK + k] == win:
                leader = (leader + k) & 3
        tricks += (counted >> leader) & 1
        number += 1
    st[0:4] = saved
    return tricks


@njit(cache=True, nogil=True)
def search(st, mv, tk, tv, dt, leader, index, trick_mask, led, lead, number, broken, played, need):
    # can the team make its counted seats take ``need`` more tricks? 1 yes, 0 no, ABORT, BAD_WINNER.
    # Depth first with an explicit stack: row p of ``mv`` is the frame of the p-th card of the hand
    # (p = 4 * number + index): its position, the cards to try, the next one, the table key.
    root = number * 4 + index
    p = root
    row = mv[p]
    row[F_LEADER] = leader
    row[F_MASK] = trick_mask
    row[F_LED] = led
    row[F_LEAD] = lead
    row[F_BROKEN] = broken
    row[F_PLAYED] = played
    row[F_NEED] = need
    team = st[ST_TEAM]
    counted = st[ST_COUNTED]
    mode = ENTER
    r = 0
    while True:
        row = mv[p]
        number = p >> 2
        index = p & 3
        leader = row[F_LEADER]
        if mode == ENTER:
            r = -1
            if index == 0:
                r = _boundary(st, mv, tk, tv, dt, p, leader, number, row[F_BROKEN] != 0, row[F_NEED])
                if r == BAD_WINNER:
                    return r
            if r >= 0:
                mode = RETURN
            else:
                st[ST_NODES] += 1
                if st[ST_NODES] > st[ST_LIMIT]:
                    return ABORT
                if PARTITION and index == 0 and number > 1:    # the cards that matter below here, apart
                    row[F_OUTER] = st[ST_REL]
                    st[ST_REL] = 0
                seat = (leader + index) & 3
                hand = st[seat]
                row[F_HAND] = hand
                allowed = legal(hand, row[F_MASK], row[F_LED], number, index + 1, index == 0, row[F_BROKEN] != 0,
                                row[F_PLAYED])
                row[F_ALLOWED] = allowed
                maximising = seat & 1 == team
                row[F_N] = _moves(st, row, seat, allowed, row[F_MASK], leader, index, row[F_LED], row[F_LEAD],
                                  number, maximising, row[F_BROKEN] != 0, row[F_PLAYED])
                row[F_I] = 0
                row[F_RESULT] = 0 if maximising else 1
                if PARTITION:
                    row[F_REL_IN] = st[ST_REL]
                    row[F_REL_ALL] = st[ST_REL]
                mode = NEXT
        if mode == NEXT:
            i = row[F_I]
            if i >= row[F_N]:
                r = row[F_RESULT]
                if PARTITION:
                    st[ST_REL] = row[F_REL_ALL]
                if PARTITION and st[ST_REL]:
                    _close(st, row[F_ALLOWED], row[F_MASK])
                mode = FINISH
            else:
                row[F_I] = i + 1
                card = row[i]
                if PARTITION:      # a card's subtree adds to what mattered as the frame was entered
                    st[ST_REL] = row[F_REL_IN]
                seat = (leader + index) & 3
                hand = row[F_HAND]
                bit = 1 << card
                broken = row[F_BROKEN] != 0
                led = row[F_LED]
                lead = row[F_LEAD]
                if not broken and breaks(card, hand, index == 0, led, number):
                    broken = True
                if index == 0:
                    led = _SUIT[card]
                    lead = card
                st[seat] = hand & ~bit
                st[ST_TRICK + index] = card
                now_mask = row[F_MASK] | bit
                child = mv[p + 1]
                child[F_BROKEN] = broken
                child[F_PLAYED] = row[F_PLAYED] | bit
                if index == 3:
                    win = winner(now_mask, led, number, lead)
                    if win < 0 or not (now_mask >> win) & 1:
                        st[ST_BAD] = win
                        return BAD_WINNER
                    by = leader
                    for k in range(4):
                        if st[ST_TRICK + k] == win:
                            by = (leader + k) & 3
                    if PARTITION and now_mask & _SM[_SUIT[win]] & ~(1 << win):    # it beat a card of its suit
                        st[ST_REL] |= 1 << win
                    for k in range(3):
                        row[F_SAVED + k] = st[ST_TRICK + k]
                    child[F_LEADER] = by
                    child[F_MASK] = 0
                    child[F_LED] = NONE
                    child[F_LEAD] = NONE
                    child[F_NEED] = row[F_NEED] - ((counted >> by) & 1)
                else:
                    child[F_LEADER] = leader
                    child[F_MASK] = now_mask
                    child[F_LED] = led
                    child[F_LEAD] = lead
                    child[F_NEED] = row[F_NEED]
                p += 1
                mode = ENTER
                continue
        if mode == RETURN:
            # ``r`` is the answer of frame p: back to its parent, the card it tried taken back
            if p == root:
                return r
            p -= 1
            row = mv[p]
            index = p & 3
            number = p >> 2
            leader = row[F_LEADER]
            seat = (leader + index) & 3
            st[seat] = row[F_HAND]
            if index == 3:
                for k in range(3):
                    st[ST_TRICK + k] = row[F_SAVED + k]
            maximising = seat & 1 == team
            if PARTITION:
                row[F_REL_ALL] |= st[ST_REL]
            if (r == 1) == maximising:     # decided by this card: what its subtree relied on (the others' not)
                row[F_KILLER] = row[row[F_I] - 1] + 1
                row[F_RESULT] = r
                mode = FINISH
            else:
                mode = NEXT
                continue
        if mode == FINISH:
            # frame p is decided (``r``): a bound for the table at a trick boundary
            if PARTITION and index == 0 and number > 1:
                rel = st[ST_REL]
                st[ST_REL] = row[F_OUTER] | rel
                left = st[ST_LAST] - number + 1
                if r == 1:
                    _remember(st, tk, tv, dt, row, mv[p, TTKEY:TTKEY + 4], rel, row[F_NEED], left, left)
                else:
                    _remember(st, tk, tv, dt, row, mv[p, TTKEY:TTKEY + 4], rel, 0, row[F_NEED] - 1, left)
            elif index == 0:
                left = st[ST_LAST] - number + 1
                if r == 1:
                    _store(tk, tv, st[ST_TTMASK], mv[p, TTKEY:TTKEY + 4], row[F_NEED], left, left)
                else:
                    _store(tk, tv, st[ST_TTMASK], mv[p, TTKEY:TTKEY + 4], 0, row[F_NEED] - 1, left)
            mode = RETURN
"""


def _array(values, dtype: str = "np.int64") -> str:
    return f"np.array({list(values)!r}, dtype={dtype})"


def _suit_tables(rs: Ruleset) -> str:
    """Each suit's cards highest first (``suit_orders``), padded, and their masks; per card the higher
    cards of its suit and its suit (-1: none)."""
    orders = suit_orders(rs)
    width = max(1, *(len(order) for order in orders))
    size = len(rs.power)
    above, osuit = [0] * size, [-1] * size
    for suit, order in enumerate(orders):
        for k, card in enumerate(order):
            above[card] = sum(1 << c for c in order[:k])
            osuit[card] = suit
    return "".join([
        f"ORDER = np.array({[list(order) + [-1] * (width - len(order)) for order in orders]!r}, dtype=np.int64)\n",
        f"ORDLEN = {_array(len(order) for order in orders)}\n",
        f"SMASK = {_array(sum(1 << c for c in order) for order in orders)}\n",
        f"ABOVE = {_array(above)}\nOSUIT = {_array(osuit)}\n",
    ])


def _shape_constants(rs: Ruleset) -> str:
    """What the rules are shown to allow (``symmetry``, ``quick``, ``partition``), as the Python search decides."""
    masks = [sum(1 << c for c in order) for order in suit_orders(rs)]
    unsuited = rs.deck & ~(masks[0] | masks[1] | masks[2] | masks[3])
    symmetric = equivariant(rs)
    shape = Shape.of(rs)
    values = {"UNSUITED": unsuited, "SYMMETRIC": symmetric, "NORMALISED": symmetric and not unsuited,
              "SHAPE": shape is not None,
              "PARTITION": shape is not None and not unsuited and rank_free_breaks(rs),
              "TRUMP": -1 if shape is None or shape.trump is None else shape.trump,
              "RESTRICTED": -1 if shape is None or shape.restricted is None else shape.restricted}
    return "".join(f"{name} = {value!r}\n" for name, value in values.items())


def source(rs: Ruleset) -> str:
    """The compiled search of ``rs`` as module source: tables, helpers, the rules' functions, the engine
    (raises ``NativeRuleError`` for a rule numba's subset cannot express)."""
    env = rs.fn["trick.winner"].__globals__      # the card tables every play rule was compiled with
    power = list(env["_POW"])
    constants = "".join([
        "".join(f"{name} = {_array(env[name])}\n" for name in TABLES),
        f"_BELOW = {min(power or [0]) - 1}\n_ABOVE = {max(power or [0]) + 1}\n",
        _suit_tables(rs),
        _shape_constants(rs),
        "".join(f"{name} = {globals()[name]}\n" for name in _SHARED),
    ])
    native = NativeRules(rs)      # the rules' expressions in numba's typed subset
    lowering = Lowering(rs, Target(native.expr))
    rules = "".join(_rule_function(lowering, name, called) for name, called in _RULES)
    return "".join([HEADER, constants, HELPERS, *native.helpers, rules, ENGINE])


def _rule_function(lowering: Lowering, name: str, called: str) -> str:
    """A card-play function of the lowered form in numba, under the engine's names for its variables."""
    node = renamed(lowering.function(name), NAMES)
    node.name = called
    return "\n\n@njit(cache=True)\n" + ast.unparse(ast.fix_missing_locations(node)) + "\n"
