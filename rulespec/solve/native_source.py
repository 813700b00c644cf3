"""The solver's search as generated numba source, one module per ruleset (compiled by ``core.jit``).

The module holds the variant's card tables (as constant arrays), the rules' helpers
(``fast.numba_rules.HELPERS``), three small functions made of the hand procedure's templates with each
rule's checked expression inlined and rewritten into numba's typed subset by ``fast.numba_rules.NativeRules``
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

from ..fast.numba_rules import HELPERS, TABLES, NativeRules
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
ST_NODES, ST_LIMIT, ST_TEAM, ST_COUNTED, ST_LAST, ST_QUICK, ST_BAD, ST_TTMASK, ST_REL, ST_GEN = range(8, 18)
ST_SIZE = 18
# a table entry: four key words and its bounds word (``TT_WIDTH`` words): the low and the high bound, the tricks
# left + 1 (0: never written) and the generation of the tables (``ST_GEN``) it was written in; an entry of
# another generation, and a depth list (its count word: the count and the generation), is empty
TT_BOUNDS, TT_WIDTH, GEN_SHIFT = 4, 5, 24
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
           "ST_BAD", "ST_TTMASK", "ST_REL", "ST_GEN", "TT_BOUNDS", "GEN_SHIFT", "KEYS", "TTKEY", "F_LEADER", "F_MASK",
           "F_LED", "F_LEAD", "F_BROKEN", "F_PLAYED", "F_NEED", "F_HAND", "F_N", "F_I", "F_RESULT", "F_ALLOWED",
           "F_OUTER", "F_SAVED", "F_KILLER", "DEPTHS", "PARTITION_KEY", "CODES", "REPLIES", "WEIGHTS", "F_REL_IN",
           "F_REL_ALL", "ENTER", "NEXT", "RETURN", "FINISH")

HEADER = """\
import numba
import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from rulespec.errors import RulespecError

NONE = -1
# the engine makes no arrays, so the arrays it hands from function to function need no reference counts: numba's
# ``_nrt`` option off, where this numba has it (counted, they took a third of a full deal's time)
ENGINE_JIT = {"cache": True, **({"_nrt": False} if "_nrt" in vars(numba.core.options.DefaultOptions) else {})}
"""

# the search's card play: the lowered form's functions, as the engine calls them
_RULES = (("legal", "legal"), ("breaks", "breaks"), ("winner_card", "winner"))

ENGINE = """\


@njit(**ENGINE_JIT)
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


@njit(**ENGINE_JIT)
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


@njit(**ENGINE_JIT)
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


@njit(**ENGINE_JIT)
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


@njit(**ENGINE_JIT)
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


@njit(**ENGINE_JIT)
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


@njit(**ENGINE_JIT)
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


@njit(**ENGINE_JIT)
def _codes(hands, mv, p):
    # partition.SuitView.codes of each suit into row p: the holders of its top k live cards, highest first,
    # after a leading 1, at CODES + 16 * suit + k
    live = hands[0] | hands[1] | hands[2] | hands[3]
    odd = hands[1] | hands[3]       # a live card's holder: bit 0 from these, bit 1 from the next
    high = hands[2] | hands[3]
    for suit in range(4):
        code = 1
        k = 0
        mv[p, CODES + 16 * suit] = 1
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
            mv[p, CODES + 16 * suit + k] = code


@njit(**ENGINE_JIT)
def _bucket(hands, leader, broken, mv, p):
    # partition.Table.bucket: leader, broken and every seat's length in every suit, in row p's key words 0 and 1
    words = 0
    for suit in range(4):
        lengths = 0
        for seat in range(4):
            lengths |= _cnt(hands[seat] & SMASK[suit]) << (4 * seat)
        words |= lengths << (16 * suit)
        if suit == 1:
            mv[p, TTKEY] = words | ((leader | (4 if broken else 0)) << 32) | PARTITION_KEY
            words = 0
    mv[p, TTKEY + 1] = words


@njit(**ENGINE_JIT)
def _entry_key(mv, p, depths):
    # an entry's key in row p: the bucket (key words 0 and 1, set) and each suit's holders down to its depth
    # (``_codes``)
    mv[p, TTKEY + 2] = mv[p, CODES + (depths & 255)] | (mv[p, CODES + 16 + ((depths >> 8) & 255)] << 32)
    mv[p, TTKEY + 3] = mv[p, CODES + 32 + ((depths >> 16) & 255)] \\
        | (mv[p, CODES + 48 + ((depths >> 24) & 255)] << 32)


