"""Review a game record card by card: the double-dummy value of the position before and after each card,
under the variant, and the cards that cost a trick, a nil or the contract.

Each hand is replayed as the audit replays it (``answers.answer_score`` through ``HandState``), the
position before each card kept.  Each position is then asked as a ``/v1/solve`` body
(``claims.answer_solve``; a nil bidder's as a ``/v1/nil`` body) from the last card back, so that when the
request's search budget runs out the cards reviewed are the hand's last ones.  The value of a position for
a seat is the tricks its side ends with: those won so far and the double-dummy tricks from there (in
partnerships its partnership's, one search for both sides; where each plays alone, its own against
everyone else's best play, ``claims.answer_alone``).  A card costs its side a trick when the value after it
is lower than before; the card named to keep it is the first of the search's best line.  Values count
tricks, not points: a card that gives up a trick to avoid a bag is named too.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core import cards as C
from ..core.schema import SLOTS
from ..errors import InputError, SearchBudgetError
from ..game import NIL, BLIND_NIL, Bid, HandState, team_contract
from ..model.ablation import differing_rules
from ..model.ruleset import Ruleset, load_ruleset
from ..records import HandRecord, Reading
from ..solve.native import NativeUnavailable, native_module
from .answers import answer_score
from .claims import answer_alone, answer_nil, answer_solve
from .reasons import pretty
from .repeats import once
from .recorded import (Judge, Judges, judges, located, ordered, read_request_record, refuse_unread, request_fields,
                       score_body)

NIL_NODES = 1_000_000   # most nodes one position's nil search may take (a nil's search early in a hand can take
                        # tens of millions; the review of the nil starts where its searches fit)

# the rules a double-dummy value depends on (the position gives the leader and the cards left)
PLAY_SLOTS = frozenset({"deck.cards", "card.suit", "card.power", "trump.suit", "deal.hand_size",
                        *(name for name, slot in SLOTS.items() if slot.context in ("play", "break", "trick"))})


@dataclass
class Spot:
    """The position before one card of the play."""
    seat: int
    card: int
    field: str
    hands: list[int]
    leader: int
    trick: list[int]
    number: int
    broken: bool
    won: list[int]
    choices: int          # legal cards the seat had

    def body(self, ref) -> dict:
        """The position as a ``/v1/solve`` body."""
        return {"variant": ref, "hands": {C.SEATS[i]: C.card_names(hand) for i, hand in enumerate(self.hands)},
                "leader": C.SEATS[self.leader], "trick": [C.card_name(c) for c in self.trick], "broken": self.broken}


class Recorder:
    """The replay's hook: the position before each card."""

    def __init__(self):
        self.spots: list[Spot] = []
        self.state: HandState | None = None

    def see(self, state: HandState, card: int, field: str) -> None:
        self.state = state
        self.spots.append(Spot(state.to_play, card, field, list(state.hands), state.leader, list(state.trick),
                               state.number, state.broken, list(state.won), state.legal().bit_count()))


def _ns(won: list[int]) -> int:
    return won[0] + won[2]


def _won_by_side(table: C.Table, won: list[int]) -> dict[str, int]:
    """The tricks each side has won (partnerships: NS and EW; else each seat)."""
    return {name: sum(won[s] for s in table.members(side)) for side, name in enumerate(table.side_names)}


def searched_under(judge: Judge) -> Ruleset:
    """The ruleset to search a judge's positions under: a record's options mapped onto a bundled variant
    search as that variant where they change no rule of the card play (its search may be compiled)."""
    if judge.mapping is None:
        return judge.rs
    base = load_ruleset(judge.mapping.base)
    return judge.rs if set(differing_rules(base, judge.rs)) & PLAY_SLOTS else base


