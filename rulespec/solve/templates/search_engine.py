"""The compiled double-dummy search (``native_source`` writes it after each ruleset's tables, helpers and card
play, the names on the lines marked ``# generated`` defined there; ``templates/names.py`` has stand-ins).

The Python search's algorithm (``search.Search``): a null-window alpha-beta over single cards, depth first on
an explicit stack (numba cannot cache recursive functions) whose frames are the rows of ``mv`` (the words of
``native_arrays``), with interchangeable cards, move ordering, sure-trick bounds and a transposition table of
bounds at trick boundaries; ``docs/solver.md`` describes each part.  The engine indexes only arrays it sized
itself.  The functions split out of a larger one only to keep each below the complexity limit (the stack's
modes, the move list's parts, the table looks) are ``inline="always"``: numba inlines them into their callers,
so the machine code is the unsplit engine's (as separate calls they cost 13 to 23% more CPU on full deals).
"""
from numba import njit  # generated
from numba.cpython.unsafe.numbers import trailing_zeros  # generated

from ..native_arrays import (ABORT, BAD_WINNER, ST_TRICK, ST_NODES, ST_LIMIT, ST_TEAM, ST_COUNTED,  # generated
                             ST_LAST, ST_QUICK, ST_BAD, ST_TTMASK, ST_REL, ST_GEN, TT_BOUNDS, GEN_SHIFT,  # generated
                             KEYS, TTKEY, F_LEADER, F_MASK, F_LED, F_LEAD, F_BROKEN, F_PLAYED, F_NEED,  # generated
                             F_HAND, F_N, F_I, F_RESULT, F_ALLOWED, F_OUTER, F_SAVED, F_KILLER, DEPTHS,  # generated
                             PARTITION_KEY, CODES, REPLIES, WEIGHTS, F_REL_IN, F_REL_ALL, ENTER, NEXT,  # generated
                             RETURN, FINISH)  # generated
from .names import (ABOVE, ENGINE_JIT, NONE, NORMALISED, ORDER, ORDLEN, OSUIT, PARTITION, POWER,  # generated
                    RESTRICTED, SHAPE, SMASK, SUIT_OF, SUIT_SET, SYMMETRIC, TRUMP, UNSUITED, breaks,  # generated
                    legal, popcount, winner)  # generated


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
    rounds, reach = _top_run(suit, mine, lho | rho)
    trump_mask = 0 if TRUMP < 0 or suit == TRUMP else SMASK[TRUMP]
    if lho & trump_mask:
        rounds = min(rounds, popcount(lho & mask))
    if rho & trump_mask:
        rounds = min(rounds, popcount(rho & mask))
    if rounds == 0:
        return 0, 0, 0
    if partner & (trump_mask | ABOVE[_nth_card(suit, mine, rounds)]) == 0:
        return rounds, rounds, reach
    return _unblocked(suit, mine, partner, rounds, trump_mask), 0, reach


@njit(inline="always", **ENGINE_JIT)
def _top_run(suit, mine, opponents):
    # (the cards of ``mine`` in the suit above the opponents' highest, the suit's cards down to that card)
    rounds = 0
    for j in range(ORDLEN[suit]):
        card = ORDER[suit, j]
        if (opponents >> card) & 1:
            return rounds, ABOVE[card] | (1 << card)
        if (mine >> card) & 1:
            rounds += 1
    return rounds, SMASK[suit]


@njit(inline="always", **ENGINE_JIT)
def _nth_card(suit, mine, n):
    # the n-th highest card of ``mine`` in the suit (NONE: fewer)
    k = 0
    for j in range(ORDLEN[suit]):
        card = ORDER[suit, j]
        if (mine >> card) & 1:
            k += 1
            if k == n:
                return card
    return NONE


@njit(inline="always", **ENGINE_JIT)
def _unblocked(suit, mine, partner, rounds, trump_mask):
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
                return i + 1
            low_j -= 1
        elif partner & trump_mask:
            return i + 1
        i += 1
    return rounds


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
            lengths |= popcount(hands[seat] & SMASK[suit]) << (4 * seat)
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
    mv[p, TTKEY + 3] = mv[p, CODES + 32 + ((depths >> 16) & 255)] \
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
    weight = -3 * (popcount(lho & mask) + popcount(rho & mask))
    if TRUMP >= 0 and suit != TRUMP:
        weight += _ruff_weight(lho, partner, rho, mask, SMASK[TRUMP])
    top, second = _top_two(suit, (mine | lho | partner | rho) & mask)
    if ((rho >> top) & 1 or (second != NONE and (rho >> second) & 1)) and popcount(rho & mask) != 1:
        weight -= 12
    elif (lho >> top) & 1 and second != NONE and (partner >> second) & 1 and popcount(partner & mask) != 1:
        weight += 27
    return weight