@njit(**ENGINE_JIT)
def _depth_slot(dt, gen, k0, k1):
    # the row of dt listing the depth vectors of the bucket (k0, k1) (made empty for it when absent, of another
    # generation or evicted)
    mask = dt.shape[0] - 1
    h = k0 * -7046029254386353131 + k1 * 4354685564936845319
    h ^= h >> 29
    base = h & mask
    for i in range(4):
        s = (base + i) & mask
        count = dt[s, 2]
        if count >> GEN_SHIFT != gen or count & 255 == 0:
            dt[s, 0] = k0
            dt[s, 1] = k1
            dt[s, 2] = gen << GEN_SHIFT
            return s
        if dt[s, 0] == k0 and dt[s, 1] == k1:
            return s
    dt[base, 0] = k0
    dt[base, 1] = k1
    dt[base, 2] = gen << GEN_SHIFT
    return base


@njit(**ENGINE_JIT)
def _look(st, tk, dt, mv, p, need):
    # partition.Table.look: 1 or 0 when an entry of the bucket (row p's key words 0 and 1) decides ``need`` (the
    # cards it relied on marked as mattering), else -1; the bucket's depth vectors are tried most recently useful
    # first
    _codes(st, mv, p)
    k0 = mv[p, TTKEY]
    k1 = mv[p, TTKEY + 1]
    gen = st[ST_GEN]
    s = _depth_slot(dt, gen, k0, k1)
    mask = st[ST_TTMASK]
    for i in range(dt[s, 2] & 255):
        depths = dt[s, 3 + i]
        _entry_key(mv, p, depths)
        e = _slot(tk, mask, gen, k0, k1, mv[p, TTKEY + 2], mv[p, TTKEY + 3])
        if e < 0:
            continue
        low = tk[e, TT_BOUNDS] & 255
        if low >= need or (tk[e, TT_BOUNDS] >> 8) & 255 < need:
            for j in range(i, 0, -1):      # the depth vector that decided moves first in its bucket
                dt[s, 3 + j] = dt[s, 2 + j]
            dt[s, 3] = depths
            used = 0
            for suit in range(4):
                used |= _reach_depth(st, suit, (depths >> (8 * suit)) & 255)
            st[ST_REL] |= used
            return 1 if low >= need else 0
    return -1


@njit(**ENGINE_JIT)
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


@njit(**ENGINE_JIT)
def _remember(st, tk, dt, mv, p, rel, low, high, left):
    # partition.Table.store: narrow the entry of the cards ``rel`` marks; its depth vector first in the bucket's
    depths = 0
    for suit in range(4):
        depths |= _depth(st, suit, rel) << (8 * suit)
    _entry_key(mv, p, depths)
    _store(st, tk, mv, p, low, high, left)
    gen = st[ST_GEN]
    s = _depth_slot(dt, gen, mv[p, TTKEY], mv[p, TTKEY + 1])
    n = dt[s, 2] & 255
    at = n
    for i in range(n):
        if dt[s, 3 + i] == depths:
            at = i
            break
    if at == n:
        if n < DEPTHS:
            dt[s, 2] = (n + 1) | (gen << GEN_SHIFT)
        at = min(n, DEPTHS - 1)
    for i in range(at, 0, -1):
        dt[s, 3 + i] = dt[s, 2 + i]
    dt[s, 3] = depths


@njit(**ENGINE_JIT)
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


@njit(**ENGINE_JIT)
def _key(hands, leader, broken, mv, p):
    # the exact key of the position, in row p's key words
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
            mv[p, TTKEY + suit] = code
        mv[p, TTKEY] |= meta << 40
    else:
        for seat in range(4):
            mv[p, TTKEY + seat] = hands[seat]
        mv[p, TTKEY] |= meta << 56


@njit(**ENGINE_JIT)
def _slot(tk, mask, gen, k0, k1, k2, k3):
    # the slot holding the key (k0, k1, k2, k3), else -1 - (the slot to store it in: an empty one, else the
    # shallowest)
    h = k0 * -7046029254386353131 + k1 * 4354685564936845319 + k2 * -4658895280553007687 + k3 * 7109453100751455733
    h ^= h >> 29
    base = h & mask
    victim = base
    shallowest = 256
    for i in range(4):
        s = (base + i) & mask
        bounds = tk[s, TT_BOUNDS]
        if bounds >> GEN_SHIFT != gen:
            return -1 - s
        if tk[s, 0] == k0 and tk[s, 1] == k1 and tk[s, 2] == k2 and tk[s, 3] == k3:
            return s
        if (bounds >> 16) & 255 < shallowest:
            shallowest = (bounds >> 16) & 255
            victim = s
    return -1 - victim


