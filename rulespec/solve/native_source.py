"""The solver's search as generated numba source, one module per ruleset (compiled by ``core.jit``).

The module holds the variant's card tables (as constant arrays), the rules' helpers in nopython
form (``_hi``, ``_lo``, ``_cnt``, ``_bit``, ...), three small functions made of the hand procedure's
templates with each rule's checked expression inlined (``game.fused.inline``), exactly as the Python
search's (``search.Rules``): ``legal`` (a seat's legal set), ``breaks`` (``{trump.breaks}``) and
``winner`` (``{trick.winner}``), and the search itself (``ENGINE``, fixed text): the same null-window
alpha-beta over single cards as ``search.Search`` with the same move ordering and interchangeable
cards (where ``symmetry.equivariant`` holds), the sure-trick bounds of ``quick.Shape`` (where it
holds), and a transposition table of bounds at trick boundaries in fixed-size numpy arrays, keyed on
rank-normalised hands.  The rule functions are compiled with bounds checking (a rules file is
untrusted input); the rest indexes only arrays it sized itself.
"""
from __future__ import annotations

from ..game.fused import inline
from ..game.procedure import fill, indent, legal_source
from ..model.ruleset import Ruleset
from .quick import Shape
from .symmetry import equivariant, suit_orders

# codes the search returns besides 0 (not reached) and 1 (reached)
ABORT, BAD_WINNER = 2, 3
# the search's state array: hands, the trick's cards, counters and the question's constants
ST_HANDS, ST_TRICK, ST_NODES, ST_LIMIT, ST_TEAM, ST_COUNTED, ST_LAST, ST_QUICK, ST_BAD, ST_TTMASK = \
    0, 4, 8, 9, 10, 11, 12, 13, 14, 15
ST_SIZE = 16
# a row of the per-card frame array: the cards to try, their ordering keys, the position's table key, the
# position (leader, trick so far, suit and card led, broken, cards played, tricks needed), the hand, the
# number of cards to try and the next, the answer so far, the trick's first three cards (kept over the next)
KEYS, TTKEY = 32, 64
F_LEADER, F_MASK, F_LED, F_LEAD, F_BROKEN, F_PLAYED, F_NEED, F_HAND, F_N, F_I, F_RESULT, F_SAVED = range(68, 80)
MV_WIDTH = 83
ENTER, NEXT, RETURN, FINISH = range(4)

HELPERS = """\
import numpy as np
from numba import njit

from rulespec.errors import RulespecError

NONE = -1
_DEBRUIJN = 0x03F79D71B4CB0A89
_DEBRUIJN_INDEX = np.array({debruijn}, dtype=np.int64)


@njit(cache=True)
def _ctz(low):
    return _DEBRUIJN_INDEX[((low * _DEBRUIJN) >> 58) & 63]


@njit(cache=True)
def _cnt(x):
    if x < 0:
        x = -x
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True)
def _bit(card):
    return 0 if card < 0 else 1 << card


@njit(cache=True, boundscheck=True)
def _hi(mask):
    best = NONE
    best_p = {below}
    while mask:
        low = mask & -mask
        card = _ctz(low)
        if _POW[card] > best_p:
            best = card
            best_p = _POW[card]
        mask ^= low
    return best


@njit(cache=True, boundscheck=True)
def _lo(mask):
    best = NONE
    best_p = {above}
    while mask:
        low = mask & -mask
        card = _ctz(low)
        if _POW[card] < best_p:
            best = card
            best_p = _POW[card]
        mask ^= low
    return best


@njit(cache=True)
def _div(a, b):
    if b == 0:
        raise RulespecError("division by zero in a rule")
    return a // b


@njit(cache=True)
def _mod(a, b):
    if b == 0:
        raise RulespecError("modulo by zero in a rule")
    return a % b


_min = min
_max = max
_abs = abs
"""

RULES = """\


@njit(cache=True, boundscheck=True)
def legal(hand, trick_mask, led, number, position, leading, broken, played):
{legal}
    return allowed


@njit(cache=True, boundscheck=True)
def breaks(card, hand, leading, led, number):
    return bool({trump.breaks})


@njit(cache=True, boundscheck=True)
def winner(trick_mask, led, number, lead):
    return {trick.winner}
"""

