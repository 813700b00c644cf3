"""The conformance report: the tallies as JSON (``rulespec-conform-report/1``) and Markdown.

The layout follows the differential report (``docs/report-schema.md``); the schema is
in ``docs/conformance.md``.  Examples are scenario cases: the variant's answer is the
expectation (``rulespec test`` runs it), the engine's answer is the case's note.
"""
from __future__ import annotations

import json

import yaml

from ...core import cards as C
from ..diff.minimal import evaluate
from ..diff.stats import wilson
from .lockstep import KIND_TITLES, KINDS, STAGE_TITLES, STAGES
from .run import SECTIONS, ConformConfig, Context

SCHEMA = "rulespec-conform-report/1"
SECTION_TITLES = {"deals": "Deals (each deal once per player)",
                  "game_hands": "Hands of whole games (both sides from the book's running scores)"}


def _rate(k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"rate": round(k / n, 4) if n else 0.0, "ci95": [round(lo, 4), round(hi, 4)]}


def _attribution(credit: dict[str, float], total: int) -> list[dict]:
    rows = [{"rule": rule, "share": round(value / total, 4), "count": round(value, 2)}
            for rule, value in credit.items()] if total else []
    return sorted(rows, key=lambda r: (-r["share"], r["rule"]))


def _kind(k: dict, hands: int, states: int) -> dict:
    out = {"hands": k["hands"], **_rate(k["hands"], hands), "states": k["states"]}
    state = _rate(k["states"], states)
    out.update(state_rate=state["rate"], state_ci95=state["ci95"],
               attribution=_attribution(k["credit"], k["states"]))
    if k["first"]:
        out["first"] = k["first"]
    return out


_PARTNERS_ONLY = ("raise", "exchange")     # stages between partners: none where each plays alone


def table_json(rs) -> dict:
    """The variant's table in the report: how many seats, whether in partnerships, and the sides' names (the
    partnerships NS and EW, or each player by seat)."""
    table = C.table_of(rs.params)
    return {"seats": table.seats, "partners": table.partners, "sides": list(table.side_names)}


def report_table(cfg: dict) -> dict:
    """A report's table (``config.table``; a report written before the key: four seats in partnerships)."""
    return cfg.get("table") or {"seats": 4, "partners": True, "sides": list(C.TEAMS)}


def not_compared(stage: str, table: dict) -> str:
    """Why a stage with no state compared was not: it has no such step at this table, or the engine does not say."""
    if stage in _PARTNERS_ONLY and not table["partners"]:
        return "none at this table (each plays alone)"
    return "not compared (the engine does not say)"


def table_words(table: dict) -> str:
    """The table in words, e.g. "3 seats (N E S), each alone"."""
    seats = " ".join(C.SEATS[:table["seats"]])
    return f"{table['seats']} seats ({seats}), " + ("in partnerships NS and EW" if table["partners"] else "each alone")


def _section(sec: dict) -> dict:
    stages = {}
    for stage in STAGES:
        st = sec["stages"][stage]
        stages[stage] = {"hands": st["hands"], **_rate(st["hands"], sec["n"]), "states": st["states"],
                         "kinds": {kind: _kind(st["kinds"][kind], sec["n"], st["states"]) for kind in KINDS[stage]}}
    return {"n": sec["n"], "stages": stages}


def _case_yaml(case: dict) -> str:
    return yaml.safe_dump({"cases": [case]}, allow_unicode=True, sort_keys=False, width=10_000,
                          default_flow_style=None)