@njit(**ENGINE_JIT)
def _store(st, tk, mv, p, low, high, left):
    # narrow the bounds of the entry keyed in row p (made when absent)
    k0 = mv[p, TTKEY]
    k1 = mv[p, TTKEY + 1]
    k2 = mv[p, TTKEY + 2]
    k3 = mv[p, TTKEY + 3]
    gen = st[ST_GEN]
    s = _slot(tk, st[ST_TTMASK], gen, k0, k1, k2, k3)
    if s >= 0:
        bounds = tk[s, TT_BOUNDS]
        low = max(low, bounds & 255)
        high = min(high, (bounds >> 8) & 255)
    else:
        s = -1 - s
        tk[s, 0] = k0
        tk[s, 1] = k1
        tk[s, 2] = k2
        tk[s, 3] = k3
    tk[s, TT_BOUNDS] = low | (high << 8) | ((left + 1) << 16) | (gen << GEN_SHIFT)


@njit(**ENGINE_JIT)
def _strongest(st, seat, trick_mask, led, number, lead, broken, played, position):
    # the card of ``seat``'s legal set that trick.winner ranks highest (its lowest card when none can win)
    options = legal(st[seat], trick_mask, led, number, position, False, broken, played)
    best = winner(options, led, number, lead)
    if best >= 0 and (options >> best) & 1:
        return best
    return trailing_zeros(options)


@njit(**ENGINE_JIT)
def _responses(st, leader, index, trick_mask, led, number, lead, broken, played):
    # the strongest card (``_strongest``) of each seat to play after position ``index``, as one mask
    out = 0
    for k in range(index + 1, 4):
        out |= 1 << _strongest(st, (leader + k) & 3, trick_mask, led, number, lead, broken, played, k + 1)
    return out


@njit(**ENGINE_JIT)
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


@njit(**ENGINE_JIT)
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


@njit(**ENGINE_JIT)
def _moves(st, mv, p, seat, allowed, trick_mask, leader, index, led, lead, number, maximising, broken, played):
    # the cards to try into row p, best guesses first: one of each run of interchangeable cards
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
                            mv[p, n] = card
                            n += 1
                        run = mine
        rest = allowed & UNSUITED
    else:
        rest = allowed
    while rest:
        low = rest & -rest
        mv[p, n] = trailing_zeros(low)
        n += 1
        rest ^= low
    if n < 2:
        return n
    counted = st[ST_COUNTED]
    if SHAPE:
        # the trick forecast: each later seat plays its strongest card (trick.winner's form is known, so any
        # set of cards may be asked); the cards that make the trick go this seat's way first
        replies = 0
        if index > 0:
            replies = _responses(st, leader, index, trick_mask, led, number, lead, broken, played)
        seen = 0
        for i in range(n):
            card = mv[p, i]
            if index == 0:
                suit = _SUIT[card]
                if suit < 0:
                    mv[p, KEYS + i] = -_POW[card]
                    continue
                if not (seen >> suit) & 1:
                    seen |= 1 << suit
                    mv[p, REPLIES + suit] = _responses(st, leader, 0, 1 << card, suit, number, card, broken, played)
                    mv[p, WEIGHTS + suit] = _lead_weight(st, leader, suit) * 32
                win = winner((1 << card) | mv[p, REPLIES + suit], suit, number, card)
            else:
                win = winner(trick_mask | (1 << card) | replies, led, number, lead)
            by = _taker(st, seat, card, leader, index, win)
            bad = ((counted >> by) & 1 == 1) != maximising
            if index == 0 and card == mv[p, F_KILLER] - 1:
                mv[p, KEYS + i] = -(1 << 40)
                continue
            if index == 0:       # good leads to another seat's card (partner's) first, lowest first; then the
                if bad:          # leader's own, highest first; then the others by their suit's weight
                    mv[p, KEYS + i] = (1 << 32) + _POW[card] - mv[p, WEIGHTS + suit]
                elif by != seat:
                    mv[p, KEYS + i] = -(1 << 20) + _POW[card]
                else:
                    mv[p, KEYS + i] = -_POW[card]
            else:
                mv[p, KEYS + i] = (1 << 32 if bad else 0) + _POW[card]
    else:
        for i in range(n):
            card = mv[p, i]
            if index == 0:
                mv[p, KEYS + i] = -_POW[card]
            else:
                win = winner(trick_mask | (1 << card), led, number, lead)
                by = seat
                if win != card:
                    for k in range(index):
                        if st[ST_TRICK + k] == win:
                            by = (leader + k) & 3
                bad = ((counted >> by) & 1 == 1) != maximising
                mv[p, KEYS + i] = (1 << 32 if bad else 0) + _POW[card]
    for i in range(1, n):            # stable insertion sort on the keys
        card = mv[p, i]
        key = mv[p, KEYS + i]
        j = i - 1
        while j >= 0 and mv[p, KEYS + j] > key:
            mv[p, KEYS + j + 1] = mv[p, KEYS + j]
            mv[p, j + 1] = mv[p, j]
            j -= 1
        mv[p, KEYS + j + 1] = key
        mv[p, j + 1] = card
    return n