class _Values:
    """The tricks a seat's side ends with from each position (won so far plus double dummy from there), searched
    lazily from the end: in partnerships N/S's (one search a position), else each seat's own (a search a seat
    asked about); ``end``: the tricks each seat won by the last card (None: the play stops before it)."""

    def __init__(self, judge: Judge, spots: list[Spot], end: list[int] | None, budget: dict | None = None):
        self.judge, self.spots, self.rs = judge, spots, searched_under(judge)
        self.table = C.table_of(judge.rs.params)
        self.size = judge.rs.params["deal.hand_size"]
        self.extra = {"budget": budget} if budget else {}
        self.last = len(spots) + (1 if end is not None else 0)      # positions valued (the end's among them)
        self.total: dict[tuple[int, int], int] = {}                 # (position, side) -> the side's tricks
        if end is not None:
            for side in range(self.table.sides):
                self.total[len(spots), side] = sum(end[s] for s in self.table.members(side))
        self.best: dict[int, str] = {}
        self.nodes = 0

    def at(self, i: int, seat: int) -> int:
        """The tricks ``seat``'s side ends with from position ``i`` (``len(spots)``: after the last card)."""
        side = self.table.side_of(seat)
        if (i, side) not in self.total:
            spot = self.spots[i]
            if spot.choices == 1 and i + 1 < self.last:
                self.total[i, side] = self.at(i + 1, seat)
            elif self.table.partners:
                ns = self._searched(i, answer_solve(self.rs, {**spot.body(self.judge.ref), **self.extra}), "NS")
                self.total[i, 0], self.total[i, 1] = _ns(spot.won) + ns, self.size - _ns(spot.won) - ns
            else:
                asked = {**spot.body(self.judge.ref), **self.extra}
                own = self._searched(i, answer_alone(self.rs, asked, seat), "tricks", seat == spot.seat)
                self.total[i, side] = spot.won[seat] + own
        return self.total[i, side]

    def _searched(self, i: int, answer: dict, key: str, keeps: bool = True) -> int:
        """The count an answer gives; its nodes spent; the first card of its line kept (``keeps``: the line is
        the seat to play's own)."""
        self.nodes += answer["nodes"]
        first = answer["line"][0]["cards"][0] if answer["line"] else None
        if keeps and first is not None:
            self.best[i] = first["card"]
        return answer["tricks"] if key == "tricks" else answer["tricks"][key]


def _forced(values: _Values, spot: Spot, seat: int) -> int:
    """Tricks the defence can force on nil bidder ``seat`` from ``spot`` (plus those taken already), within
    ``NIL_NODES`` (and the request's own budget)."""
    if spot.won[seat]:
        return spot.won[seat]
    asked = dict(values.extra.get("budget") or {})
    asked["nodes"] = min(asked.get("nodes", NIL_NODES), NIL_NODES)
    answer = answer_nil(values.rs, {**spot.body(values.judge.ref), "budget": asked, "nil": C.SEATS[seat]})
    values.nodes += answer["nodes"]
    return answer["forced_tricks"]


def _side_words(table: C.Table, side: int, before: int, after: int, contracts: list[int | None], size: int
                ) -> list[str]:
    """What a drop from ``before`` to ``after`` tricks for ``side`` cost beyond the trick itself: its contract
    (it could make it, now it cannot); in partnerships the set (the other side could not make its contract, now
    it can; where each plays alone the others' counts are each their own question, not the tricks left)."""
    out, contract, name = [], contracts[side], table.side_names[side]
    if contract and before >= contract > after:
        out.append(f"the contract ({name} bid {contract})")
    other = contracts[1 - side] if table.partners else None
    if other and size - before < other <= size - after:
        out.append(f"the set ({table.side_names[1 - side]} can now make their {other})")
    return out


def _contracts(judge: Judge, record: HandRecord) -> list[int | None]:
    """Each side's contract, where its tricks all count toward it (None: a side with a nil whose tricks do
    not)."""
    rs, out, table = judge.rs, [], C.table_of(judge.rs.params)
    for side in range(table.sides):
        bids: list[Bid | None] = [record.bids[s] for s in table.members(side)]
        if any(b is not None and b.kind in (NIL, BLIND_NIL) for b in bids) and (
                len(bids) == 1 or not rs.params["nil.tricks_count"]):
            out.append(None)
        else:
            out.append(team_contract(rs, bids if len(bids) == 2 else [*bids, None]) or None)
    return out


def _card_findings(judge: Judge, record: HandRecord, values: _Values, i: int, contracts: list) -> dict | None:
    spot, size, table = values.spots[i], record.size, values.table
    mine_before, mine_after = values.at(i, spot.seat), values.at(i + 1, spot.seat)
    side = table.side_of(spot.seat)
    if mine_after >= mine_before:
        return None
    lost = mine_before - mine_after
    keeps = values.best.get(i)
    words = ["a trick" if lost == 1 else f"{lost} tricks"]
    words += _side_words(table, side, mine_before, mine_after, contracts, size)
    played = C.card_name(spot.card)
    text = (f"{C.SEATS[spot.seat]}'s {pretty(played)} at trick {spot.number} gave up {' and '.join(words)}"
            + (f": {pretty(keeps)} keeps it" if keeps and keeps != played else ""))
    return {"trick": spot.number, "order": len(spot.trick), "seat": C.SEATS[spot.seat], "card": C.card_name(spot.card),
            "cost": lost,
            "costs": words, "keeps": keeps, "side": table.side_names[side], "before": mine_before, "after": mine_after,
            "won": _won_by_side(table, spot.won),
            "text": text, "position": spot.body(judge.ref), **located(record, spot.field)}


