"""What the audit and the review of a game record share: which variant judges each hand, and a hand as
the ``/v1/score`` request that replays it.

A record is judged under the variant the caller names; without one, under the record's own: its
Trickster options (``records.options``), or the variant it names (a hand this project wrote), else
``standard``, said so.  A PBN or PTN hand's play is put in order under the rules it was played under
(the record's own where it says, else the judging variant), so that a trick the platform and the rule
book give to different seats shows as a leader the rule book does not expect.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ..core import cards as C
from ..errors import InputError, RecordError, RecordFileError
from ..game import NIL, REGULAR, Bid, seat_rule
from ..model.ruleset import Ruleset
from ..model.variants import bundled_ids
from ..records import REQUEST_LIMITS, HandRecord, Limits, Reading, read_records, write_pbn, write_ptn
from ..records.options import OptionsMapping, map_options
from ..records.order import in_play_order
from .answers import resolve_variant

DEFAULT_VARIANT = "standard"


@dataclass
class Judge:
    """A variant that judges hands: the ruleset, how a ``/v1`` body names it, and how it was chosen."""
    rs: Ruleset
    ref: str | dict
    chosen: str                        # "given", "options", "named", "default"
    mapping: OptionsMapping | None = None

    def as_dict(self) -> dict:
        out: dict = {"id": self.rs.id, "chosen": self.chosen, "variant": self.ref}
        if self.mapping is not None:
            out["options"] = [o.as_dict() for o in self.mapping.options]
            out["not_mapped"] = [o.option for o in self.mapping.unmapped]
        return out


@dataclass
class Judges:
    """The variant of each hand: the caller's (``given``) or each record's own, compiled once each."""
    given: Judge | None = None
    cache: dict = field(default_factory=dict)

    def own(self, record: HandRecord) -> Judge | None:
        """The rules the record says it was played under, or None where it does not say."""
        if record.options is not None:
            key = json.dumps(record.options, sort_keys=True)
            if key not in self.cache:
                mapping = map_options(record.options)
                self.cache[key] = Judge(resolve_variant(mapping.spec, "record.options"), mapping.spec, "options",
                                        mapping)
            return self.cache[key]
        if record.variant and record.variant in bundled_ids():
            if record.variant not in self.cache:
                self.cache[record.variant] = Judge(resolve_variant(record.variant), record.variant, "named")
            return self.cache[record.variant]
        return None

    def judge(self, record: HandRecord) -> Judge:
        """The variant that judges ``record``."""
        if self.given is not None:
            return self.given
        own = self.own(record)
        if own is not None:
            return own
        if DEFAULT_VARIANT not in self.cache:
            self.cache[DEFAULT_VARIANT] = Judge(resolve_variant(DEFAULT_VARIANT), DEFAULT_VARIANT, "default")
        return self.cache[DEFAULT_VARIANT]

    def order(self, record: HandRecord) -> Judge:
        """The variant whose trick winners put the record's play in order: the record's own, else the judge."""
        return self.own(record) or self.judge(record)


def judges(variant, allow_paths: bool = False) -> Judges:
    """``variant`` as the request or command gives it (None: each record's own)."""
    if variant is None:
        return Judges()
    return Judges(Judge(resolve_variant(variant, "variant", allow_paths), variant, "given"))


def request_fields(req, extra: tuple[str, ...] = ()) -> dict:
    """An audit or review request's fields (a null field is one left out), each one known."""
    if not isinstance(req, Mapping):
        raise InputError("expected a JSON object", "body")
    allowed = ("record", "format", "variant", *extra)
    for key in req:
        if key not in allowed:
            raise InputError(f"unknown key '{str(key)[:40]}' (allowed: {', '.join(allowed)})", str(key)[:40])
    return {k: v for k, v in req.items() if v is not None}


def read_request_record(req: Mapping, limits: Limits = REQUEST_LIMITS) -> Reading:
    """The record of an audit or review request (``record``: its text; ``format``: ptn, pbn or json)."""
    text = req.get("record")
    if not isinstance(text, str) or not text.strip():
        raise InputError("expected the record's text (PTN, PBN or this project's JSON lines)", "record")
    fmt = req.get("format")
    if fmt is not None and not isinstance(fmt, str):
        raise InputError("expected one of: ptn, pbn, json", "format")
    try:
        return read_records(text, fmt, limits=limits)
    except RecordFileError as exc:
        raise InputError(str(exc), "format" if "format" in str(exc) else "record") from None


def refuse_unread(reading: Reading) -> None:
    """A record of which no hand could be read is refused, with the place where the first one stops."""
    if reading.hands:
        return
    if not reading.problems:
        raise InputError(f"no hand found in this {reading.format.upper()} record", "record")
    first = reading.problems[0]
    more = f" ({len(reading.problems) - 1} more problem(s))" if len(reading.problems) > 1 else ""
    raise InputError(f"no complete hand in the record: {first.format()}{more}", "record")


def ordered(record: HandRecord, judge_set: Judges) -> tuple[HandRecord | None, dict | None]:
    """``record`` with its play in order, or the problem that stops it (as an answer's problem)."""
    if not record.played or record.bids is None:
        missing = "bids" if record.bids is None else "play"
        return None, {"message": f"the record has no {missing}: there is nothing to replay",
                      **located(record, missing)}
    done, problem = in_play_order(record, judge_set.order(record).rs)
    if problem is not None:
        return None, problem.as_dict()
    return done, None


def score_body(record: HandRecord, before: tuple[tuple[int, int], tuple[int, int]], hands_played: int,
               rs: Ruleset | None = None) -> dict:
    """The ``/v1/score`` request that replays ``record`` from ``before`` (scores, bags by side: the sides of
    ``rs``'s table, those not given at 0).  Under ``rs`` where a bid of 0 can only be a zero (``bid.zero``, and
    nil never allowed), a recorded 0 is a zero."""
    (scores, bags) = before
    zero = rs is not None and bool(rs.params["bid.zero"]) and rs.rules["nil.allowed"].text.strip() == "false"
    bids = [Bid(REGULAR, 0) if zero and b.kind == NIL else b for b in record.bids]
    table = C.table_of(rs.params) if rs is not None else C.FOUR
    scores, bags = table.padded(scores), table.padded(bags)
    seats = C.SEATS[:len(record.hands)]
    return {"deal": {s: C.card_names(record.hands[i]) for i, s in enumerate(seats)},
            "dealer": C.SEATS[record.dealer], "bids": {s: str(bids[i]) for i, s in enumerate(seats)},
            "play": [[C.card_name(c) for c in t.cards] for t in record.tricks],
            "before": {t: {"score": scores[k], "bags": bags[k]} for k, t in enumerate(table.side_names)},
            "hands_played": hands_played}


def located(record: HandRecord, field_path: str) -> dict:
    """Where a request field of a hand's replay (``play[3][2]``, ``bids.N``) is written in the record."""
    where = record.place(field_path)
    return {k: v for k, v in (("line", where.line), ("tag", where.tag), ("path", where.path)) if v is not None}


def convert(reading: Reading, judge_set: Judges, fmt: str) -> tuple[str, list[dict]]:
    """The hands of ``reading`` written as PBN or PTN (``fmt``), each played in order under its own rules
    (else the judge's), and the problems of the hands that could not be written."""
    out, problems, first_bidders = [], [p.as_dict() for p in reading.problems], {}
    for record in reading.hands:
        if len(record.hands) != 4:
            problems.append({"message": f"a {fmt.upper()} hand holds four seats; this one seats {len(record.hands)} "
                                        "players (its JSON record is the one record of it)", "record": record.number,
                             **located(record, "deal")})
            continue
        done, problem = ordered(record, judge_set) if record.played else (record, None)
        if problem is not None:
            problems.append(problem)
            continue
        judge = judge_set.order(record)
        if done.variant is None and done.options is None and judge.rs.id in bundled_ids():
            done = replace(done, variant=judge.rs.id)
        first_bidders[done.number] = seat_rule(judge.rs, "deal.first_bidder", done.dealer)
        out.append(done)
    writer = write_ptn if fmt == "ptn" else write_pbn
    try:
        return writer(out, first_bidders), problems
    except RecordError as exc:
        raise InputError(exc.message, "format") from None