def _example(ctx: Context, key: str, cand: dict) -> dict:
    stage, kind, rule = key.split("|", 2)
    rs = ctx.rs
    entry = {"stage": stage, "kind": kind, "rule": rule, "scenario_kind": cand["kind"], "input": cand["input"],
             "outputs": {rs.id: cand["book"], ctx.engine.name: cand["engine"]}, "found_in": cand["where"]}
    if rule in rs.rules:
        entry["rule_text"], entry["cite"] = rs.rules[rule].text, rs.rules[rule].cite
    answer = evaluate(rs, cand["kind"], cand["input"])
    if answer is None or not _agrees(cand["book"], answer):
        entry["why_none"] = f"the scenario input does not reproduce {rs.id}'s answer in the run ({answer})"
        return entry
    case = {"name": f"{ctx.engine.name} vs {rs.id}: {STAGE_TITLES[stage]}, {KIND_TITLES[kind]} ({rule})",
            "kind": cand["kind"], "input": cand["input"], "expect": {ctx.cfg.variant: {"output": cand["book"]}},
            "note": f"{ctx.engine.name} answers {json.dumps(cand['engine'], ensure_ascii=False)}"}
    entry.update(scenario=case, scenario_yaml=_case_yaml(case))
    return entry


def _agrees(expected, actual) -> bool:
    """``expected`` (part of an answer) holds in ``actual``; card lists compare as sets."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _agrees(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list) and isinstance(actual, list):
        return sorted(map(str, expected)) == sorted(map(str, actual))
    return expected == actual


def build(cfg: ConformConfig, ctx: Context, acc: dict) -> dict:
    """The report dictionary (``report.json``)."""
    sections = {name: _section(acc["sections"][name]) for name in SECTIONS}
    compared = [s for s in STAGES if any(sections[n]["stages"][s]["states"] for n in SECTIONS)]
    differing = [s for s in compared if any(sections[n]["stages"][s]["hands"] for n in SECTIONS)]
    rs = ctx.rs
    return {
        "schema": SCHEMA,
        "config": {"engine": cfg.engine, "engine_name": ctx.engine.name,
                   "variant": {"id": rs.id, "ref": cfg.variant, "title": rs.title, "doc": rs.doc},
                   "table": table_json(rs),
                   "deals": ctx.deal_count, "recorded": ctx.fixed is not None, "seed": cfg.seed,
                   "policies": list(cfg.policies) if ctx.fixed is None else ["recorded"],
                   "games": cfg.games, "game_policy": cfg.game_policy, "game_hands": cfg.game_hands},
        "stages": dict(STAGE_TITLES), "kinds": dict(KIND_TITLES),
        "sections": sections,
        "compared": compared, "differing": differing, "conforms": not differing and not acc["errors"],
        "withheld": withheld(ctx),
        "examples": [_example(ctx, key, cand) for key, cand in sorted(acc["examples"].items())],
        "errors": acc["errors"],
    }


_PASSES = (("blind nil", "blind_nil.exchange"), ("nil", "nil.exchange"))


def withheld(ctx: Context) -> list[dict]:
    """What of the variant the engine cannot play: the bids never chosen because the variant passes cards
    for them and the engine has no exchange step (``OptionalSteps.exchanges``), each with its rule."""
    if ctx.deal_count == 0 or hasattr(ctx.engine.new_hand(ctx.deal(0)), "exchanges"):
        return []
    rs = ctx.rs
    return [{"bid": bid, "rule": rule, "value": rs.params[rule], "cite": rs.rules[rule].cite}
            for bid, rule in _PASSES if rs.params[rule]]


# --------------------------------------------------------------------------- markdown
def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _ci(pair: list[float]) -> str:
    return f"{_pct(pair[0])}–{_pct(pair[1])}"


def headline(report: dict) -> list[str]:
    """One sentence per kind of difference seen: how often, and the rules that decide it."""
    lines = []
    for name, sec in report["sections"].items():
        for stage, st in sec["stages"].items():
            for kind, k in st["kinds"].items():
                if not k["hands"]:
                    continue
                rules = ", ".join(f"{r['rule']} {100 * r['share']:.0f}%" for r in k["attribution"][:3])
                lines.append(f"{STAGE_TITLES[stage]}: {KIND_TITLES[kind]} in {k['hands']} "
                             f"of {sec['n']} {name.replace('_', ' ')} ({_pct(k['rate'])}, 95% CI {_ci(k['ci95'])}); "
                             f"{k['states']} of {st['states']} states; decided by {rules}")
    return lines


def markdown(report: dict) -> str:
    cfg = report["config"]
    engine, variant, table = cfg["engine_name"], cfg["variant"], report_table(cfg)
    source = "its recorded hands" if cfg["recorded"] else f"seed `{cfg['seed']}`, players {', '.join(cfg['policies'])}"
    out = [f"# Conformance: {engine} against {variant['id']}", "",
           f"Engine `{cfg['engine']}` against variant `{variant['id']}` ({variant['title']}; document "
           f"{variant['doc']}) at {table_words(table)}. {cfg['deals']} deals ({source}); {cfg['games']} "
           f"whole games ({cfg['game_policy']} players, at most {cfg['game_hands']} hands).", "",
           "At every state the engine and the variant are asked the same question: the seat to act, the legal "
           f"bids or cards, each trick's winner, each {'team' if table['partners'] else 'player'}'s points "
           "and bags after the hand, the game's end. Rates are per hand (and per state compared), with 95% Wilson "
           "intervals.", ""]
    for w in report.get("withheld", ()):     # (a report stored before the key: nothing withheld)
        out += [f"{engine} has no exchange step: {variant['id']} is played without {w['bid']} bids ({w['rule']} "
                f"{w['value']} @ {w['cite'] or 'unspecified'}: a {w['bid']} bidder and partner pass cards).", ""]
    if report["conforms"]:
        out += [f"**{engine} conforms to {variant['id']} on every compared point** "
                f"({', '.join(STAGE_TITLES[s] for s in report['compared'])}).", ""]
    else:
        errors = sum(report["errors"].values())
        out += [f"**Differences** on: {', '.join(STAGE_TITLES[s] for s in report['differing']) or 'none'}"
                f"{f'; hands that could not be compared: {errors}' if errors else ''}.", ""]
        out += [f"- {line}" for line in headline(report)] + [""]
    for name, sec in report["sections"].items():
        if sec["n"]:
            out += _section_md(SECTION_TITLES[name], sec, table)
    out += _examples_md(report)
    if report["errors"]:
        out += ["## Hands that could not be compared", ""] + [f"- {k}: {v}" for k, v in report["errors"].items()] + [""]
    return "\n".join(out) + "\n"


def _section_md(title: str, sec: dict, table: dict) -> list[str]:
    out = [f"## {title}", "", f"{sec['n']} hands.", "",
           "| stage | kind | hands | rate | 95% CI | states | state rate | 95% CI | decided by |",
           "|---|---|---|---|---|---|---|---|---|"]
    firsts = []
    for stage, st in sec["stages"].items():
        if not st["states"]:
            out.append(f"| {STAGE_TITLES[stage]} | {not_compared(stage, table)} | | | | 0 | | | |")
            continue
        for kind, k in st["kinds"].items():
            rules = ", ".join(f"{r['rule']} {100 * r['share']:.0f}%" for r in k["attribution"]) or "—"
            out.append(f"| {STAGE_TITLES[stage]} | {KIND_TITLES[kind]} | {k['hands']} | {_pct(k['rate'])} | "
                       f"{_ci(k['ci95'])} | {k['states']} of {st['states']} | {_pct(k['state_rate'])} | "
                       f"{_ci(k['state_ci95'])} | {rules} |")
            if "first" in k:
                firsts.append(f"- first {STAGE_TITLES[stage]} difference ({KIND_TITLES[kind]}): "
                              + json.dumps(k["first"], ensure_ascii=False))
    return out + [""] + firsts + [""]


def _examples_md(report: dict) -> list[str]:
    if not report["examples"]:
        return []
    out = ["## Examples (the simplest situation met, as a scenario case)", ""]
    for e in report["examples"]:
        head = f"**{e['rule']}** ({STAGE_TITLES[e['stage']]}, {KIND_TITLES[e['kind']]})"
        if "rule_text" in e:
            head += f": `{e['rule_text']}` @ {e['cite'] or 'unspecified'}"
        out += [head, ""]
        if "scenario_yaml" in e:
            out += ["```yaml", e["scenario_yaml"].rstrip(), "```", ""]
        else:
            out += [f"no case: {e['why_none']}", ""]
    return out