def _nil_lost(values: _Values, spots: list[Spot], seat: int, end: bool) -> list[bool | None]:
    """Whether the defence can make nil bidder ``seat`` take a trick from each position (``end``: after the last
    card), searched from the end back.  A search is saved where the card played decides it: the nil side's best
    card keeps the value, any other raises it, so a nil safe after that side's card was safe before it; and a
    nil lost after the defence's card was lost before it."""
    lost: list[bool | None] = [None] * len(spots) + [end]
    side_of = values.table.side_of
    for k in range(len(spots) - 1, -1, -1):
        spot, after = spots[k], lost[k + 1]
        nil_side = side_of(spot.seat) == side_of(seat)
        if spot.won[seat]:
            lost[k] = True
        elif spot.choices == 1 or nil_side != after:
            lost[k] = after
        else:
            try:
                lost[k] = _forced(values, spot, seat) > 0
            except SearchBudgetError:     # earlier positions are larger still: the nil is judged from here on
                break
    return lost


def _nil_changes(values: _Values, record: HandRecord, spots: list[Spot], seat: int, lost: list[bool | None]
                 ) -> list[dict]:
    """The cards at which the nil of ``seat`` is lost (by its side) or saved (by the defence)."""
    out, side_of = [], values.table.side_of
    for k, spot in enumerate(spots):
        if lost[k] is None:
            continue
        same_side = side_of(spot.seat) == side_of(seat)
        if same_side and not lost[k] and lost[k + 1]:
            what = "cost the nil"
        elif not same_side and lost[k] and not lost[k + 1]:
            what = "let the nil through"
        else:
            continue
        card = C.card_name(spot.card)
        out.append({"trick": spot.number, "seat": C.SEATS[spot.seat], "card": card, "nil": C.SEATS[seat],
                    "text": f"{C.SEATS[spot.seat]}'s {pretty(card)} at trick {spot.number} {what} of "
                    f"{C.SEATS[seat]}", "position": spot.body(values.judge.ref), **located(record, spot.field)})
    return out


def _nil_findings(values: _Values, record: HandRecord, spots: list[Spot], end: list[int] | Spot) -> list[dict]:
    """Cards that cost a nil (the nil side's) or let one through (the defence's); ``end``: the tricks each seat
    won by the end of the play, or the position it stopped at."""
    out = []
    for seat in (s for s in range(len(record.bids)) if record.bids[s].kind in (NIL, BLIND_NIL)):
        try:
            after = end[seat] > 0 if isinstance(end, list) else _forced(values, end, seat) > 0
        except SearchBudgetError:
            out.append({"nil": C.SEATS[seat], "text": f"{C.SEATS[seat]}'s nil not judged: the position where the "
                        f"play stops takes more than {NIL_NODES:,} nodes"})
            continue
        lost = _nil_lost(values, spots, seat, after)
        judged = next((k for k, v in enumerate(lost) if v is not None), len(spots))
        if judged < len(spots):
            out.append({"nil": C.SEATS[seat], "judged_from": spots[judged].number,
                        "text": f"{C.SEATS[seat]}'s nil judged from trick {spots[judged].number} on"
                                + (f" (the positions before take more than {NIL_NODES:,} nodes)" if judged else "")})
        out += _nil_changes(values, record, spots, seat, lost)
    return out


def _replayed(judge: Judge, record: HandRecord) -> tuple[Recorder, InputError | None]:
    recorder = Recorder()
    try:
        answer_score(judge.rs, score_body(record, ((0, 0), (0, 0)), 0, judge.rs), on_card=recorder.see)
    except InputError as exc:
        return recorder, exc
    return recorder, None


def review_hand(record: HandRecord, judge_set: Judges, budget: dict | None = None) -> dict:
    """One hand reviewed, as far as the search budget goes (from the last card back)."""
    judge = judge_set.judge(record)
    out: dict = {"hand": record.number, "label": record.label, **located(record, ""), "variant": judge.rs.id}
    table = C.table_of(judge.rs.params)
    if len(record.hands) != table.seats:
        return {**out, "problem": {"message": f"the record seats {len(record.hands)} players "
                                              f"({', '.join(C.SEATS[:len(record.hands)])}); variant "
                                              f"'{judge.rs.id}' seats {table.seats} ({', '.join(table.seat_names)})",
                                   "rule": "table.seats", **located(record, "deal")}}
    done, problem = ordered(record, judge_set)
    if problem is not None:
        return {**out, "problem": problem}
    recorder, stopped = _replayed(judge, done)
    if stopped is not None:
        out["stopped"] = {"why": stopped.message, "rule": stopped.rule, "cite": stopped.cite,
                          **located(done, stopped.field)}
        if stopped.field.startswith("bids"):
            return out
    spots = recorder.spots
    if stopped is not None and not spots:       # (the replay stops before its first card: nothing to value)
        return out
    if stopped is None:
        won = list(recorder.state.won) if recorder.state is not None else [0] * table.seats
        values, end = _Values(judge, spots, won, budget), won
    else:       # the play stops before the card refused: the position before it ends the review
        values, spots, end = _Values(judge, spots, None, budget), spots[:-1], spots[-1]
    return {**out, **_reviewed(judge, done, values, spots, end)}


