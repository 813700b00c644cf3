"""Non-termination: can a game go on for ever under the rules?

Hands are abstracted to outcomes (each seat's bid and tricks; the cards are
assumed to allow any split of the tricks).  Three kinds of witness are
searched from the start of a game, shortest first:

* standstill: one hand that leaves both scores and bags unchanged, so the
  position repeats exactly and the hand can be played for ever;
* tie lock: hands that give both sides the same points and bags until an end
  condition is met with the scores tied, after which the same hand keeps the
  tie, and the game unfinished, for as long as it is repeated;
* drift: such hands that lower both scores alike, so no end condition is ever
  met within the horizon.
"""
from __future__ import annotations

from dataclasses import dataclass

from ... import game as E
from ...game import BLIND, REGULAR, Bid
from ...model.ruleset import Ruleset


@dataclass(frozen=True)
class TeamOption:
    """One partnership's side of a hand and what it scores from a given position."""
    bids: tuple[Bid, Bid]
    tricks: tuple[int, int]
    points: int
    bags_added: int


def _pair_bids(rs: Ruleset, team: int, scores, bags) -> list[tuple[Bid, Bid]]:
    """Pairs of bids the partnership may make (rules that need the cards are not checked)."""
    first, second = team, team + 2
    pairs = []
    for a in E.bid_candidates(rs):
        bids: list[Bid | None] = [None] * 4
        if E.bid_refusals(rs, first, a, hand=None, dealer=3, bids=bids, scores=scores, bags=bags):
            continue
        bids[first] = a
        seconds = [a] if a.kind == BLIND else E.bid_candidates(rs)
        for b in seconds:
            if not E.bid_refusals(rs, second, b, hand=None, dealer=3, bids=bids, scores=scores, bags=bags):
                pairs.append((a, b))
    return pairs


def _splits(rs: Ruleset, pair: tuple[Bid, Bid], total: int) -> list[tuple[int, int]]:
    """Ways to share ``total`` tricks that can score differently: only a nil
    bidder's own count matters (0, 1 or all)."""
    if not any(b.is_nil for b in pair):
        return [(total, 0)]
    return sorted({(t, total - t) for t in (0, 1, total) if 0 <= t <= total}
                  | {(total - t, t) for t in (0, 1, total) if 0 <= t <= total})


def team_options(rs: Ruleset, team: int, scores=(0, 0), bags=(0, 0)) -> dict[int, list[TeamOption]]:
    """For each number of tricks the team may take, every distinct scoring of it."""
    size = rs.params["deal.hand_size"]
    other = 1 - team
    out: dict[int, list[TeamOption]] = {}
    for pair in _pair_bids(rs, team, scores, bags):
        for total in range(size + 1):
            for split in _splits(rs, pair, total):
                bids = [Bid(REGULAR, 1)] * 4
                tricks = [0] * 4
                bids[team], bids[team + 2] = pair
                tricks[team], tricks[team + 2] = split
                tricks[other] = size - total
                result = E.score_hand(rs, bids, tricks, scores, bags)[team]
                out.setdefault(total, []).append(TeamOption(pair, split, result.points, result.bags_added))
    return out


def _hand(ns: TeamOption, ew: TeamOption) -> dict:
    bids = {"N": str(ns.bids[0]), "S": str(ns.bids[1]), "E": str(ew.bids[0]), "W": str(ew.bids[1])}
    tricks = {"N": ns.tricks[0], "S": ns.tricks[1], "E": ew.tricks[0], "W": ew.tricks[1]}
    return {"bids": bids, "tricks": tricks}


def _play(rs: Ruleset, ns: TeamOption, ew: TeamOption, scores, bags, hands: int) -> tuple:
    bids = [ns.bids[0], ew.bids[0], ns.bids[1], ew.bids[1]]
    tricks = [ns.tricks[0], ew.tricks[0], ns.tricks[1], ew.tricks[1]]
    res = E.score_hand(rs, bids, tricks, scores, bags)
    scores, bags = (res[0].score, res[1].score), (res[0].bags, res[1].bags)
    return scores, bags, E.game_status(rs, scores, bags, hands)


def _symmetric(rs: Ruleset) -> list[tuple[TeamOption, TeamOption]]:
    ns, ew = team_options(rs, 0), team_options(rs, 1)
    size = rs.params["deal.hand_size"]
    pairs = []
    for total, options in ns.items():
        by_score = {(o.points, o.bags_added): o for o in ew.get(size - total, [])}
        seen = set()
        for o in options:
            key = (o.points, o.bags_added)
            if key in by_score and key not in seen:
                seen.add(key)
                pairs.append((o, by_score[key]))
    return pairs


def witnesses(rs: Ruleset, horizon: int = 60) -> list[dict]:
    """Non-termination witnesses, shortest first (empty: none found)."""
    found = []
    pairs = _symmetric(rs)
    still = [(a, b) for a, b in pairs if a.points == 0 and a.bags_added == 0]
    if still:
        a, b = still[0]
        found.append({"kind": "standstill", "hands": 1, "sequence": [_hand(a, b)],
                      "why": "this hand changes neither score nor bags, so the position after it is the "
                             "position before it: the game can repeat it for ever"})
    rising = sorted((p for p in pairs if p[0].points > 0), key=lambda p: -p[0].points)
    falling = sorted((p for p in pairs if p[0].points < 0), key=lambda p: p[0].points)
    for kind, options in (("tie lock", rising), ("tie lock", falling), ("drift", falling)):
        for a, b in options[:3]:
            witness = _repeat(rs, a, b, horizon, kind)
            if witness:
                found.append(witness)
                break
    unique = {}
    for w in found:
        unique.setdefault((w["kind"], w["hands"]), w)
    return sorted(unique.values(), key=lambda w: w["hands"])


def _repeat(rs: Ruleset, a: TeamOption, b: TeamOption, horizon: int, kind: str) -> dict | None:
    """Repeat one symmetric hand: a tie lock when an end condition is met with
    the scores tied and stays so; a drift when no end condition is ever met."""
    scores, bags = (0, 0), (0, 0)
    trail = []
    tied_at = None
    for n in range(1, horizon + 1):
        scores, bags, status = _play(rs, a, b, scores, bags, n)
        trail.append({"NS": scores[0], "EW": scores[1]})
        if status["over"]:
            return None
        if status["reason"].startswith("an end condition") and tied_at is None:
            tied_at = n
        if kind == "tie lock" and tied_at is not None and n >= tied_at + 3:
            return {"kind": kind, "hands": tied_at, "sequence": [_hand(a, b)] * tied_at, "totals": trail[:tied_at],
                    "why": f"after {tied_at} such hand(s) the scores are tied at {trail[tied_at - 1]['NS']} and "
                           f"an end condition is met, but the winner rule names nobody; the same hand keeps "
                           f"the tie (checked for {n - tied_at} more hands), so the game never ends",
                    "rules": ["game.winner", "game.target_reached"]}
    if kind == "drift" and tied_at is None:
        return {"kind": kind, "hands": 1, "sequence": [_hand(a, b)], "totals": trail[:5],
                "why": f"this hand lowers both scores alike ({trail[0]['NS']} per hand); repeated {horizon} "
                       "times no end condition is met: the rules set no floor that ends the game",
                "rules": ["game.target_reached", "game.mercy"]}
    return None

