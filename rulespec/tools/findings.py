"""The hand a ``diff`` or ``verify`` report found, as records to write as PBN or PTN (``rulespec convert REPORT``).

A diff report's minimal example says where it was found (``found_in``: a deal and the player, or a game and
its hand, or a whole game) and the report's ``config`` says how the run dealt (seed, deals file, players,
game settings).  The hand is dealt again and played under each variant of the pair by the diff's own code
(``deal_runs.Context``, ``transcript``, ``play_game``), and the example is derived again from it
(``deal_runs.seeds``, ``report.example_of``): it must be the report's, input and answers, or nothing is
written (the report came from other deals, other variants or another version).  One record per variant:
the hand as that variant's players played it.

A verify finding's example holds the deal, the dealer and the scores of the hand it was met in, with the
trick in progress; not the bids or the earlier tricks.  It is written as a deal alone.
"""
from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..core import cards as C
from ..errors import RecordError, RulespecError
from ..game import seat_rule
from ..model.ruleset import Ruleset
from ..records import HandRecord, Trick, Where
from .diff.deal_runs import Context, DiffConfig, Direction, game_hands_of, history_of, play_game, seeds, transcript
from .diff.replay import Transcript, replay
from .diff.report import SCHEMA, example_of

VERIFY_KEYS = ("variant", "budget", "explored", "dead_ends", "conflicts")
VERIFY_SECTIONS = ("dead_ends", "conflicts")


@dataclass
class Hands:
    """What ``hands_of`` writes: the records, the first bidder of each (by number), and what was checked."""
    records: list[HandRecord] = field(default_factory=list)
    first_bidders: dict[int, int] = field(default_factory=dict)
    checked: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)      # the hands that cannot be written, and why


def kind_of(doc: object) -> str | None:
    """``diff`` or ``verify`` for a report of either kind, None for anything else (a record); a report of
    another schema is refused."""
    if not isinstance(doc, Mapping):
        return None
    if "schema" in doc:
        if doc["schema"] != SCHEMA:
            raise RecordError(f"a report of schema {str(doc['schema'])[:60]!r}: convert reads diff reports "
                              f"({SCHEMA}) and verify reports", "schema")
        return "diff"
    return "verify" if all(key in doc for key in VERIFY_KEYS) else None


def findings(doc: Mapping, kind: str) -> list[tuple[str, str]]:
    """Every finding a hand can be written for: (its name for ``--example``, what it is)."""
    if kind == "diff":
        return _diff_findings(doc)
    out = []
    for section in VERIFY_SECTIONS:
        for k, item in enumerate(doc.get(section) or ()):
            if isinstance(item, Mapping) and isinstance(item.get("example"), Mapping) and "deal" in item["example"]:
                rules = ", ".join(r.get("rule", "?") for r in item.get("rules") or ())
                out.append((f"{section}:{k}", f"{item.get('kind')} in the {item.get('phase')} ({rules})"))
    return out


def _diff_findings(doc: Mapping) -> list[tuple[str, str]]:
    out = []
    for pair in _list(doc, "pairs"):
        for k, ex in enumerate(pair.get("examples") or ()):
            if isinstance(ex, Mapping) and ex.get("found_in"):
                where = ", ".join(f"{key} {value}" for key, value in ex["found_in"].items())
                out.append((f"{pair['a']}:{pair['b']}:{k}", f"{ex['rule']} ({ex.get('stage')}; {where})"))
    return out


def hands_of(doc: Mapping, kind: str, name: str, report: str = "report", base: str = ".") -> Hands:
    """The records of the finding ``name`` (as ``findings`` names it) of a report; ``report`` names the report
    in each record's ``Finding`` tag, ``base`` is the folder a relative deals file or variant path is also
    looked for in.  Raises ``RecordError`` (with the report's JSON path) where it cannot be written."""
    try:
        return _diff_hands(doc, name, report, base) if kind == "diff" else _verify_hands(doc, name, report)
    except RulespecError:
        raise
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
        raise RecordError(f"the report is not as rulespec {kind} writes it ({type(exc).__name__}: {exc})") from None


# --------------------------------------------------------------------------- diff
def _list(doc: Mapping, key: str) -> list:
    value = doc.get(key)
    if not isinstance(value, list):
        raise RecordError(f"expected a list of {key}", key)
    return value