ENGINE = """\


@njit(cache=True)
def _trump_tricks(hands, seat):
    if TRUMP < 0:
        return 0
    mine = hands[seat]
    partner = hands[(seat + 2) & 3]
    others = hands[(seat + 1) & 3] | hands[(seat + 3) & 3]
    a = 0
    b = 0
    for j in range(ORDLEN[TRUMP]):
        card = ORDER[TRUMP, j]
        if (mine >> card) & 1:
            a += 1
        elif (partner >> card) & 1:
            b += 1
        elif (others >> card) & 1:
            break
    return max(a, b)


@njit(cache=True)
def _suit_tricks(suit, mine, partner, lho, rho, broken):
    # (rounds cashed, the same when partner can win none of them else 0): quick.Shape._suit
    mask = SMASK[suit]
    if suit == RESTRICTED and not broken and (mine & ~mask) != 0:
        return 0, 0
    opponents = lho | rho
    rounds = 0
    last_top = NONE
    for j in range(ORDLEN[suit]):
        card = ORDER[suit, j]
        if (opponents >> card) & 1:
            break
        if (mine >> card) & 1:
            rounds += 1
            last_top = card
    trump_mask = 0 if TRUMP < 0 or suit == TRUMP else SMASK[TRUMP]
    if lho & trump_mask:
        rounds = min(rounds, _cnt(lho & mask))
    if rho & trump_mask:
        rounds = min(rounds, _cnt(rho & mask))
    if rounds == 0:
        return 0, 0
    # the rounds-th top card
    k = 0
    for j in range(ORDLEN[suit]):
        card = ORDER[suit, j]
        if (mine >> card) & 1:
            k += 1
            if k == rounds:
                last_top = card
                break
    if partner & (trump_mask | ABOVE[last_top]) == 0:
        return rounds, rounds
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
                return i + 1, 0
            low_j -= 1
        elif partner & trump_mask:
            return i + 1, 0
        i += 1
    return rounds, 0


@njit(cache=True)
def _quick_tricks(hands, leader, broken):
    mine = hands[leader]
    partner = hands[(leader + 2) & 3]
    lho = hands[(leader + 1) & 3]
    rho = hands[(leader + 3) & 3]
    single = 0
    clean = 0
    for suit in range(4):
        if mine & SMASK[suit]:
            one, safe = _suit_tricks(suit, mine, partner, lho, rho, broken)
            if one > single:
                single = one
            clean += safe
    return max(single, clean)


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
def _moves(st, out, seat, allowed, trick_mask, leader, index, led, lead, number, maximising):
    # the cards to try, best guesses first (search.Search._moves): one of each run of interchangeable cards
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
        out[n] = _ctz(low)
        n += 1
        rest ^= low
    if n < 2:
        return n
    keys = out[KEYS:]
    counted = st[ST_COUNTED]
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
    # one card each: (seat winning, 0) or (NONE, the card trick.winner named, which is not in the trick)
    trick_mask = 0
    for seat in range(4):
        trick_mask |= st[seat]
    lead_card = _ctz(st[leader])
    win = winner(trick_mask, _SUIT[lead_card], number, lead_card)
    if win < 0 or not (trick_mask >> win) & 1:
        return NONE, win
    seat = 0
    while not (st[seat] >> win) & 1:
        seat += 1
    return seat, 0


@njit(cache=True)
def _boundary(st, mv, tk, tv, p, leader, number, broken, need):
    # at a trick boundary: 1 or 0 when decided without a search, BAD_WINNER, else -1 (the table key in row p)
    if need <= 0:
        return 1
    left = st[ST_LAST] - number + 1
    if need > left:
        return 0
    if left == 1:
        seat, bad = _last_trick(st, leader, number)
        if seat < 0:
            st[ST_BAD] = bad
            return BAD_WINNER
        return (st[ST_COUNTED] >> seat) & 1
    key = mv[p, TTKEY:TTKEY + 4]
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
            team = st[ST_TEAM]
            ours = _trump_tricks(st, team)
            theirs = _trump_tricks(st, 1 - team)
            if number > 1:
                cashed = _quick_tricks(st, leader, broken)
                if leader & 1 == team:
                    ours = max(ours, cashed)
                else:
                    theirs = max(theirs, cashed)
            low = ours
            high = left - theirs
        _store(tk, tv, mask, key, low, high, left)
    if low >= need:
        return 1
    if high < need:
        return 0
    return -1


@njit(cache=True)
def search(st, mv, tk, tv, leader, index, trick_mask, led, lead, number, broken, played, need):
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
                r = _boundary(st, mv, tk, tv, p, leader, number, row[F_BROKEN] != 0, row[F_NEED])
                if r == BAD_WINNER:
                    return r
            if r >= 0:
                mode = RETURN
            else:
                st[ST_NODES] += 1
                if st[ST_NODES] > st[ST_LIMIT]:
                    return ABORT
                seat = (leader + index) & 3
                hand = st[seat]
                row[F_HAND] = hand
                allowed = legal(hand, row[F_MASK], row[F_LED], number, index + 1, index == 0, row[F_BROKEN] != 0,
                                row[F_PLAYED])
                maximising = seat & 1 == team
                row[F_N] = _moves(st, row, seat, allowed, row[F_MASK], leader, index, row[F_LED], row[F_LEAD],
                                  number, maximising)
                row[F_I] = 0
                row[F_RESULT] = 0 if maximising else 1
                mode = NEXT
        if mode == NEXT:
            i = row[F_I]
            if i >= row[F_N]:
                r = row[F_RESULT]
                mode = FINISH
            else:
                row[F_I] = i + 1
                card = row[i]
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
            if (r == 1) == maximising:
                row[F_RESULT] = r
                mode = FINISH
            else:
                mode = NEXT
                continue
        if mode == FINISH:
            # frame p is decided (``r``): a bound for the table at a trick boundary
            if index == 0:
                left = st[ST_LAST] - number + 1
                if r == 1:
                    _store(tk, tv, st[ST_TTMASK], mv[p, TTKEY:TTKEY + 4], row[F_NEED], left, left)
                else:
                    _store(tk, tv, st[ST_TTMASK], mv[p, TTKEY:TTKEY + 4], 0, row[F_NEED] - 1, left)
            mode = RETURN
"""


