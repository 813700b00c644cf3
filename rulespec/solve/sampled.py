"""The sampled player: the double-dummy solver at the table, as bridge programs use it.

At each card it deals the cards it has not seen to the other three seats consistently with what it knows
(how many cards each holds, the suits each has shown void by not following; ``deal_unseen``), solves each
sample double dummy under the variant's rules (``search.searcher``) and plays the card with the best
average.  What it solves for depends on the table (``goal_of``): keeping its side's nil clean (the
opponents try to give the nil bidder a trick), else setting an opponent's nil, else the most tricks for its
side while either contract is still open, else the fewest (no bags).  A card that keeps the sample's value
scores it, any other one less; ties go to the sensible player's card.  Its bids, raises and exchanges are
the sensible player's (``procedure.players``: measured in docs/players.md).  It is scalar only: it plays on
``game.engine`` (``simulate --policy sampled``), one search per sample and card.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from ..core import cards as C
from ..errors import GameError, SearchBudgetError
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
    """The four hands of one sample: ``seat`` holds ``hand``; of the ``unseen`` cards, ``counts[s]`` go to seat
    ``s``, none of a suit in ``voids[s]`` (bits by suit) where that can be kept (the rest, where the hands do
    not take the whole pack, stay out)."""
    cards = C.card_list(unseen)
    spare = len(cards) - sum(counts)
    others = [s for s in range(4) if s != seat]
    for attempt in range(_ATTEMPTS + 1):
        keep = attempt < _ATTEMPTS
        rng.shuffle(cards)

        def room(card: int) -> list[int]:
            suit = rs.suit_of[card]
            return [s for s in others if not (keep and suit >= 0 and voids[s] >> suit & 1)]
        hands, left, out = [0, 0, 0, 0], list(counts), 0
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


def seated(rs: Ruleset) -> None:
    """Refuse a table the player does not play: what it solves for (``goal_of``) is a partnership's, at four
    seats."""
    table = C.table_of(rs.params)
    if table is not C.FOUR:
        rule = "table.sides" if not table.partners else "table.seats"
        raise GameError(f"the sampled player plays four seats in two partnerships; variant '{rs.id}' seats "
                        f"{table.seats} players{' each alone' if not table.partners else ''}", "variant", rule,
                        rs.rules[rule].cite)


def goal_of(seat: int, kind: Sequence[int], num: Sequence[int], won: Sequence[int]) -> tuple[Goal, bool]:
    """What ``seat`` solves for, and whether its side maximises the goal's count (see the module's text)."""
    team = seat % 2
    nil = [s for s in range(4) if kind[s] in (K_NIL, K_BLIND_NIL) and won[s] == 0]
    ours = [s for s in nil if s % 2 == team]
    if ours:
        return Goal.of_team(1 - team, 1 << ours[0]), False
    if nil:
        return Goal.of_team(team, 1 << nil[0]), True
    mine = 0b0101 << team
    if _open(team, kind, num, won) or _open(1 - team, kind, num, won):
        return Goal.of_team(team, mine), True
    return Goal.of_team(1 - team, mine), False


def _open(team: int, kind: Sequence[int], num: Sequence[int], won: Sequence[int]) -> bool:
    """Whether ``team``'s bid tricks are not all taken yet (nil bidders' bids and tricks left out)."""
    seats = [s for s in (team, team + 2) if kind[s] not in (K_NIL, K_BLIND_NIL)]
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

    def choose_card(self, rs: Ruleset, seat: int, legal: int, trick: Sequence[int], hand: int) -> int:
        seated(rs)
        sensible = super().choose_card(rs, seat, legal, trick, hand)
        if legal & (legal - 1) == 0:
            return sensible
        t = self.table
        goal, maximising = goal_of(seat, t.kind, t.num, t.won)
        size = rs.params["deal.hand_size"]
        played_by = [0, 0, 0, 0]
        for s, _ in t.history:
            played_by[s] += 1
        counts = [0 if s == seat else size - played_by[s] for s in range(4)]
        unseen = rs.deck & ~hand & ~t.played
        leader = (seat - len(trick)) % 4
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
