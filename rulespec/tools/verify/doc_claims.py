"""The documents' own factual statements about their rules, as properties.

Each claim is checked against the variant of its document (over the explored
games and on the document's own worked examples) and against every bundled
variant, so a failing claim also says under which rules it would hold.
"""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable

from ...core import cards as C
from ... import game as E
from ...game import BLIND_NIL, REGULAR, Bid, parse_bid
from ...errors import GameError
from ...model.ruleset import Ruleset
from .states import Evidence


@dataclass(frozen=True)
class Claim:
    id: str
    doc: str
    cite: str
    text: str
    check: Callable[[Ruleset, Evidence], dict | None]  # a counterexample, or None when it holds


def _team_hand(rs: Ruleset, bids: list, tricks: list[int], scores=(0, 0), bags=(0, 0)) -> list:
    """Score a hand given NS bids/tricks as (N, S) and EW as (E, W) in seat order N E S W."""
    return E.score_hand(rs, [parse_bid(b) for b in bids], tricks, scores, bags)


def _expect(rs: Ruleset, bids: list, tricks: list[int], want: int, team: int = 0, bags=(0, 0)) -> dict | None:
    res = _team_hand(rs, bids, tricks, bags=bags)[team]
    if res.points == want:
        return None
    return {"bids": dict(zip(C.SEATS, map(str, bids))), "tricks": dict(zip(C.SEATS, tricks)),
            "bags_before": {C.TEAMS[team]: bags[team]}, "claimed": want, "engine": res.points,
            "lines": [{"rule": ln["rule"], "points": ln["points"], "why": ln["why"]} for ln in res.lines]}


def last_digit(rs: Ruleset, ev: Evidence) -> dict | None:
    """A positive score's last digit is the team's bag count (score = bags mod 10)."""
    for game in ev.games:
        before = (0, 0, 0, 0)
        for total in game:
            for team in (0, 1):
                score, bags = total[team], total[2 + team]
                if score > 0 and score % 10 != bags % 10:
                    o = ev.outcomes[total[4]]
                    return {"score_before": before[team], "bags_before": before[2 + team],
                            "hand": {"bids": {C.SEATS[s]: str(b) for s, b in enumerate(o.bids)},
                                     "tricks": {C.SEATS[s]: t for s, t in enumerate(o.tricks)}},
                            "team": C.TEAMS[team], "score": score, "bags": bags,
                            "lines": [{"rule": ln["rule"], "points": ln["points"]} for ln in o.results[team].lines]}
            before = total
    return None


def thirteen_tricks(rs: Ruleset, ev: Evidence) -> dict | None:
    size = rs.params["deal.hand_size"]
    if size != 13:
        return {"deal.hand_size": size}
    bad = next((o for o in ev.outcomes if sum(o.tricks) != 13), None)
    return {"tricks": list(bad.tricks)} if bad else None


def bid_range(low: int, high: int) -> Callable[[Ruleset, Evidence], dict | None]:
    def check(rs: Ruleset, ev: Evidence) -> dict | None:
        for st in ev.bid_states:
            for bid in E.legal_bids(rs, st.seat, st.hand, st.dealer, list(st.bids), st.scores, st.bags):
                if bid.kind == REGULAR and not low <= bid.n <= high:
                    return {"seat": C.SEATS[st.seat], "legal_bid": str(bid),
                            "bids_so_far": {C.SEATS[s]: str(b) for s, b in enumerate(st.bids) if b}}
        return None
    return check


def team_minimum(rs: Ruleset, ev: Evidence) -> dict | None:
    """Every regular bid is at least 2 and every partnership contract at least 4."""
    found = bid_range(2, 13)(rs, ev)
    if found:
        return found
    for o in ev.outcomes:
        for team in (0, 1):
            pair = [o.bids[team], o.bids[team + 2]]
            if any(b.kind == REGULAR for b in pair) and E.team_contract(rs, pair) < 4:
                return {"bids": {C.SEATS[s]: str(b) for s, b in enumerate(o.bids)}, "team": C.TEAMS[team],
                        "contract": E.team_contract(rs, pair)}
    return None


def _all(*cases) -> Callable[[Ruleset, Evidence], dict | None]:
    """A check made of worked examples: (bids N E S W, tricks N E S W, claimed points for NS)."""
    def check(rs: Ruleset, ev: Evidence) -> dict | None:
        for case in cases:
            found = _expect(rs, *case)
            if found:
                return found
        return None
    return check