@njit(inline="always", **ENGINE_JIT)
def _ruff_weight(lho, partner, rho, mask, trumps):
    # a side suit's lead: less when an opponent can ruff it, more when partner can (and rho must follow)
    weight = 0
    if (lho & mask == 0 and lho & trumps) or (rho & mask == 0 and rho & trumps):
        weight -= 12
    if partner & mask == 0 and partner & trumps and rho & mask:
        weight += 17
    return weight


@njit(inline="always", **ENGINE_JIT)
def _top_two(suit, live):
    # the suit's two highest cards of ``live`` (NONE where it has fewer)
    top = NONE
    for j in range(ORDLEN[suit]):
        card = ORDER[suit, j]
        if (live >> card) & 1:
            if top != NONE:
                return top, card
            top = card
    return top, NONE


@njit(**ENGINE_JIT)
def _moves(st, mv, p, seat, allowed, trick_mask, leader, index, led, lead, number, maximising, broken, played):
    # the cards to try into row p, best guesses first: one of each run of interchangeable cards
    n = _candidates(st, mv, p, allowed, trick_mask)
    if n < 2:
        return n
    if SHAPE:
        _forecast_keys(st, mv, p, n, seat, trick_mask, leader, index, led, lead, number, maximising, broken, played)
    else:
        _plain_keys(st, mv, p, n, seat, trick_mask, leader, index, led, lead, number, maximising)
    _sort_moves(mv, p, n)
    return n


@njit(inline="always", **ENGINE_JIT)
def _candidates(st, mv, p, allowed, trick_mask):
    # the cards to try into row p, unordered (one of each run of interchangeable cards): their number
    n = 0
    rest = allowed
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
    while rest:
        low = rest & -rest
        mv[p, n] = trailing_zeros(low)
        n += 1
        rest ^= low
    return n


@njit(inline="always", **ENGINE_JIT)
def _forecast_keys(st, mv, p, n, seat, trick_mask, leader, index, led, lead, number, maximising, broken, played):
    # the ordering keys of row p's n cards by the trick forecast: each later seat plays its strongest card
    # (trick.winner's form is known, so any set of cards may be asked); the cards that make the trick go this
    # seat's way first
    if index == 0:
        seen = 0
        for i in range(n):
            key, seen = _lead_key(st, mv, p, mv[p, i], seat, number, maximising, broken, played, seen)
            mv[p, KEYS + i] = key
        return
    counted = st[ST_COUNTED]
    replies = _responses(st, leader, index, trick_mask, led, number, lead, broken, played)
    for i in range(n):
        card = mv[p, i]
        win = winner(trick_mask | (1 << card) | replies, led, number, lead)
        bad = ((counted >> _taker(st, seat, card, leader, index, win)) & 1 == 1) != maximising
        mv[p, KEYS + i] = (1 << 32 if bad else 0) + POWER[card]


@njit(inline="always", **ENGINE_JIT)
def _lead_key(st, mv, p, card, seat, number, maximising, broken, played, seen):
    # a lead's ordering key in row p and the suits whose forecast replies and weights row p now holds: the lead
    # that last cut this row's search short first; good leads to another seat's card (partner's), lowest first;
    # then the leader's own, highest first; then the others by their suit's weight
    suit = SUIT_OF[card]
    if suit < 0:
        return -POWER[card], seen
    if not (seen >> suit) & 1:
        seen |= 1 << suit
        mv[p, REPLIES + suit] = _responses(st, seat, 0, 1 << card, suit, number, card, broken, played)
        mv[p, WEIGHTS + suit] = _lead_weight(st, seat, suit) * 32
    if card == mv[p, F_KILLER] - 1:
        return -(1 << 40), seen
    win = winner((1 << card) | mv[p, REPLIES + suit], suit, number, card)
    by = _taker(st, seat, card, seat, 0, win)
    if ((st[ST_COUNTED] >> by) & 1 == 1) != maximising:
        return (1 << 32) + POWER[card] - mv[p, WEIGHTS + suit], seen
    if by != seat:
        return -(1 << 20) + POWER[card], seen
    return -POWER[card], seen


