"""Turn the tallies of a differential run into the report (JSON, Markdown).

The JSON schema is documented in ``docs/report-schema.md``; the Markdown and
HTML renderings (``html.py``) are views of the same dictionary.
"""
from __future__ import annotations

import time

import json

from ...model.ruleset import Ruleset
from . import doubledummy
from .attribution import INTERACTION
from .minimal import minimal_example, scenario
from .replay import STAGE_TITLES, STAGES
from .deal_runs import Context, DiffConfig
from .stats import histogram, summary, wilson

SCHEMA = "rulespec-diff-report/1"
SECTIONS = {"transcript": "Replayed deals (same bids and cards under each variant)",
            "game_hands": "Hands of whole games (each variant's game replayed under the other)"}


def _attribution(credit: dict[str, float], attributed: int) -> list[dict]:
    rows = [{"rule": rule, "share": round(value / attributed, 4), "count": round(value, 2)}
            for rule, value in credit.items()] if attributed else []
    return sorted(rows, key=lambda r: (-r["share"], r["rule"]))


def _stage(st: dict, n: int) -> dict:
    lo, hi = wilson(st["count"], n)
    out = {"count": st["count"], "rate": round(st["count"] / n, 4) if n else 0.0, "ci95": [round(lo, 4), round(hi, 4)],
           "attributed": st["attributed"], "attribution": _attribution(st["credit"], st["attributed"])}
    if st["clauses"]:
        out["forbidding_clauses"] = dict(sorted(st["clauses"].items(), key=lambda kv: -kv[1]))
    if st["deltas"]:
        out["delta"] = summary(st["deltas"])
        out["histogram"] = histogram(st["deltas"])
    if st["first"]:
        out["first"] = st["first"]
    return out


def _section(sec: dict) -> dict:
    return {"n": sec["n"], "stages": {s: _stage(sec["stages"][s], sec["n"]) for s in STAGES}}


def _games(g: dict) -> dict:
    lo, hi = wilson(g["flips"], g["n"])
    out = {"n": g["n"], "flips": g["flips"], "rate": round(g["flips"] / g["n"], 4) if g["n"] else 0.0,
           "ci95": [round(lo, 4), round(hi, 4)], "outcomes": dict(sorted(g["outcomes"].items())),
           "length_delta": summary(g["length_deltas"]), "attributed": g["attributed"],
           "attribution": _attribution(g["credit"], g["attributed"])}
    if g["first"]:
        out["first"] = g["first"]
    return out


def _credits(p: dict) -> dict[str, list[tuple[float, str]]]:
    """rule -> [(credit, stage)] over both sections and games, largest first."""
    by_rule: dict[str, list[tuple[float, str]]] = {}
    for sec in ("transcript", "game_hands"):
        for stage, st in p[sec]["stages"].items():
            for rule, value in st["credit"].items():
                by_rule.setdefault(rule, []).append((value, stage))
    for rule, value in p["games"]["credit"].items():
        by_rule.setdefault(rule, []).append((value, "game"))
    return {r: sorted(v, key=lambda x: (-x[0], STAGES.index(x[1]))) for r, v in by_rule.items() if r != INTERACTION}


def _examples(ctx: Context, i: int, j: int, p: dict, candidates: dict, deadline: float | None) -> list[dict]:
    a, b = ctx.rs[i], ctx.rs[j]
    out = []
    for rule, credits in _credits(p).items():
        example = None
        late = deadline is not None and time.monotonic() > deadline
        seeds = [] if late else [(stage, cand) for _, stage in credits
                                 for cand in candidates.get(rule, {}).get(stage, [])]
        swapped = ctx.swapped(i, j, rule)
        for stage, cand in seeds if swapped is not None else ():
            example = example_of(cand, a, b, swapped)
            if example is not None:
                example.update(stage=stage, found_in=cand["where"])
                break
        entry: dict = {"rule": rule, "a_rule": _rule_info(a, rule), "b_rule": _rule_info(b, rule)}
        if example is None:
            entry["example"] = None
            entry["why_none"] = ("not searched: the run's time limit was reached" if late else
                                 "no single-stage situation met in the run shows this rule alone")
        else:
            sc = scenario(f"{a.id} vs {b.id}: {rule}", example, (a.id, b.id))
            entry.update(stage=example["stage"], kind=example["kind"], input=example["input"],
                         outputs=example["output"], found_in=example["found_in"],
                         scenario=sc["case"], scenario_yaml=sc["yaml"], request=sc["request"])
        out.append(entry)
    return out