def _nil_points(rs: Ruleset, kind: str, took: int) -> int:
    res = _team_hand(rs, [kind, 3, 4, 3], [took, 3, 4, 6 - took])[0]
    return sum(ln["points"] for ln in res.lines if ln["rule"].startswith(("nil.", "blind_nil.")))


def blind_nil_double(rs: Ruleset, ev: Evidence) -> dict | None:
    for took in (0, 1):
        nil, blind = _nil_points(rs, "nil", took), _nil_points(rs, "blind nil", took)
        if blind != 2 * nil:
            return {"nil_bidder_took": took, "nil": nil, "blind_nil": blind}
    return None


def one_blind_nil(rs: Ruleset, ev: Evidence) -> dict | None:
    """With partner already blind nil (and the side far behind), blind nil is refused."""
    bids = [Bid(BLIND_NIL), None, None, None]
    if E.bid_refusals(rs, 2, Bid(BLIND_NIL), hand=None, dealer=3, bids=bids, scores=(-500, 0)):
        return None
    return {"scores": {"NS": -500, "EW": 0}, "bids_so_far": {"N": "blind nil"}, "S may bid": "blind nil"}


def blind_nil_deficit(need: int) -> Callable[[Ruleset, Evidence], dict | None]:
    def check(rs: Ruleset, ev: Evidence) -> dict | None:
        for deficit, allowed in ((need - 1, False), (need, True)):
            refused = E.bid_refusals(rs, 0, Bid(BLIND_NIL), hand=None, dealer=3, bids=[None] * 4,
                                     scores=(-deficit, 0))
            if bool(refused) == allowed:
                return {"behind_by": deficit, "blind_nil": "refused" if refused else "allowed"}
        return None
    return check


def higher_wins(*cases: tuple[int, int, str]) -> Callable[[Ruleset, Evidence], dict | None]:
    def check(rs: Ruleset, ev: Evidence) -> dict | None:
        for ns, ew, want in cases:
            status = E.game_status(rs, (ns, ew))
            got = status["winner"] if status["over"] else "play on"
            if got != want:
                return {"scores": {"NS": ns, "EW": ew}, "claimed": want, "engine": got}
        return None
    return check


def bag_penalty_at(score: int, bags: int) -> Callable[[Ruleset, Evidence], dict | None]:
    """From ``score`` with ``bags`` bags, two more bags bring a 100-point penalty."""
    def check(rs: Ruleset, ev: Evidence) -> dict | None:
        res = _team_hand(rs, [3, 4, 2, 2], [4, 4, 3, 2], (score, 0), (bags, 0))[0]
        if any(ln["rule"] == "bags.penalty" and ln["points"] == -100 for ln in res.lines):
            return None
        return {"score_before": score, "bags_before": bags, "hand": "bid 5, took 7",
                "lines": [{"rule": ln["rule"], "points": ln["points"]} for ln in res.lines]}
    return check


def failed_nil_helps(rs: Ruleset, ev: Evidence) -> dict | None:
    res = _team_hand(rs, ["nil", 3, 4, 3], [2, 3, 2, 6])[0]
    if any(ln["rule"] == "scoring.made" for ln in res.lines):
        return None
    return {"bids": {"N": "nil", "S": "4"}, "tricks": {"N": 2, "S": 2},
            "lines": [{"rule": ln["rule"], "points": ln["points"]} for ln in res.lines]}


def nil_tricks_apart(rs: Ruleset, ev: Evidence) -> dict | None:
    """A nil bidder's tricks neither make the partner's bid nor count as bags (beside a bid set, and
    beside a bid made on the partner's own tricks)."""
    for tricks in ([3, 3, 2, 5], [3, 3, 4, 3]):
        res = _team_hand(rs, ["nil", 3, 4, 3], tricks)[0]
        if res.bags_added or tricks[2] < 4 and any(ln["rule"] == "scoring.made" for ln in res.lines):
            return {"bids": {"N": "nil", "S": "4"}, "tricks": {"N": tricks[0], "S": tricks[2]},
                    "bags_added": res.bags_added,
                    "lines": [{"rule": ln["rule"], "points": ln["points"]} for ln in res.lines]}
    return None