@njit(inline="always", **ENGINE_JIT)
def _plain_keys(st, mv, p, n, seat, trick_mask, leader, index, led, lead, number, maximising):
    # the ordering keys of row p's n cards where no forecast is made: leads lowest first; else the cards that
    # win the trick so far for this seat's side (or lose it for the other's) first, each lowest first
    counted = st[ST_COUNTED]
    for i in range(n):
        card = mv[p, i]
        if index == 0:
            mv[p, KEYS + i] = -POWER[card]
        else:
            win = winner(trick_mask | (1 << card), led, number, lead)
            by = seat
            if win != card:
                for k in range(index):
                    if st[ST_TRICK + k] == win:
                        by = (leader + k) & 3
            bad = ((counted >> by) & 1 == 1) != maximising
            mv[p, KEYS + i] = (1 << 32 if bad else 0) + POWER[card]


@njit(inline="always", **ENGINE_JIT)
def _sort_moves(mv, p, n):
    # row p's n cards in the order of their keys (a stable insertion sort)
    for i in range(1, n):
        card = mv[p, i]
        key = mv[p, KEYS + i]
        j = i - 1
        while j >= 0 and mv[p, KEYS + j] > key:
            mv[p, KEYS + j + 1] = mv[p, KEYS + j]
            mv[p, j + 1] = mv[p, j]
            j -= 1
        mv[p, KEYS + j + 1] = key
        mv[p, j + 1] = card


@njit(**ENGINE_JIT)
def _last_trick(st, leader, number):
    # one card each: (the seat winning, its card) or (NONE, the card trick.winner named, not in the trick)
    trick_mask = 0
    for seat in range(4):
        trick_mask |= st[seat]
    lead_card = trailing_zeros(st[leader])
    win = winner(trick_mask, SUIT_OF[lead_card], number, lead_card)
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
        return _last_answer(st, leader, number)
    if PARTITION and number > 1:
        return _relevant_look(st, mv, tk, dt, p, leader, number, broken, left, need)
    return _exact_look(st, mv, tk, p, leader, number, broken, left, need)


@njit(inline="always", **ENGINE_JIT)
def _last_answer(st, leader, number):
    # the last trick's: 1 or 0 whether a counted seat takes it, BAD_WINNER
    seat, card = _last_trick(st, leader, number)
    if seat < 0:
        st[ST_BAD] = card
        return BAD_WINNER
    if PARTITION:
        if (st[0] | st[1] | st[2] | st[3]) & SMASK[OSUIT[card]] & ~(1 << card):   # it beat a card of its suit
            st[ST_REL] |= 1 << card
    return (st[ST_COUNTED] >> seat) & 1


@njit(inline="always", **ENGINE_JIT)
def _relevant_look(st, mv, tk, dt, p, leader, number, broken, left, need):
    # partition: the sure-trick bounds, else an entry on the cards that mattered (the cards read marked)
    if st[ST_QUICK]:
        decided, read = _decide(st, leader, number, broken, left, need)
        if decided >= 0:
            st[ST_REL] |= _reach(st, read)
            return decided
    _bucket(st, leader, broken, mv, p)
    return _look(st, tk, dt, mv, p, need)


@njit(inline="always", **ENGINE_JIT)
def _exact_look(st, mv, tk, p, leader, number, broken, left, need):
    # the entry of the exact position (made from the sure-trick bounds when absent) deciding ``need``, else -1
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
                led = SUIT_OF[card]
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
    mode = ENTER
    r = 0
    while True:
        if mode == ENTER:
            r = _enter(st, mv, tk, dt, p)
            if r == ABORT or r == BAD_WINNER:
                return r
            mode = NEXT if r < 0 else RETURN
        if mode == NEXT:
            r = _next(st, mv, p)
            if r == BAD_WINNER:
                return r
            if r < 0:                  # a card played: its frame next
                p += 1
                mode = ENTER
                continue
            mode = FINISH
        if mode == RETURN:
            # ``r`` is the answer of frame p: back to its parent, the card it tried taken back
            if p == root:
                return r
            p -= 1
            mode = FINISH if _back(st, mv, p, r) else NEXT
        if mode == FINISH:
            # frame p is decided (``r``): a bound for the table at a trick boundary
            if p & 3 == 0:
                _finish(st, mv, tk, dt, p, r)
            mode = RETURN


@njit(inline="always", **ENGINE_JIT)
def _enter(st, mv, tk, dt, p):
    # frame p entered: 1 or 0 when decided at once, ABORT, BAD_WINNER, else -1 (its cards to try set out)
    number = p >> 2
    index = p & 3
    leader = mv[p, F_LEADER]
    if index == 0:
        r = _boundary(st, mv, tk, dt, p, leader, number, mv[p, F_BROKEN] != 0, mv[p, F_NEED])
        if r >= 0:
            return r
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
    maximising = seat & 1 == st[ST_TEAM]
    mv[p, F_N] = _moves(st, mv, p, seat, allowed, mv[p, F_MASK], leader, index, mv[p, F_LED], mv[p, F_LEAD],
                        number, maximising, mv[p, F_BROKEN] != 0, mv[p, F_PLAYED])
    mv[p, F_I] = 0
    mv[p, F_RESULT] = 0 if maximising else 1
    if PARTITION:
        mv[p, F_REL_IN] = st[ST_REL]
        mv[p, F_REL_ALL] = st[ST_REL]
    return -1