def example_of(seed: dict, a: Ruleset, b: Ruleset, a_with_rule: Ruleset) -> dict | None:
    """The minimal example shrunk from a seed (``kind``, ``input``: a situation the run met), or None where the
    rule alone does not explain it there."""
    inp = {k: v for k, v in seed["input"].items() if v is not None}
    return minimal_example(seed["kind"], inp, a, b, a_with_rule)


def _rule_info(rs: Ruleset, rule: str) -> dict:
    r = rs.rules[rule]
    info = {"text": r.text, "cite": r.cite}
    if r.unspecified:
        info["unspecified"] = r.unspecified
    return info


def build(cfg: DiffConfig, ctx: Context, acc: dict, deadline: float | None = None) -> dict:
    """The report dictionary (``report.json``); past ``deadline`` (``time.monotonic``) no more minimal examples
    are searched (each says so)."""
    pairs = []
    for i, j in ctx.pairs:
        key = f"{ctx.ids[i]}|{ctx.ids[j]}"
        p = acc["pairs"][key]
        pairs.append({"a": ctx.ids[i], "b": ctx.ids[j], "rules": p["rules"],
                      "transcript": _section(p["transcript"]), "game_hands": _section(p["game_hands"]),
                      "games": _games(p["games"]),
                      "examples": _examples(ctx, i, j, p, acc["examples"].get(key, {}), deadline)})
    return {
        "schema": SCHEMA,
        "config": {"variants": [{"id": rs.id, "ref": ref, "title": rs.title, "doc": rs.doc}
                                for rs, ref in zip(ctx.rs, cfg.refs)],
                   "deals": len(ctx.file_deals) if ctx.file_deals is not None else cfg.deals,
                   "deals_file": cfg.deals_file, "seed": cfg.seed, "policies": list(cfg.policies),
                   "games": cfg.games, "game_policy": cfg.game_policy, "game_hands": cfg.game_hands,
                   "attribute_deals": min(cfg.attribute, cfg.deals),
                   "attribute_games": min(cfg.attribute_games, cfg.games)},
        "stages": {s: STAGE_TITLES[s] for s in STAGES},
        "pairs": pairs,
        "matrix": matrix(pairs, [rs.id for rs in ctx.rs]),
        "record_errors": acc["record_errors"],
    }


def matrix(pairs: list[dict], ids: list[str]) -> dict:
    """Per pair of variants: the rate of deals with any disagreement, per stage and overall game flips."""
    cells = {}
    for p in pairs:
        stages = p["transcript"]["stages"]
        cell = {s: stages[s]["rate"] for s in STAGES}
        cell["game_flip"] = p["games"]["rate"] if p["games"]["n"] else None
        cells[f"{p['a']}|{p['b']}"] = cell
    return {"variants": ids, "cells": cells}


# --------------------------------------------------------------------------- markdown
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def headline(p: dict) -> list[str]:
    """Sentences like '89% of hand-score differences between A and B come from rule R'."""
    lines = []
    for sec in ("transcript", "game_hands"):
        for stage, st in p[sec]["stages"].items():
            if not st["attribution"]:
                continue
            parts = [f"{_pct(r['share'])} from {r['rule']}" for r in st["attribution"][:3]]
            where = "replayed deals" if sec == "transcript" else "game hands"
            lines.append(f"{STAGE_TITLES[stage]} differences between {p['a']} and {p['b']} "
                         f"({where}, {st['attributed']} attributed): " + "; ".join(parts))
    g = p["games"]
    if g["attribution"]:
        lines.append(f"game winner flips between {p['a']} and {p['b']} ({g['attributed']} attributed): "
                     + "; ".join(f"{_pct(r['share'])} from {r['rule']}" for r in g["attribution"][:3]))
    return lines


def markdown(report: dict) -> str:
    cfg = report["config"]
    out = ["# Variant differences", "",
           f"Variants: {', '.join(v['id'] + ' (' + v['title'] + ')' for v in cfg['variants'])}.", "",
           f"{cfg['deals']} deals (seed `{cfg['seed']}`{', file ' + cfg['deals_file'] if cfg['deals_file'] else ''}), "
           f"policies {', '.join(cfg['policies'])}; {cfg['games']} whole games ({cfg['game_policy']} players, "
           f"at most {cfg['game_hands']} hands). Rule attribution by single-rule swaps on the first "
           f"{cfg['attribute_deals']} deals and {cfg['attribute_games']} games.", "",
           "A deal counts as a disagreement on a stage when the transcript recorded under either variant "
           "gets a different answer at that stage when replayed under the other. Rates are per deal and "
           "policy, with 95% Wilson intervals.", ""]
    out += ["## Summary", "", "| pair | " + " | ".join(report["stages"].values()) + " | game winner flips |",
            "|---|" + "---|" * (len(report["stages"]) + 1)]
    for key, cell in report["matrix"]["cells"].items():
        flips = "—" if cell["game_flip"] is None else _pct(cell["game_flip"])
        out.append(f"| {key.replace('|', ' vs ')} | " + " | ".join(_pct(cell[s]) for s in report["stages"])
                   + f" | {flips} |")
    out.append("")
    for p in report["pairs"]:
        out += _pair_md(p, report["stages"])
    if report.get("double_dummy"):
        out += doubledummy.markdown(report["double_dummy"])
    if report["record_errors"]:
        out += ["## Hands that could not be played", ""] + [f"- {k}: {v}" for k, v in report["record_errors"].items()]
    return "\n".join(out) + "\n"