def _pick_example(doc: Mapping, name: str) -> tuple[int, Mapping, int, Mapping]:
    parts = name.split(":")
    pairs = _list(doc, "pairs")
    if len(parts) != 3:
        raise RecordError(f"--example {name!r}: a diff report's finding is named A:B:K (the pair's variants and "
                          "the example's index) or A:B:RULE", "pairs")
    a, b, which = parts
    at = next((k for k, p in enumerate(pairs) if (p.get("a"), p.get("b")) == (a, b)), None)
    if at is None:
        known = ", ".join(f"{p.get('a')}:{p.get('b')}" for p in pairs)
        raise RecordError(f"no pair {a}:{b} in the report (its pairs: {known})", "pairs")
    examples = pairs[at].get("examples") or []
    if which.isdigit():
        k = int(which)
        if k >= len(examples):
            raise RecordError(f"pair {a}:{b} has {len(examples)} example(s), numbered 0 to {len(examples) - 1}: "
                              f"there is no example {k}", f"pairs[{at}].examples")
    else:
        k = next((i for i, ex in enumerate(examples) if ex.get("rule") == which), -1)
        if k < 0:
            rules = ", ".join(str(ex.get("rule")) for ex in examples)
            raise RecordError(f"pair {a}:{b} has no example for rule {which!r} (its rules: {rules})",
                              f"pairs[{at}].examples")
    example = examples[k]
    if not example.get("found_in"):
        raise RecordError(f"example {k} ({example.get('rule')}) has no minimal example, so no hand it was found in"
                          f" ({example.get('why_none', 'no reason given')})", f"pairs[{at}].examples[{k}]")
    return at, pairs[at], k, example


def _existing(path: str, base: str) -> str | None:
    for candidate in (path, os.path.join(base, path)):
        if os.path.exists(candidate):
            return candidate
    return None


def _context(doc: Mapping, pair: Mapping, base: str) -> Context:
    """The run's context for the pair alone (deals and players depend on the seed, the index and the variant,
    never on the other variants of the run)."""
    cfg = doc.get("config")
    if not isinstance(cfg, Mapping):
        raise RecordError("the report has no config: the seed and players that dealt its hands", "config")
    refs = {}
    for k, v in enumerate(cfg.get("variants") or ()):
        ref = str(v.get("ref"))
        refs[v.get("id")] = (_existing(ref, base) if ref.endswith((".yaml", ".yml")) else None) or ref, k
    for vid in (pair["a"], pair["b"]):
        if vid not in refs:
            raise RecordError(f"variant {vid} is not in the report's config", "config.variants")
    deals_file = cfg.get("deals_file")
    if deals_file:
        found = _existing(str(deals_file), base)
        if found is None:
            raise RecordError(f"the deals file {deals_file!r} the run dealt from is gone (looked for it here and "
                              f"beside the report)", "config.deals_file")
        deals_file = found
    config = DiffConfig((refs[pair["a"]][0], refs[pair["b"]][0]), deals=int(cfg.get("deals", 0)),
                        seed=str(cfg.get("seed", "0")), policies=tuple(cfg.get("policies") or ()),
                        game_policy=str(cfg.get("game_policy", "sensible")), deals_file=deals_file,
                        game_hands=int(cfg.get("game_hands", 100)))
    try:
        ctx = Context(config)
    except RulespecError as exc:
        raise RecordError(f"the run's variants or deals cannot be loaded again: {exc}", "config") from None
    for v, vid in enumerate((pair["a"], pair["b"])):
        if ctx.ids[v] != vid:
            raise RecordError(f"config.variants[{refs[vid][1]}].ref {refs[vid][0]!r} is now variant "
                              f"{ctx.ids[v]!r}, not the report's {vid!r}", f"config.variants[{refs[vid][1]}].ref")
    return ctx