@njit(**ENGINE_JIT)
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


@njit(**ENGINE_JIT)
def _boundary(st, mv, tk, dt, p, leader, number, broken, need):
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
    if PARTITION and number > 1:
        # partition: the sure-trick bounds, else an entry on the cards that mattered (the cards read marked)
        if st[ST_QUICK]:
            decided, read = _decide(st, leader, number, broken, left, need)
            if decided >= 0:
                st[ST_REL] |= _reach(st, read)
                return decided
        _bucket(st, leader, broken, mv, p)
        return _look(st, tk, dt, mv, p, need)
    _key(st, leader, broken, mv, p)
    s = _slot(tk, st[ST_TTMASK], st[ST_GEN], mv[p, TTKEY], mv[p, TTKEY + 1], mv[p, TTKEY + 2], mv[p, TTKEY + 3])
    if s >= 0:
        low = tk[s, TT_BOUNDS] & 255
        high = (tk[s, TT_BOUNDS] >> 8) & 255
    else:
        low = 0
        high = left
        if st[ST_QUICK] and SHAPE:
            low, high, low_read, high_read = _sure(st, leader, number, broken, left)
        _store(st, tk, mv, p, low, high, left)
    if low >= need:
        return 1
    if high < need:
        return 0
    return -1


@njit(nogil=True, **ENGINE_JIT)
def playout(st, mv, leader, number, broken, played):
    # the counted seats' tricks when every seat plays its first card in search order (a guess for the
    # bisection; trick.winner naming a card outside the trick gives -1): the hands are restored after
    saved0 = st[0]
    saved1 = st[1]
    saved2 = st[2]
    saved3 = st[3]
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
            q = 4 * number + index
            allowed = legal(hand, trick_mask, led, number, index + 1, index == 0, broken, played)
            _moves(st, mv, q, seat, allowed, trick_mask, leader, index, led, lead, number, seat & 1 == team, broken,
                   played)
            card = mv[q, 0]
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
    st[0] = saved0
    st[1] = saved1
    st[2] = saved2
    st[3] = saved3
    return tricks