def _pair_md(p: dict, stages: dict) -> list[str]:
    out = [f"## {p['a']} vs {p['b']}", "",
           f"Rules that differ: {', '.join('`' + r + '`' for r in p['rules']) or 'none'}.", ""]
    out += [f"- {line}" for line in headline(p)] + ([""] if headline(p) else [])
    for sec, title in SECTIONS.items():
        if p[sec]["n"]:
            out += _section_md(p[sec], title, stages)
    out += _games_md(p)
    out += _examples_md(p, stages)
    out.append("")
    return out


def _section_md(data: dict, title: str, stages: dict) -> list[str]:
    """One section's stage table (rates, intervals, causes, score changes) and first differences."""
    out = [f"### {title}", "", f"{data['n']} comparisons.", "",
           "| stage | deals | rate | 95% CI | causes (ablation) | score change (B−A) |", "|---|---|---|---|---|---|"]
    for stage, st in data["stages"].items():
        causes = ", ".join(f"{r['rule']} {_pct(r['share'])}" for r in st["attribution"]) or "—"
        delta = st.get("delta")
        dtext = f"median {delta['median']}, mean {delta['mean']}, range {delta['min']}…{delta['max']}" if delta else "—"
        out.append(f"| {stages[stage]} | {st['count']} | {_pct(st['rate'])} | {_pct(st['ci95'][0])}–"
                   f"{_pct(st['ci95'][1])} | {causes} | {dtext} |")
    out.append("")
    for stage in ("bid", "legal", "trick"):
        first = data["stages"][stage].get("first")
        if first:
            out.append(f"- first {stages[stage]} difference: {_first_text(first)}")
    return out + [""]


def _games_md(p: dict) -> list[str]:
    g = p["games"]
    if not g["n"]:
        return []
    out = ["### Whole games", "",
           f"The winner differs in {g['flips']} of {g['n']} games ({_pct(g['rate'])}, 95% CI "
           f"{_pct(g['ci95'][0])}–{_pct(g['ci95'][1])}). Outcomes ({p['a']} / {p['b']}): "
           + ", ".join(f"{k}: {v}" for k, v in g["outcomes"].items()) + ".", ""]
    if g["attribution"]:
        out += ["Causes: " + ", ".join(f"{r['rule']} {_pct(r['share'])}" for r in g["attribution"]) + ".", ""]
    return out


def _examples_md(p: dict, stages: dict) -> list[str]:
    """Each minimal example as a scenario case and a compare request; why the others have none."""
    out = []
    examples = [e for e in p["examples"] if e.get("scenario")]
    if examples:
        out += ["### Minimal examples", ""]
    for e in examples:
        out += [f"**{e['rule']}** ({stages[e['stage']]}): {p['a']} `{e['a_rule']['text']}` "
                f"@ {e['a_rule']['cite'] or 'unspecified'}; {p['b']} `{e['b_rule']['text']}` "
                f"@ {e['b_rule']['cite'] or 'unspecified'}", "", "```yaml", e["scenario_yaml"].rstrip(), "```", "",
                f"`POST /v1/compare` `{_json(e['request']['body'])}`", ""]
    return out + [f"- {e['rule']}: {e['why_none']}" for e in p["examples"] if not e.get("scenario")]


def _first_text(first: dict) -> str:
    where = ", ".join(f"{k} {v}" for k, v in first.items() if k in ("deal", "policy", "game", "hand"))
    text = f"{where} (recorded under {first['recorded_under']})"
    for vid, note in (first.get("forbidden_by") or {}).items():
        what = f"{note.get('seat')} {note.get('card') or note.get('bid')}"
        text += f"; {vid} forbids {what}" + (f" at trick {note['trick']}" if "trick" in note else "") + \
                f" ({note.get('rule')} @ {note.get('cite') or note.get('note') or 'unspecified'})"
    if "values" in first:
        text += "; " + "; ".join(f"{vid}: {' '.join(map(str, v)) if isinstance(v, list) else v}"
                                 for vid, v in first["values"].items())
    return text


def _json(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