CLAIMS = (
    Claim("000-min-bids", "000", "000 §BIDDING",
          "Apart from nil, a player bids at least 2, and a partnership's bids add up to at least 4.", team_minimum),
    Claim("000-nil-tricks", "000", "000 §BIDDING",
          "Tricks won by a nil bidder help neither the partner's contract nor the bag count.",
          nil_tricks_apart),
    Claim("000-overtricks", "000", "000 §SCORING",
          "Overtricks earn no points.",
          _all(([2, 3, 2, 3], [4, 3, 2, 4], 40))),
    Claim("000-blind-7-8", "000", "000 §SCORING",
          "A blind 7 is worth 140 made or set, a blind 8 is worth 160.",
          _all((["blind 7", 3, "blind 7", 3], [4, 3, 3, 3], 140), (["blind 7", 3, "blind 7", 3], [3, 4, 3, 3], -140),
               (["blind 8", 3, "blind 8", 3], [4, 2, 4, 3], 160), (["blind 8", 3, "blind 8", 3], [4, 3, 3, 3], -160))),
    Claim("000-both-500", "000", "000 §GAME",
          "When both sides pass 500 on one deal, the larger score takes the game.",
          higher_wins((520, 510, "NS"), (510, 530, "EW"))),
    Claim("000-13-cards", "000", "000 §THE DEAL", "Each player holds 13 cards, so every hand has 13 tricks.",
          thirteen_tricks),
    Claim("001-13-tricks", "001", "001 §Turns", "Every hand has 13 tricks.", thirteen_tricks),
    Claim("001-worked-example", "001", "001 §Worked example",
          "Bid 5, took 7: 52 points and 2 bags; starting from 9 bags the same hand is worth -48.",
          _all(([3, 3, 2, 3], [4, 3, 3, 3], 52), ([3, 3, 2, 3], [4, 3, 3, 3], -48, 0, (9, 0)))),
    Claim("001-failed-nil-helps", "001", "001 §Nil bids",
          "A nil bidder who fails still adds tricks toward the partner's contract.", failed_nil_helps),
    Claim("001-one-at-500", "001", "001 §Winning",
          "A side alone at 500 or more wins; with both there, the larger score wins.",
          higher_wins((500, 490, "NS"), (120, 505, "EW"), (520, 510, "NS"))),
    Claim("002-last-digit", "002", "002 §Scoring",
          "For a positive score, the units digit equals the side's running bag count.",
          last_digit),
    Claim("002-example-71", "002", "002 §Scoring",
          "Bid 7 and took 8: +71; bid 7 and took 5: -70.",
          _all(([3, 3, 4, 3], [4, 2, 4, 3], 71), ([3, 3, 4, 3], [2, 4, 3, 4], -70))),
    Claim("002-blind-nil-double", "002", "002 §Scoring",
          "Blind nil is worth double an ordinary nil.", blind_nil_double),
    Claim("002-one-blind-nil", "002", "002 §Bidding", "A partnership has at most one blind nil.",
          one_blind_nil),
    Claim("002-blind-nil-100", "002", "002 §Bidding",
          "Blind nil needs the bidder's side to trail by 100 or more.",
          blind_nil_deficit(100)),
    Claim("003-13-tricks", "003", "003 ¶4", "Every hand has 13 tricks.", thirteen_tricks),
    Claim("003-bag-cycle", "003", "003 ¶3",
          "A bag is worth 1 point, and the tenth bag costs 100.", bag_penalty_at(78, 8)),
    Claim("004-13-tricks", "004", "004 §End of a Round", "A round ends after 13 tricks.",
          thirteen_tricks),
    Claim("004-bid-range", "004", "004 §Bidding", "Bids run from 0 to 13.", bid_range(1, 13)),
    Claim("004-set-flat", "004", "004 §Getting Set",
          "A set costs 10 per trick bid, however far short the side falls.",
          _all(([3, 3, 3, 3], [4, 3, 1, 5], -60), ([3, 3, 3, 3], [1, 6, 0, 6], -60))),
    Claim("004-last-digit", "004", "004 §Sandbagging",
          "The last digit of a score is the bag count (78 points: 8 bags).", last_digit),
    Claim("004-two-more-bags", "004", "004 §Sandbagging",
          "From 78 points and 8 bags, two more bags cost 100.", bag_penalty_at(78, 8)),
    Claim("004-nil-examples", "004", "004 §Nil and Blind Nil",
          "Nil made beside a made 4: 90; nil made beside a set 4: 10.",
          _all(([4, 4, 4, "nil"], [4, 4, 5, 0], 90, 1), ([4, 4, 5, "nil"], [5, 3, 5, 0], 10, 1))),
    Claim("004-blind-nil-100", "004", "004 §Blind Nil",
          "Blind nil is open to a side 100 or more behind.", blind_nil_deficit(100)),
)


def run_claim(claim: Claim, rs: Ruleset, ev: Evidence) -> dict | None:
    """The claim's counterexample under ``rs`` (None: it holds); an engine refusal counts as one."""
    try:
        return claim.check(rs, ev)
    except GameError as exc:
        return {"engine_error": str(exc)}
