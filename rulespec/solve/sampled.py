"""The sampled player: the double-dummy solver at the table, as bridge programs use it.

At each card it deals the cards it has not seen to the other seats of the table consistently with what it
knows (how many cards each holds, the suits each has shown void by not following; at a drawn deal, the top
cards it saw and discarded are out of play; ``deal_unseen``), solves each sample double dummy under the
variant's rules (``search.searcher``) and plays the card with the best average.  What it solves for
(``goal_of``): keeping its side's nil clean (everyone else tries to give the nil bidder a trick), else setting
another side's nil (with everyone but the nil bidder), else the most tricks for its side while any contract
is still open, else the fewest (no bags); its side is its partnership, or where each plays alone the seat
itself, against everyone else.  A card that keeps the sample's value scores it, any other one less; ties go
to the sensible player's card.  Its bids, raises, exchanges and draws are the sensible player's
(``procedure.players``: measured in docs/players.md).  It is scalar only: it plays on ``game.engine``
(``simulate --policy sampled``), one search per sample and card.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from ..core import cards as C
from ..errors import SearchBudgetError
from ..game.policies import SensiblePolicy
from ..model.ruleset import Ruleset
from ..procedure.lang import K_BLIND_NIL, K_NIL, NONE
from .native import searcher
from .search import Budget, Goal, Position, Search, rules_for

SAMPLES = 8             # deals solved per card, by default
NODES = 200_000         # the searches' nodes per card, over its samples, by default
_ATTEMPTS = 40          # tries at a deal that keeps every void before the voids are let go


def deal_unseen(rs: Ruleset, rng: random.Random, seat: int, hand: int, unseen: int, counts: Sequence[int],
                voids: Sequence[int]) -> list[int]:
    """The hands of one sample, a hand per seat of ``counts``: ``seat`` holds ``hand``; of the ``unseen`` cards,
    ``counts[s]`` go to seat ``s``, none of a suit in ``voids[s]`` (bits by suit) where that can be kept (the
    rest, where the hands do not take the whole pack, stay out)."""
    cards = C.card_list(unseen)
    spare = len(cards) - sum(counts)
    others = [s for s in range(len(counts)) if s != seat]
    for attempt in range(_ATTEMPTS + 1):
        keep = attempt < _ATTEMPTS
        rng.shuffle(cards)

        def room(card: int) -> list[int]:
            suit = rs.suit_of[card]
            return [s for s in others if not (keep and suit >= 0 and voids[s] >> suit & 1)]
        hands, left, out = [0] * len(counts), list(counts), 0
        hands[seat] = hand
        ok = True
        for card in sorted(cards, key=lambda c: len(room(c))):     # (the most constrained cards first)
            seats = [s for s in room(card) if left[s] > 0]
            if not seats or out < spare and rng.random() * (len(cards) - out) < spare - out:
                out += 1
                ok = out <= spare
                if not ok:
                    break
                continue
            s = rng.choices(seats, weights=[left[s] for s in seats])[0]
            hands[s] |= 1 << card
            left[s] -= 1
        if ok:
            return hands
    raise AssertionError("the unseen cards do not fit the seats' counts")     # (the counts are the engine's)


def goal_of(seat: int, kind: Sequence[int], num: Sequence[int], won: Sequence[int], table: C.Table = C.FOUR
            ) -> tuple[Goal, bool]:
    """What ``seat`` solves for at ``table``, and whether it maximises the goal's count (see the module's
    text)."""
    everyone = (1 << table.seats) - 1
    side = table.side_of(seat)
    mine = sum(1 << s for s in table.members(side))
    nil = [s for s in range(table.seats) if kind[s] in (K_NIL, K_BLIND_NIL) and won[s] == 0]
    ours = [s for s in nil if table.side_of(s) == side]
    if ours:
        return Goal(everyone & ~mine, 1 << ours[0]), False
    if nil:
        theirs = sum(1 << s for s in table.members(table.side_of(nil[0])))
        return Goal(everyone & ~theirs, 1 << nil[0]), True
    if any(_open(table, other, kind, num, won) for other in range(table.sides)):
        return Goal(mine, mine), True
    return Goal(everyone & ~mine, mine), False


def _open(table: C.Table, side: int, kind: Sequence[int], num: Sequence[int], won: Sequence[int]) -> bool:
    """Whether ``side``'s bid tricks are not all taken yet (nil bidders' bids and tricks left out)."""
    seats = [s for s in table.members(side) if kind[s] not in (K_NIL, K_BLIND_NIL)]
    return sum(won[s] for s in seats) < sum(num[s] for s in seats)


class SampledPolicy(SensiblePolicy):
    """The sampled player (see the module's text): up to ``samples`` deals solved per card, the searches of a
    card stopping after ``nodes`` nodes in all (the sample being solved then is left out; with none solved,
    the sensible card): a bound on a card's work that keeps the player deterministic."""
    name = "sampled"

    def __init__(self, rng: random.Random, samples: int = SAMPLES, nodes: int = NODES):
        super().__init__(rng)
        self.samples, self.nodes = samples, nodes
        self.solved = 0         # samples solved, and left out past the node allowance (for the benches)
        self.dropped = 0
        self.broken = False
        self.discarded = [0] * C.MAX_SEATS   # by seat: the top cards it saw and discarded at a drawn deal

    def keep(self, rs: Ruleset, seat: int, card: int, hand: int, turn: int) -> int:
        """The sensible player's draw (``deal.draw``); a top card discarded is out of play, as its seat saw."""
        kept = super().keep(rs, seat, card, hand, turn)
        if not kept:
            self.discarded[seat] |= 1 << card
        return kept

    def choose_card(self, rs: Ruleset, seat: int, legal: int, trick: Sequence[int], hand: int) -> int:
        sensible = super().choose_card(rs, seat, legal, trick, hand)
        if legal & (legal - 1) == 0:
            return sensible
        t, table = self.table, C.table_of(rs.params)
        goal, maximising = goal_of(seat, t.kind, t.num, t.won, table)
        size = rs.params["deal.hand_size"]
        played_by = [0] * table.seats
        for s, _ in t.history:
            played_by[s] += 1
        counts = [0 if s == seat else size - played_by[s] for s in range(table.seats)]
        unseen = rs.deck & ~hand & ~t.played & ~self.discarded[seat]
        leader = (seat - len(trick)) % table.seats
        totals: dict[int, float] = {}
        left = self.nodes
        for _ in range(self.samples):
            hands = deal_unseen(rs, self.rng, seat, hand, unseen, counts, t.voids)
            pos = Position(hands, leader, list(trick), t.number, self.broken, t.played & ~C.mask_of(trick))
            search = searcher(rs, pos, goal, Budget(nodes=left))
            try:
                values = self._values(rs, search, seat, legal, maximising, sensible)
            except SearchBudgetError:
                self.dropped += 1
                break
            self.solved += 1
            left -= search.nodes
            for card, value in values:
                totals[card] = totals.get(card, 0.0) + value
        if not totals:
            return sensible
        best = max(totals.values())
        top = [card for card, total in totals.items() if total == best]
        return sensible if sensible in top else min(top, key=lambda c: (rs.power[c], c))

    def seen_card(self, rs: Ruleset, seat: int, card: int) -> None:
        """A card played: trumps broken by it, if rule ``trump.breaks`` says so (asked without the player's
        hand, which the table does not see), then the table's record."""
        t = self.table
        led = rs.suit_of[t.trick[0]] if t.trick else NONE
        self.broken = self.broken or bool(rules_for(rs).breaks(card, 0, not t.trick, led, t.number))
        super().seen_card(rs, seat, card)

    @staticmethod
    def _values(rs: Ruleset, search: Search, seat: int, legal: int, maximising: bool,
                sensible: int) -> list[tuple[int, float]]:
        """Each card to try (one of each run of interchangeable cards, and the sensible card) with its value in
        this sample: the goal's count kept, or one worse."""
        pos = search.root
        trick = pos.trick
        mask, lead = C.mask_of(trick), trick[0] if trick else NONE
        led = rs.suit_of[lead] if trick else NONE
        goal_max = bool(search.goal.side >> seat & 1)
        moves = search._moves(seat, legal, mask, led, lead, pos.number, goal_max)
        if sensible not in moves:
            moves.append(sensible)
        value = search.value()
        need = value if goal_max else value + 1
        out = []
        for card in moves:
            reaches = search._after(seat, pos.hands[seat], card, pos.leader, len(trick), mask, led, lead, pos.number,
                                    pos.broken, pos.played, need)
            kept = reaches if goal_max else not reaches
            count = value if kept else (value - 1 if goal_max else value + 1)
            out.append((card, float(count if maximising else -count)))
        return out