@njit(inline="always", **ENGINE_JIT)
def _next(st, mv, p):
    # frame p's next card played (-1: frame p + 1 set), BAD_WINNER, else frame p's answer (every card tried)
    i = mv[p, F_I]
    if i >= mv[p, F_N]:
        if PARTITION:
            st[ST_REL] = mv[p, F_REL_ALL]
            if st[ST_REL]:
                _close(st, mv[p, F_ALLOWED], mv[p, F_MASK])
        return mv[p, F_RESULT]
    mv[p, F_I] = i + 1
    return _play(st, mv, p, mv[p, i])


@njit(inline="always", **ENGINE_JIT)
def _play(st, mv, p, card):
    # frame p's seat plays ``card``: the position after it in row p + 1 (-1), or BAD_WINNER
    number = p >> 2
    index = p & 3
    leader = mv[p, F_LEADER]
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
        led = SUIT_OF[card]
        lead = card
    st[seat] = hand & ~bit
    st[ST_TRICK + index] = card
    now_mask = mv[p, F_MASK] | bit
    mv[p + 1, F_BROKEN] = broken
    mv[p + 1, F_PLAYED] = mv[p, F_PLAYED] | bit
    if index == 3:
        return _settle(st, mv, p, now_mask, led, number, lead)
    mv[p + 1, F_LEADER] = leader
    mv[p + 1, F_MASK] = now_mask
    mv[p + 1, F_LED] = led
    mv[p + 1, F_LEAD] = lead
    mv[p + 1, F_NEED] = mv[p, F_NEED]
    return -1


@njit(inline="always", **ENGINE_JIT)
def _settle(st, mv, p, now_mask, led, number, lead):
    # the trick of frame p's card settled: the next trick's start in row p + 1 (-1), or BAD_WINNER
    win = winner(now_mask, led, number, lead)
    if win < 0 or not (now_mask >> win) & 1:
        st[ST_BAD] = win
        return BAD_WINNER
    leader = mv[p, F_LEADER]
    by = leader
    for k in range(4):
        if st[ST_TRICK + k] == win:
            by = (leader + k) & 3
    if PARTITION and now_mask & SUIT_SET[SUIT_OF[win]] & ~(1 << win):    # it beat a card of its suit
        st[ST_REL] |= 1 << win
    for k in range(3):
        mv[p, F_SAVED + k] = st[ST_TRICK + k]
    mv[p + 1, F_LEADER] = by
    mv[p + 1, F_MASK] = 0
    mv[p + 1, F_LED] = NONE
    mv[p + 1, F_LEAD] = NONE
    mv[p + 1, F_NEED] = mv[p, F_NEED] - ((st[ST_COUNTED] >> by) & 1)
    return -1


@njit(inline="always", **ENGINE_JIT)
def _back(st, mv, p, r):
    # frame p's card taken back, its subtree's answer ``r``: True when it decides frame p (its answer r)
    index = p & 3
    seat = (mv[p, F_LEADER] + index) & 3
    st[seat] = mv[p, F_HAND]
    if index == 3:
        for k in range(3):
            st[ST_TRICK + k] = mv[p, F_SAVED + k]
    if PARTITION:
        mv[p, F_REL_ALL] |= st[ST_REL]
    if (r == 1) == (seat & 1 == st[ST_TEAM]):     # decided by this card: what its subtree relied on (the others' not)
        mv[p, F_KILLER] = mv[p, mv[p, F_I] - 1] + 1
        mv[p, F_RESULT] = r
        return True
    return False


@njit(inline="always", **ENGINE_JIT)
def _finish(st, mv, tk, dt, p, r):
    # frame p, at a trick boundary, decided (``r``): its bound into the table
    number = p >> 2
    left = st[ST_LAST] - number + 1
    if PARTITION and number > 1:
        rel = st[ST_REL]
        st[ST_REL] = mv[p, F_OUTER] | rel
        if r == 1:
            _remember(st, tk, dt, mv, p, rel, mv[p, F_NEED], left, left)
        else:
            _remember(st, tk, dt, mv, p, rel, 0, mv[p, F_NEED] - 1, left)
    elif r == 1:
        _store(st, tk, mv, p, mv[p, F_NEED], left, left)
    else:
        _store(st, tk, mv, p, 0, mv[p, F_NEED] - 1, left)