def _diff_hands(doc: Mapping, name: str, report: str, base: str) -> Hands:
    at, pair, k, example = _pick_example(doc, name)
    path = f"pairs[{at}].examples[{k}]"
    ctx = _context(doc, pair, base)
    where, stage, rule = example["found_in"], str(example.get("stage")), str(example["rule"])
    label = f"{report}: {pair['a']} vs {pair['b']}, example {k}: rule {rule}, stage {stage}, found in " + \
        ", ".join(f"{key} {value}" for key, value in where.items())
    played, histories, hand, games = _played_again(ctx, where, path)
    derived = _derive(ctx, stage, rule, played, hand, histories, games if hand < 0 else None)
    if derived is None:
        raise RecordError(f"the hand dealt again from the report's config does not give example {k} "
                          f"({rule}, {stage}): the report was made from other deals, variants or players, or by "
                          "another version of rulespec; nothing is written", path)
    source, found = derived
    if (found["input"], found["output"]) != (example.get("input"), example.get("outputs")):
        raise RecordError(f"the hand dealt again gives another example for {rule} than the report's "
                          f"(input {json.dumps(found['input'])[:200]}): nothing is written", f"{path}.input")
    out = Hands(checked=[f"{label}: dealt again, the example derived from it is the report's (input and answers "
                         f"under {pair['a']} and {pair['b']})"])
    for v, rs in enumerate(ctx.rs):
        hands = played[v] if hand < 0 else played[v][hand:hand + 1] if hand < len(played[v]) else []
        if not hands:
            out.checked.append(f"the game under {rs.id} ended before hand {hand}: no record of it")
        for h, t in zip(range(len(played[v])) if hand < 0 else (hand,), hands):
            note = f"{label}; played under {rs.id}" + \
                (f", hand {h} of the game (counted from 0)" if "game" in where else "") + \
                ("; the example is derived from this play" if v == source else
                 f"; the example is derived from the play under {ctx.ids[source]}")
            _add_record(out, rs, t, note)
    return out


def _played_again(ctx: Context, where: Mapping, path: str) -> tuple[list[list[Transcript]], list, int, list | None]:
    """The hands of a diff example's ``found_in`` played again under both variants: the transcripts by variant,
    each one's game history before the hand (or None), the hand's number (-1: every hand of a game) and the
    games played (or None)."""
    if "deal" in where:
        index, policy = int(where["deal"]), str(where.get("policy"))
        if index >= len(ctx.file_deals if ctx.file_deals is not None else range(ctx.cfg.deals)):
            raise RecordError(f"deal {index} is past the run's deals", f"{path}.found_in.deal")
        if policy not in ctx.cfg.policies:
            raise RecordError(f"player {policy!r} is not one of the run's ({', '.join(ctx.cfg.policies)})",
                              f"{path}.found_in.policy")
        return [[transcript(ctx, v, ctx.deal(index, v), index, policy)] for v in (0, 1)], [None, None], 0, None
    if "game" not in where:
        raise RecordError("found_in names neither a deal nor a game", f"{path}.found_in")
    game = int(where["game"])
    games = [play_game(ctx, rs, game) for rs in ctx.rs]
    played = [[t for t, _ in hands] for hands in games]
    if "hand" not in where:
        return played, [None, None], -1, games
    hand = int(where["hand"])
    return played, [history_of(g)[hand] if hand < len(g) else None for g in games], hand, games


def _add_record(out: Hands, rs: Ruleset, t: Transcript, note: str) -> None:
    """``t`` as the next record of ``out`` (or, where it cannot be a record, a problem of it)."""
    number = len(out.records) + 1
    try:
        out.records.append(_record(rs, t, number, note))
    except RecordError as exc:
        out.problems.append(f"the hand played under {rs.id}: {exc.message}")
        return
    out.first_bidders[number] = seat_rule(rs, "deal.first_bidder", t.dealer)


def _derive(ctx: Context, stage: str, rule: str, played: list[list[Transcript]], hand: int,
            histories: list, games: list | None) -> tuple[int, dict] | None:
    """The example the run would have kept for ``rule`` at ``stage`` from these hands (the first direction
    whose seed shrinks to one), as ``deal_runs.compare`` and ``report._examples`` make it, and the variant
    whose play it came from."""
    swapped = ctx.swapped(0, 1, rule)
    if swapped is None:
        return None
    if games is not None:          # a whole game: its winner differs, the seed is the game under A
        hands = game_hands_of(games[0])
        if not hands:
            return None
        example = example_of({"kind": "game", "input": {"hands": hands}}, ctx.rs[0], ctx.rs[1], swapped)
        return None if example is None else (0, example)
    for v in (0, 1):
        if hand >= len(played[v]):
            continue
        t = played[v][hand]
        d = Direction(t, replay(ctx.rs[0], t), replay(ctx.rs[1], t), v == 0, histories[v])
        if d.a.sig[stage] == d.b.sig[stage]:
            continue
        movers, seed = seeds(ctx, (0, 1), stage, d, {})
        if seed is not None and rule in movers:
            example = example_of(seed, ctx.rs[0], ctx.rs[1], swapped)
            if example is not None:
                return v, example
    return None


