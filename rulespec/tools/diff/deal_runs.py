"""The differential run's work: replay identical deals under every variant and tally disagreements.

Work is split into fixed chunks of deal (and game) indices; each chunk
(``run_deals``, ``run_games``) is a pure function of the configuration, so
chunks can run in any process, and merging them in index order gives the same
result for any number of jobs.  Compiled rulesets cannot be pickled: each
worker rebuilds them from the variant ids or paths (``Context``).  Which
process runs which chunk is ``driver``'s business.
"""
from __future__ import annotations

import gc
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

import numpy as np

from ...core import cards as C
from ...errors import DealFileError, DiffError, RulespecError
from ...game import seat_rule
from ...model.ruleset import Ruleset, load_ruleset
from ...model.ablation import differing_rules, with_rule_from
from .attribution import shares
from .deals import Deal, read_deals, seeded_deal
from .minimal import KIND_OF_STAGE
from .batch_replay import BID_RULES, CARD_RULES, Replays, replayers_for
from .replay import STAGES, Outcome, Transcript, draw_json, policy_for, record, replay


MAX_CANDIDATES = 8    # seeds kept per (pair, rule, stage) for the minimal examples
_RULES_OF = {"bid": BID_RULES, "legal": CARD_RULES}


@dataclass(frozen=True)
class DiffConfig:
    refs: tuple[str, ...]
    deals: int = 1000
    seed: str = "0"
    games: int = 0
    policies: tuple[str, ...] = ("random", "sensible")
    game_policy: str = "sensible"
    deals_file: str | None = None
    attribute: int = 500          # ablation on deals with a lower index (and games below attribute // 10)
    game_hands: int = 100         # a game still running after this many hands counts as unfinished
    chunk: int = 0                # deals per work item; 0: from the number of deals (see work_items)

    @property
    def attribute_games(self) -> int:
        return max(1, self.attribute // 10)


def pair_key(a: str, b: str) -> str:
    return f"{a}|{b}"


def one_table(rss: list[Ruleset]) -> None:
    """Refuse variants that seat their tables differently: a report replays the same deals and play under each."""
    tables = {rs.id: C.table_of(rs.params) for rs in rss}
    if len(set(tables.values())) > 1:
        seated = "; ".join(f"{vid}: {t.seats} seats, {'partners' if t.partners else 'each alone'}"
                           for vid, t in tables.items())
        raise DiffError(f"the variants seat their tables differently ({seated}): a difference report replays the "
                        "same deals and play under each, so it compares variants of one table (rules table.seats "
                        "and table.sides)")


class Context:
    """Everything a worker needs, rebuilt from the configuration."""

    def __init__(self, cfg: DiffConfig):
        self.cfg = cfg
        self.rs: list[Ruleset] = [load_ruleset(ref) for ref in cfg.refs]
        self.ids = [rs.id for rs in self.rs]
        one_table(self.rs)
        self.pairs = [(i, j) for i in range(len(self.rs)) for j in range(i + 1, len(self.rs))]
        self.rules = {p: differing_rules(self.rs[p[0]], self.rs[p[1]]) for p in self.pairs}
        self.file_deals = read_deals(cfg.deals_file) if cfg.deals_file else None
        table = C.table_of(self.rs[0].params)
        if self.file_deals is not None and table.seats != 4:
            raise DealFileError(f"{cfg.deals_file}: a deals file holds four hands (N, E, S and W: "
                                f"docs/deals-format.md); variant '{self.ids[0]}' seats {table.seats} "
                                f"({' '.join(table.seat_names)}): play its seeded deals instead (--deals)",
                                str(cfg.deals_file))
        self.replayers = replayers_for(self.rs)
        self._swapped: dict[tuple[int, int, str], Ruleset] = {}

    def swapped(self, i: int, j: int, rule: str) -> Ruleset | None:
        """Variant i with ``rule`` from variant j; None where that does not compile (a kitty that i's pack does
        not leave): such a rule alone explains nothing, and a difference only rules together make is credited
        to their interaction."""
        key = (i, j, rule)
        if key not in self._swapped:
            try:
                self._swapped[key] = with_rule_from(self.rs[i], self.rs[j], rule)
            except RulespecError:
                self._swapped[key] = None
        return self._swapped[key]

    def deal(self, index: int, v: int) -> Deal:
        if self.file_deals is not None:
            return self.file_deals[index]
        return seeded_deal(self.cfg.seed, index, self.rs[v])


# --------------------------------------------------------------------------- accumulators
def _section() -> dict:
    return {"n": 0, "stages": {s: {"count": 0, "deltas": [], "credit": {}, "attributed": 0, "clauses": {},
                                   "first": None} for s in STAGES}}


def new_acc(ctx: Context) -> dict:
    pairs = {}
    for i, j in ctx.pairs:
        pairs[pair_key(ctx.ids[i], ctx.ids[j])] = {
            "rules": ctx.rules[(i, j)], "transcript": _section(), "game_hands": _section(),
            "games": {"n": 0, "flips": 0, "outcomes": {}, "length_deltas": [], "score_deltas": [],
                      "credit": {}, "attributed": 0, "first": None}}
    return {"pairs": pairs, "examples": {}, "record_errors": {}}


def merge(acc: dict, part: dict) -> None:
    """Add ``part`` (a later chunk) into ``acc``."""
    for key, theirs in part["pairs"].items():
        mine = acc["pairs"][key]
        for sec in ("transcript", "game_hands"):
            mine[sec]["n"] += theirs[sec]["n"]
            for stage, t in theirs[sec]["stages"].items():
                m = mine[sec]["stages"][stage]
                m["count"] += t["count"]
                m["attributed"] += t["attributed"]
                m["deltas"].extend(t["deltas"])
                _add(m["credit"], t["credit"])
                _add(m["clauses"], t["clauses"])
                m["first"] = m["first"] or t["first"]
        mg, tg = mine["games"], theirs["games"]
        for field in ("n", "flips", "attributed"):
            mg[field] += tg[field]
        mg["length_deltas"].extend(tg["length_deltas"])
        mg["score_deltas"].extend(tg["score_deltas"])
        _add(mg["outcomes"], tg["outcomes"])
        _add(mg["credit"], tg["credit"])
        mg["first"] = mg["first"] or tg["first"]
    for key, by_rule in part["examples"].items():
        mine = acc["examples"].setdefault(key, {})
        for rule, by_stage in by_rule.items():
            for stage, cands in by_stage.items():
                kept = mine.setdefault(rule, {}).setdefault(stage, [])
                kept.extend(cands[:MAX_CANDIDATES - len(kept)])
    _add(acc["record_errors"], part["record_errors"])


def _add(into: dict, other: dict) -> None:
    for k, v in other.items():
        into[k] = into.get(k, 0) + v


# --------------------------------------------------------------------------- one comparison
@dataclass
class Direction:
    """One transcript replayed under A and under B (recorded under one of them)."""
    t: Transcript
    a: Outcome
    b: Outcome
    recorder_is_a: bool
    history: list[dict] | None = None      # the recorder's game so far, for game examples


def _situation(stage: str, d: Direction) -> dict | None:
    """The request that reproduces the disagreement of ``d`` at ``stage`` (None when there is none)."""
    if stage in ("bid", "legal"):
        source = d.b if stage in d.b.rules else d.a
        return source.full().situations.get(stage)
    if stage == "exchange":
        return d.a.full().situations.get(stage)
    if stage == "kitty":        # (no request asks whether the dealer takes a kitty: the variant's rule says it)
        return None
    if stage == "draw":         # the recorded hand as a score request whose deal is the stock and the choices
        return _draw_situation(d)
    if stage == "trick":
        return _trick_situation(d)
    rec = (d.a if d.recorder_is_a else d.b).full()
    if "score" not in rec.situations:
        return None
    if stage == "game":
        if d.history is None:
            return None
        hand = {k: rec.situations["score"][k] for k in ("bids", "tricks")}
        return {"hands": [*d.history, hand]}
    return {**rec.situations["score"], "last_trick": rec.situations.get("last_trick")}


def _draw_situation(d: Direction) -> dict | None:
    """The score request that replays the transcript from its draw (None where it was dealt)."""
    deal = draw_json(d.t)
    if deal is None:
        return None
    return {"deal": deal, "dealer": C.SEATS[d.t.dealer], "bids": {C.SEATS[s]: str(b) for s, b in enumerate(d.t.bids)},
            "play": [C.card_name(c) for _, c in d.t.plays]}


def _trick_situation(d: Direction) -> dict | None:
    """The first trick whose winner differs."""
    wa, wb = d.a.sig["trick"], d.b.sig["trick"]
    tricks = d.a.full().situations.get("tricks")
    if not (isinstance(wa, tuple) and isinstance(wb, tuple)) or tricks is None:
        return None
    k = next((k for k, (x, y) in enumerate(zip(wa, wb)) if x != y), None)
    return tricks[k] if k is not None and k < len(tricks) else None


def _note(stage: str, d: Direction, ids: tuple[str, str], where: dict) -> dict:
    info = dict(where)
    info["recorded_under"] = ids[0] if d.recorder_is_a else ids[1]
    if stage in ("bid", "legal"):
        for vid, out in zip(ids, (d.a, d.b)):
            if stage in out.rules:
                info.setdefault("forbidden_by", {})[vid] = out.note(stage)
    if "forbidden_by" not in info:     # other stages, or no rule forbade a bid or card (a hand one side cannot play)
        info["values"] = {ids[0]: _plain(d.a.sig[stage]), ids[1]: _plain(d.b.sig[stage])}
    return info


def _numeric(sig) -> bool:
    return isinstance(sig, tuple) and all(isinstance(x, int) for x in sig)


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


def compare(ctx: Context, acc: dict, section: str, pair: tuple[int, int], dirs: list[Direction],
            where: dict, attribute: bool) -> None:
    """Tally the stages on which A and B disagree in ``dirs`` (one deal), with attribution."""
    ids = (ctx.ids[pair[0]], ctx.ids[pair[1]])
    key = pair_key(*ids)
    sec = acc["pairs"][key][section]
    sec["n"] += 1
    swapped_out: dict[tuple[int, str], Outcome] = {}   # (direction, rule): the direction replayed with A's rule from B
    for stage in STAGES:
        diffs = [d for d in dirs if d.a.sig[stage] != d.b.sig[stage]]
        if not diffs:
            continue
        st = sec["stages"][stage]
        _tally_stage(st, stage, diffs, ids, where)
        if attribute:
            for d in diffs:
                movers, seed = seeds(ctx, pair, stage, d, swapped_out)
                st["attributed"] += 1
                _add(st["credit"], shares(movers))
                if seed is not None:
                    for rule in movers:
                        _candidate(acc, key, rule, stage, {**seed, "where": where})


def seeds(ctx: Context, pair: tuple[int, int], stage: str, d: Direction,
          swapped_out: dict[tuple[int, str], Outcome]) -> tuple[list[str], dict | None]:
    """The rules that explain ``d``'s disagreement at ``stage`` and the situation that reproduces it (the seed
    of their minimal examples: ``kind`` and ``input``; None where no request shows the stage)."""
    movers = _movers(ctx, pair, stage, d, swapped_out)
    situation = _situation(stage, d)
    return movers, None if situation is None else {"kind": KIND_OF_STAGE[stage], "input": situation}


def _tally_stage(st: dict, stage: str, diffs: list[Direction], ids: tuple[str, str], where: dict) -> None:
    """Count one deal's disagreement at ``stage``: the first example, the rules that refused, the deltas."""
    st["count"] += 1
    st["first"] = st["first"] or _note(stage, diffs[0], ids, where)
    for d in diffs:
        for out in (d.a, d.b):
            if stage in out.rules:
                rule = out.rules[stage] or "?"
                st["clauses"][rule] = st["clauses"].get(rule, 0) + 1
        if stage in ("score", "bags") and _numeric(d.a.sig[stage]) and _numeric(d.b.sig[stage]):
            st["deltas"].extend(y - x for x, y in zip(d.a.sig[stage], d.b.sig[stage]) if x != y)


def _movers(ctx: Context, pair: tuple[int, int], stage: str, d: Direction,
            swapped_out: dict[tuple[int, str], Outcome]) -> list[str]:
    """The differing rules that explain ``d`` at ``stage``: those that alone turn A's answer into B's,
    else those that alone change A's answer.  Replays are kept in ``swapped_out`` across stages."""
    i, j = pair
    rules = ctx.rules[pair]
    fixers = []
    for rule in rules:
        if (id(d), rule) not in swapped_out:
            swapped = ctx.swapped(i, j, rule)
            swapped_out[(id(d), rule)] = replay(swapped, d.t) if swapped is not None else d.a   # (moves nothing)
        if swapped_out[(id(d), rule)].sig[stage] == d.b.sig[stage]:
            fixers.append(rule)
    return fixers or [r for r in rules if swapped_out[(id(d), r)].sig[stage] != d.a.sig[stage]]


def _candidate(acc: dict, key: str, rule: str, stage: str, cand: dict) -> None:
    """Keep the first few situations where ``rule`` explained a disagreement, as minimal-example seeds."""
    kept = acc["examples"].setdefault(key, {}).setdefault(rule, {}).setdefault(stage, [])
    if len(kept) < MAX_CANDIDATES:
        kept.append(cand)


# --------------------------------------------------------------------------- chunks
def _compare_all(ctx: Context, acc: dict, section: str, items: list[tuple]) -> None:
    """Compare every pair on each item (transcripts by variant, where, attribute, histories).  All the
    transcripts are replayed under every variant in one batch; items without attribution are tallied on
    the batch's arrays, the others (and any pair the arrays cannot settle) one by one."""
    flat = [t for ts, *_ in items for t in ts if t is not None]
    row = {id(t): k for k, t in enumerate(flat)}
    reps = Replays(ctx.rs, ctx.replayers, flat)
    for attribute, group in itertools.groupby(items, key=lambda item: item[2]):
        run = list(group)
        rows = np.array([[row[id(t)] if t is not None else -1 for t in ts] for ts, *_ in run],
                        dtype=np.int64).reshape(len(run), len(ctx.rs))
        for pair in ctx.pairs:
            if attribute or not _tally(ctx, acc, section, pair, run, rows[:, pair], reps):
                for ts, where, _, histories in run:
                    _compare_item(ctx, acc, section, pair, ts, where, attribute, histories, reps, row)


def _compare_item(ctx: Context, acc: dict, section: str, pair: tuple[int, int], ts: list[Transcript | None],
                  where: dict, attribute: bool, histories: list | None, reps: Replays, row: dict[int, int]) -> None:
    """``compare`` one item's directions, with the batch's outcomes."""
    i, j = pair
    dirs = [Direction(ts[v], reps.outcome(row[id(ts[v])], i), reps.outcome(row[id(ts[v])], j), v == i,
                      histories[v] if histories else None)
            for v in pair if ts[v] is not None]
    if dirs:
        compare(ctx, acc, section, pair, dirs, where, attribute)


def _tally(ctx: Context, acc: dict, section: str, pair: tuple[int, int], run: list[tuple], rows: np.ndarray,
           reps: Replays) -> bool:
    """``compare`` without attribution for every item of ``run`` at once, on the batch's arrays (``rows``:
    each item's transcripts recorded under the pair's two variants, -1 for none).  False (and nothing
    tallied) when some transcript needs the one-by-one path."""
    i, j = pair
    has = rows >= 0
    diff = {}
    recorded = rows[has]              # (both sides' transcripts, row by row)
    for stage in STAGES:
        found = reps.differs(stage, i, j, recorded)
        if found is None:
            return False
        d = np.zeros(rows.shape, dtype=bool)
        d[has] = found
        diff[stage] = d
    ids = (ctx.ids[i], ctx.ids[j])
    sec = acc["pairs"][pair_key(*ids)][section]
    sec["n"] += int(has.any(axis=1).sum())
    for stage, d in diff.items():
        either = d.any(axis=1)
        if not either.any():
            continue
        st = sec["stages"][stage]
        st["count"] += int(either.sum())
        if st["first"] is None:
            first = int(np.argmax(either))
            side = 0 if d[first, 0] else 1
            k = int(rows[first, side])
            st["first"] = _note(stage, Direction(reps.ts[k], reps.outcome(k, i), reps.outcome(k, j), side == 0),
                                ids, run[first][1])
        chosen = rows[d]                      # differing directions, in item order, recorded under i first
        if stage in ("bid", "legal"):
            for w in pair:
                forbidden = reps.keys[w][stage][chosen] >= 0
                for index, count in zip(*np.unique(reps.rule[w][stage][chosen][forbidden], return_counts=True)):
                    name = _RULES_OF[stage][index] if index >= 0 else "?"
                    st["clauses"][name] = st["clauses"].get(name, 0) + int(count)
        elif stage in ("score", "bags"):
            delta = reps.keys[j][stage][chosen] - reps.keys[i][stage][chosen]
            st["deltas"].extend(delta[delta != 0].tolist())
    return True


@contextmanager
def _collector_paused() -> Iterator[None]:
    """CPython's cyclic garbage collector paused while a chunk's transcripts pile up, then restored.

    A chunk (of deals or of games) keeps thousands of transcripts (tuples of plays) alive until it is
    tallied; they form no reference cycles and reference counting frees them with the chunk.  Meanwhile every one
    of them counts towards the next collection, which only rescans them: 3-4% of a chunk's time, where a
    single-variant run, which drops each hand as it goes, triggers none."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@_collector_paused()
def run_deals(ctx: Context, start: int, stop: int) -> dict:
    acc = new_acc(ctx)
    keys = [(index, policy) for index in range(start, stop) for policy in ctx.cfg.policies]
    by_variant = []
    packs: dict[tuple[int, int], list[Deal]] = {}    # variants with one pack share its deals
    for v, rs in enumerate(ctx.rs):   # a variant at a time: its compiled rules stay warm in the CPU's caches
        pack = (rs.deck, rs.params["deal.hand_size"])
        if pack not in packs:
            packs[pack] = [ctx.deal(index, v) for index in range(start, stop)]
        played: list[Transcript | None] = []
        for index, deal in zip(range(start, stop), packs[pack]):
            for policy in ctx.cfg.policies:
                try:
                    played.append(transcript(ctx, v, deal, index, policy))
                except RulespecError:
                    acc["record_errors"][rs.id] = acc["record_errors"].get(rs.id, 0) + 1
                    played.append(None)
        by_variant.append(played)
    items = [(ts, {"deal": index, "policy": policy}, index < ctx.cfg.attribute, None)
             for (index, policy), ts in zip(keys, zip(*by_variant))]
    _compare_all(ctx, acc, "transcript", items)
    return acc


def transcript(ctx: Context, v: int, deal: Deal, index: int, policy: str) -> Transcript:
    """Deal ``index`` (``ctx.deal(index, v)``) as the run records it under variant ``v``: its own play if it has
    one, else bid and played by ``policy``, seeded by the run's seed and the deal's index."""
    return record(ctx.rs[v], deal, policy_for(policy, ctx.cfg.seed, str(index)))


def play_game(ctx: Context, rs: Ruleset, game: int) -> list[tuple[Transcript, Outcome]]:
    """A whole game of ``rs`` on the game's deals, until it ends (or the hand limit)."""
    scores, bags, dealer = (0, 0), (0, 0), 0
    hands: list[tuple[Transcript, Outcome]] = []
    for h in range(ctx.cfg.game_hands):
        deal = replace(seeded_deal(f"{ctx.cfg.seed}:game{game}", h, rs), dealer=dealer, before=(scores, bags))
        t = replace(record(rs, deal, policy_for(ctx.cfg.game_policy, ctx.cfg.seed, f"game{game}:{h}")),
                    hands_played=h + 1)
        out = replay(rs, t)
        hands.append((t, out))
        if out.sig["game"][0] or "after" not in out.situations:
            break
        scores, bags = out.situations["after"]["scores"], out.situations["after"]["bags"]
        dealer = seat_rule(rs, "deal.next_dealer", dealer)
    return hands


def _game_result(hands: list[tuple[Transcript, Outcome]]) -> dict:
    t, out = hands[-1]
    over, winner = out.sig["game"] if isinstance(out.sig["game"], tuple) else (False, None)
    scores = out.situations.get("after", {}).get("scores", (0, 0))
    return {"winner": winner if over else "unfinished", "hands": len(hands), "scores": list(scores)}


def history_of(hands) -> list[list[dict]]:
    past = []
    out = []
    for t, o in hands:
        out.append(list(past))
        past.append({k: o.situations["score"][k] for k in ("bids", "tricks")} if "score" in o.situations else {})
    return out


@_collector_paused()
def run_games(ctx: Context, start: int, stop: int) -> dict:
    acc = new_acc(ctx)
    for game in range(start, stop):
        attribute = game < ctx.cfg.attribute_games
        try:
            played = [play_game(ctx, rs, game) for rs in ctx.rs]
        except RulespecError:
            acc["record_errors"]["(game)"] = acc["record_errors"].get("(game)", 0) + 1
            continue
        results = [_game_result(p) for p in played]
        histories = [history_of(p) for p in played]
        longest = max(len(p) for p in played)
        _compare_all(ctx, acc, "game_hands", [
            ([p[h][0] if h < len(p) else None for p in played], {"game": game, "hand": h}, attribute,
             [hs[h] if h < len(hs) else None for hs in histories]) for h in range(longest)])
        for i, j in ctx.pairs:
            _compare_games(ctx, acc, (i, j), game, results, played, attribute)
    return acc


def _ablated_winner(ctx: Context, rs: Ruleset | None, game: int) -> str:
    """The winner of a game under a ruleset with one swapped rule ("error" if that mix cannot be played, or
    does not compile: None)."""
    if rs is None:
        return "error"
    try:
        return _game_result(play_game(ctx, rs, game))["winner"]
    except RulespecError:
        return "error"


def _compare_games(ctx: Context, acc: dict, pair: tuple[int, int], game: int, results: list[dict],
                   played: list, attribute: bool) -> None:
    """Tally one game played under both variants of ``pair``; attribute a changed winner to rules."""
    i, j = pair
    ids = (ctx.ids[i], ctx.ids[j])
    key = pair_key(*ids)
    ra, rb = results[i], results[j]
    if _tally_game(acc["pairs"][key]["games"], ids, game, ra, rb) and attribute:
        g = acc["pairs"][key]["games"]
        winners = {rule: _ablated_winner(ctx, ctx.swapped(i, j, rule), game) for rule in ctx.rules[pair]}
        fixers = [rule for rule, w in winners.items() if w == rb["winner"]]
        movers = fixers or [rule for rule, w in winners.items() if w != ra["winner"]]
        g["attributed"] += 1
        _add(g["credit"], shares(movers))
        hands = game_hands_of(played[i])
        if hands:
            for rule in movers:
                _candidate(acc, key, rule, "game", {"kind": "game", "input": {"hands": hands}, "where": {"game": game}})


def _tally_game(g: dict, ids: tuple[str, str], game: int, ra: dict, rb: dict) -> bool:
    """Count the game's outcome under both variants; True when the winner differs."""
    g["n"] += 1
    outcome = f"{ra['winner']} / {rb['winner']}"
    g["outcomes"][outcome] = g["outcomes"].get(outcome, 0) + 1
    g["length_deltas"].append(rb["hands"] - ra["hands"])
    if ra["winner"] == rb["winner"]:
        return False
    g["flips"] += 1
    g["first"] = g["first"] or {"game": game, "winners": {ids[0]: ra["winner"], ids[1]: rb["winner"]},
                                "hands": {ids[0]: ra["hands"], ids[1]: rb["hands"]},
                                "scores": {ids[0]: ra["scores"], ids[1]: rb["scores"]}}
    return True


def game_hands_of(played: list) -> list[dict] | None:
    """The bids and tricks of every hand of a game as played, for a game example (None without a score)."""
    last = played[-1][1].situations
    if "score" not in last:
        return None
    return history_of(played)[-1] + [{k: last["score"][k] for k in ("bids", "tricks")}]