def _reviewed(judge: Judge, record: HandRecord, values: _Values, spots: list[Spot], end: list[int] | Spot) -> dict:
    contracts = _contracts(judge, record)
    findings, first = [], len(spots)
    try:
        for i in range(len(spots) - 1, -1, -1):
            found = _card_findings(judge, record, values, i, contracts)
            first = i
            if found is not None:
                findings.append(found)
        nils = _nil_findings(values, record, spots[first:], end)
        budget = None
    except SearchBudgetError as exc:
        nils, budget = [], {"why": exc.message, **(exc.details or {})}
    values_out = [_card_values(values, i, s) for i, s in enumerate(spots) if i >= first]
    out = {"cards": values_out, "costly": sorted(findings, key=lambda f: (f["trick"], f.pop("order"))), "nils": nils,
           "reviewed_from": spots[first].number if first < len(spots) else None,
           "complete": first == 0 and budget is None, "nodes": values.nodes}
    if budget is not None:
        out["budget"] = budget
    return out


def _card_values(values: _Values, i: int, spot: Spot) -> dict:
    """One card's values: the tricks its seat's side ends with before and after it (in partnerships N/S's
    too)."""
    out = {"trick": spot.number, "seat": C.SEATS[spot.seat], "card": C.card_name(spot.card),
           "before": values.at(i, spot.seat), "after": values.at(i + 1, spot.seat)}
    if values.table.partners:
        out["ns_before"], out["ns_after"] = values.at(i, 0), values.at(i + 1, 0)
    return out


def answer_review(req, allow_paths: bool = False) -> dict:
    """``POST /v1/review``: ``{"record": text, "format"?, "variant"?, "hands"?: [numbers]}``."""
    req = request_fields(req, ("hands", "budget"))
    budget = req.get("budget")
    if budget is not None and (not isinstance(budget, dict) or set(budget) - {"nodes", "seconds"}):
        raise InputError("expected {\"nodes\": …, \"seconds\": …}: the budget of each position's search", "budget")
    only = req.get("hands")
    if only is not None and (not isinstance(only, list) or not all(isinstance(n, int) and not isinstance(n, bool)
                                                                   and n >= 1 for n in only)):
        raise InputError("expected a list of hand numbers (1 is the record's first hand)", "hands")
    reading = read_request_record(req)
    refuse_unread(reading)
    # (each costly card's position carries the variant: a long text of it is given once, ``repeats``)
    return once(review(reading, judges(req.get("variant"), allow_paths), set(only) if only is not None else None,
                       budget))


def _load_compiled(judge_set: Judges, reading: Reading) -> None:
    """Load (compiling where numba's cache lacks it) the compiled search of each variant the hands are searched
    under, before the small positions of a hand's end are searched in Python for want of it."""
    for record in reading.hands:
        try:
            native_module(searched_under(judge_set.judge(record)))
        except (*NativeUnavailable, InputError):
            pass


def review(reading: Reading, judge_set: Judges, only: set[int] | None = None, budget: dict | None = None,
           load_compiled: bool = False) -> dict:
    """The card-by-card review of the hands of ``reading`` (``only``: those numbers; ``budget``: each position's
    search budget, as a ``/v1/solve`` body gives it, within the allowance of the request; ``load_compiled``:
    load the variants' compiled search first, as a command may and a service request may not)."""
    if load_compiled:
        _load_compiled(judge_set, reading)
    hands = [review_hand(r, judge_set, budget) for r in reading.hands if only is None or r.number in only]
    used = {}
    for judge in ([judge_set.given] if judge_set.given else list(judge_set.cache.values())):
        used.setdefault(judge.rs.id, judge.as_dict())
    return {"record": reading.as_dict(), "variants": list(used.values()), "hands": hands,
            "costly": [f["text"] for h in hands for f in h.get("costly", [])]}