def _record(rs: Ruleset, t: Transcript, number: int, note: str) -> HandRecord:
    """A transcript as a record: its deal, bids and tricks with their leaders and winners (under ``rs``)."""
    seats = len(t.dealt)
    if seats != 4:
        raise RecordError(f"a hand of {seats} seats: PBN and PTN records are four-seat", "config.variants")
    held = [0] * seats
    for seat, card in t.plays:
        held[seat] |= 1 << card
    if tuple(held) != tuple(t.dealt):
        raise RecordError(f"under {rs.id} this hand has cards taken or passed after the deal (a kitty, a blind-nil "
                          "exchange, the nil pass): its deal and its play hold different cards, which a record "
                          "cannot say", "found_in")
    winners = replay(rs, t).sig["trick"]
    if not isinstance(winners, tuple):
        raise RecordError(f"the hand cannot be played out under {rs.id}: {winners}", "found_in")
    tricks = tuple(Trick(tuple(c for _, c in t.plays[k:k + 4]), t.plays[k][0], Where(), C.SEATS.index(w))
                   for k, w in zip(range(0, len(t.plays), 4), winners))
    before = "" if t.before == ((0, 0), (0, 0)) else \
        "; scores before the hand: " + ", ".join(f"{team} {t.before[0][i]} ({t.before[1][i]} bags)"
                                                  for i, team in enumerate(C.TEAMS))
    dealt = (t.dealt[0], t.dealt[1], t.dealt[2], t.dealt[3])
    return HandRecord(number, Where(), t.dealer, dealt, tuple(t.bids), tricks, variant=rs.id,
                      label=f"rulespec finding: {rs.id}", meta={"Finding": note + before})


# --------------------------------------------------------------------------- verify
def _verify_hands(doc: Mapping, name: str, report: str) -> Hands:
    item, ex, path = _pick_finding(doc, name)
    try:
        n, e, s, w = (C.mask_of(C.parse_cards(ex["deal"][seat])) for seat in C.SEATS[:4])
        dealer = C.SEATS.index(str(ex.get("dealer", "N")))
    except (KeyError, ValueError, RulespecError) as exc:
        raise RecordError(f"the deal cannot be read: {exc}", f"{path}.deal") from None
    trick = ", ".join(f"{p['seat']} {p['card']}" for p in ex.get("trick") or ())
    rules = ", ".join(r.get("rule", "?") for r in item.get("rules") or ())
    scores = ex.get("scores") or {}
    note = (f"{report}: {doc['variant']}, {name} ({item.get('kind')}: {rules}); the deal only (the finding "
            f"holds neither the bids nor the earlier tricks): {ex.get('seat')} to play at trick "
            f"{ex.get('trick_number')}" + (f" after {trick}" if trick else "")
            + (", scores " + ", ".join(f"{t} {v}" for t, v in scores.items()) if scores else ""))
    record = HandRecord(1, Where(), dealer, (n, e, s, w), variant=str(doc["variant"]),
                        label=f"rulespec finding: {doc['variant']}", meta={"Finding": note})
    return Hands([record], {}, [f"{report}: {name}: its deal, dealer {C.SEATS[dealer]}"])


def _pick_finding(doc: Mapping, name: str) -> tuple[Mapping, Mapping, str]:
    """A verify report's finding ``name`` (SECTION:K) whose example has a deal: the finding, its example and the
    example's JSON path."""
    section, _, which = name.partition(":")
    if section not in VERIFY_SECTIONS or not which.isdigit():
        raise RecordError(f"--example {name!r}: a verify report's finding is named SECTION:K, SECTION one of "
                          f"{', '.join(VERIFY_SECTIONS)}", section if section in VERIFY_SECTIONS else "report")
    items, k = doc.get(section) or [], int(which)
    if k >= len(items):
        raise RecordError(f"the report has {len(items)} {section.replace('_', ' ')}: there is no {name}", section)
    path = f"{section}[{k}].example"
    ex = items[k].get("example") if isinstance(items[k], Mapping) else None
    if not isinstance(ex, Mapping) or not isinstance(ex.get("deal"), Mapping):
        raise RecordError("this finding's example names no deal (a finding of the bids or scores alone)", path)
    return items[k], ex, path