def _debruijn_index() -> list[int]:
    """Index ``((1 << k) * 0x03F79D71B4CB0A89 >> 58) & 63`` -> k (int64 arithmetic, wrapping)."""
    table = [0] * 64
    for k in range(64):
        product = ((1 << k) * 0x03F79D71B4CB0A89) & (2**64 - 1)
        table[(product >> 58) & 63] = k
    return table


def _array(values, dtype: str = "np.int64") -> str:
    return f"np.array({list(values)!r}, dtype={dtype})"


def source(rs: Ruleset) -> str:
    """The compiled search of ``rs`` as module source: tables, helpers, the rules' functions, the engine."""
    env = rs.fn["trick.winner"].__globals__      # the card tables every play rule was compiled with
    power = list(env["_POW"])
    orders = suit_orders(rs)
    width = max(1, *(len(order) for order in orders))
    order_rows = [list(order) + [-1] * (width - len(order)) for order in orders]
    masks = [sum(1 << c for c in order) for order in orders]
    size = len(power)
    above = [0] * size
    for order in orders:
        for k, card in enumerate(order):
            above[card] = sum(1 << c for c in order[:k])
    unsuited = rs.deck & ~(masks[0] | masks[1] | masks[2] | masks[3])
    symmetric = equivariant(rs)
    shape = Shape.of(rs)
    tables = "".join(f"{name} = {_array(env[name])}\n" for name in ("_SUIT", "_POW", "_SM", "_RANK", "_NSUIT"))
    constants = "".join([
        tables,
        f"ORDER = np.array({order_rows!r}, dtype=np.int64)\n",
        f"ORDLEN = {_array(len(order) for order in orders)}\n",
        f"SMASK = {_array(masks)}\n",
        f"ABOVE = {_array(above)}\n",
        f"UNSUITED = {unsuited}\n",
        f"SYMMETRIC = {symmetric}\n",
        f"NORMALISED = {symmetric and not unsuited}\n",
        f"SHAPE = {shape is not None}\n",
        f"TRUMP = {-1 if shape is None or shape.trump is None else shape.trump}\n",
        f"RESTRICTED = {-1 if shape is None or shape.restricted is None else shape.restricted}\n",
        f"ABORT = {ABORT}\nBAD_WINNER = {BAD_WINNER}\n",
        "".join(f"{name} = {value}\n" for name, value in
                (("ST_TRICK", ST_TRICK), ("ST_NODES", ST_NODES), ("ST_LIMIT", ST_LIMIT), ("ST_TEAM", ST_TEAM),
                 ("ST_COUNTED", ST_COUNTED), ("ST_LAST", ST_LAST), ("ST_QUICK", ST_QUICK), ("ST_BAD", ST_BAD),
                 ("ST_TTMASK", ST_TTMASK), ("KEYS", KEYS), ("TTKEY", TTKEY), ("F_LEADER", F_LEADER),
                 ("F_MASK", F_MASK), ("F_LED", F_LED), ("F_LEAD", F_LEAD), ("F_BROKEN", F_BROKEN),
                 ("F_PLAYED", F_PLAYED), ("F_NEED", F_NEED), ("F_HAND", F_HAND), ("F_N", F_N), ("F_I", F_I),
                 ("F_RESULT", F_RESULT), ("F_SAVED", F_SAVED), ("ENTER", ENTER), ("NEXT", NEXT),
                 ("RETURN", RETURN), ("FINISH", FINISH))),
    ])
    helpers = (HELPERS.replace("{debruijn}", repr(_debruijn_index()))
               .replace("{below}", str(min(power or [0]) - 1)).replace("{above}", str(max(power or [0]) + 1)))
    rules = RULES.replace("{legal}", indent(legal_source(rs, inline, None)))
    return helpers + "\n" + constants + fill(rules, rs, inline) + ENGINE