@njit(nogil=True, **ENGINE_JIT)
def search(st, mv, tk, dt, leader, index, trick_mask, led, lead, number, broken, played, need):
    # can the team make its counted seats take ``need`` more tricks? 1 yes, 0 no, ABORT, BAD_WINNER.
    # Depth first with an explicit stack: row p of ``mv`` is the frame of the p-th card of the hand
    # (p = 4 * number + index): its position, the cards to try, the next one, the table key.
    root = number * 4 + index
    p = root
    mv[p, F_LEADER] = leader
    mv[p, F_MASK] = trick_mask
    mv[p, F_LED] = led
    mv[p, F_LEAD] = lead
    mv[p, F_BROKEN] = broken
    mv[p, F_PLAYED] = played
    mv[p, F_NEED] = need
    team = st[ST_TEAM]
    counted = st[ST_COUNTED]
    mode = ENTER
    r = 0
    while True:
        number = p >> 2
        index = p & 3
        leader = mv[p, F_LEADER]
        if mode == ENTER:
            r = -1
            if index == 0:
                r = _boundary(st, mv, tk, dt, p, leader, number, mv[p, F_BROKEN] != 0, mv[p, F_NEED])
                if r == BAD_WINNER:
                    return r
            if r >= 0:
                mode = RETURN
            else:
                st[ST_NODES] += 1
                if st[ST_NODES] > st[ST_LIMIT]:
                    return ABORT
                if PARTITION and index == 0 and number > 1:    # the cards that matter below here, apart
                    mv[p, F_OUTER] = st[ST_REL]
                    st[ST_REL] = 0
                seat = (leader + index) & 3
                hand = st[seat]
                mv[p, F_HAND] = hand
                allowed = legal(hand, mv[p, F_MASK], mv[p, F_LED], number, index + 1, index == 0, mv[p, F_BROKEN] != 0,
                                mv[p, F_PLAYED])
                mv[p, F_ALLOWED] = allowed
                maximising = seat & 1 == team
                mv[p, F_N] = _moves(st, mv, p, seat, allowed, mv[p, F_MASK], leader, index, mv[p, F_LED], mv[p, F_LEAD],
                                  number, maximising, mv[p, F_BROKEN] != 0, mv[p, F_PLAYED])
                mv[p, F_I] = 0
                mv[p, F_RESULT] = 0 if maximising else 1
                if PARTITION:
                    mv[p, F_REL_IN] = st[ST_REL]
                    mv[p, F_REL_ALL] = st[ST_REL]
                mode = NEXT
        if mode == NEXT:
            i = mv[p, F_I]
            if i >= mv[p, F_N]:
                r = mv[p, F_RESULT]
                if PARTITION:
                    st[ST_REL] = mv[p, F_REL_ALL]
                if PARTITION and st[ST_REL]:
                    _close(st, mv[p, F_ALLOWED], mv[p, F_MASK])
                mode = FINISH
            else:
                mv[p, F_I] = i + 1
                card = mv[p, i]
                if PARTITION:      # a card's subtree adds to what mattered as the frame was entered
                    st[ST_REL] = mv[p, F_REL_IN]
                seat = (leader + index) & 3
                hand = mv[p, F_HAND]
                bit = 1 << card
                broken = mv[p, F_BROKEN] != 0
                led = mv[p, F_LED]
                lead = mv[p, F_LEAD]
                if not broken and breaks(card, hand, index == 0, led, number):
                    broken = True
                if index == 0:
                    led = _SUIT[card]
                    lead = card
                st[seat] = hand & ~bit
                st[ST_TRICK + index] = card
                now_mask = mv[p, F_MASK] | bit
                mv[p + 1, F_BROKEN] = broken
                mv[p + 1, F_PLAYED] = mv[p, F_PLAYED] | bit
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
                        mv[p, F_SAVED + k] = st[ST_TRICK + k]
                    mv[p + 1, F_LEADER] = by
                    mv[p + 1, F_MASK] = 0
                    mv[p + 1, F_LED] = NONE
                    mv[p + 1, F_LEAD] = NONE
                    mv[p + 1, F_NEED] = mv[p, F_NEED] - ((counted >> by) & 1)
                else:
                    mv[p + 1, F_LEADER] = leader
                    mv[p + 1, F_MASK] = now_mask
                    mv[p + 1, F_LED] = led
                    mv[p + 1, F_LEAD] = lead
                    mv[p + 1, F_NEED] = mv[p, F_NEED]
                p += 1
                mode = ENTER
                continue
        if mode == RETURN:
            # ``r`` is the answer of frame p: back to its parent, the card it tried taken back
            if p == root:
                return r
            p -= 1
            index = p & 3
            number = p >> 2
            leader = mv[p, F_LEADER]
            seat = (leader + index) & 3
            st[seat] = mv[p, F_HAND]
            if index == 3:
                for k in range(3):
                    st[ST_TRICK + k] = mv[p, F_SAVED + k]
            maximising = seat & 1 == team
            if PARTITION:
                mv[p, F_REL_ALL] |= st[ST_REL]
            if (r == 1) == maximising:     # decided by this card: what its subtree relied on (the others' not)
                mv[p, F_KILLER] = mv[p, mv[p, F_I] - 1] + 1
                mv[p, F_RESULT] = r
                mode = FINISH
            else:
                mode = NEXT
                continue
        if mode == FINISH:
            # frame p is decided (``r``): a bound for the table at a trick boundary
            if PARTITION and index == 0 and number > 1:
                rel = st[ST_REL]
                st[ST_REL] = mv[p, F_OUTER] | rel
                left = st[ST_LAST] - number + 1
                if r == 1:
                    _remember(st, tk, dt, mv, p, rel, mv[p, F_NEED], left, left)
                else:
                    _remember(st, tk, dt, mv, p, rel, 0, mv[p, F_NEED] - 1, left)
            elif index == 0:
                left = st[ST_LAST] - number + 1
                if r == 1:
                    _store(st, tk, mv, p, mv[p, F_NEED], left, left)
                else:
                    _store(st, tk, mv, p, 0, mv[p, F_NEED] - 1, left)
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
