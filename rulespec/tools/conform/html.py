"""report.html for a conformance run: one self-contained page (inline CSS and SVG, no scripts)."""
from __future__ import annotations

import json
from html import escape

from ..diff.html import bar_chart
from ..tables import CSS as TABLE_CSS, reflow_table
from .lockstep import KIND_TITLES, STAGE_TITLES
from .report import SECTION_TITLES, headline, not_compared, report_table, table_words

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h2{border-top:2px solid #ccd;padding-top:.6em;margin-top:2em} table{border-collapse:collapse;margin:.6em 0}
td,th{border:1px solid #ccd;padding:3px 7px;text-align:left} th{background:#eef} td.num{text-align:right}
pre{background:#f6f6fa;padding:.6em;white-space:pre-wrap;overflow-wrap:anywhere} code{background:#f3f3f7;padding:0 2px}
.ok{color:#176017;font-weight:bold} .diff{color:#a01818;font-weight:bold}
svg{max-width:100%;height:auto} figure{margin:0;max-width:100%} code{overflow-wrap:anywhere}
""" + TABLE_CSS


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _section_html(name: str, sec: dict, table: dict) -> str:
    rows = []
    bars = []
    for stage, st in sec["stages"].items():
        if not st["states"]:
            rows.append([escape(STAGE_TITLES[stage]), "—", "—", escape(not_compared(stage, table)), "—", "—", "—",
                         "—"])
            continue
        for kind, k in st["kinds"].items():
            rules = "<br>".join(f"{escape(r['rule'])} {100 * r['share']:.0f}%" for r in k["attribution"]) or "—"
            first = escape(json.dumps(k["first"], ensure_ascii=False)) if "first" in k else "—"
            rows.append([escape(STAGE_TITLES[stage]), escape(KIND_TITLES[kind]), (str(k["hands"]), "class=num"),
                         f"{_pct(k['rate'])} ({_pct(k['ci95'][0])}–{_pct(k['ci95'][1])})",
                         (f"{k['states']} of {st['states']}", "class=num"),
                         f"{_pct(k['state_rate'])} ({_pct(k['state_ci95'][0])}–{_pct(k['state_ci95'][1])})", rules,
                         f"<small>{first}</small>"])
            bars.append((f"{stage}: {kind}", k["rate"], tuple(k["ci95"])))
    chart = bar_chart(bars, width=520, title="share of hands with each kind of difference")
    table = reflow_table(["stage", "kind", "hands", "rate (95% CI)", "states", "state rate (95% CI)", "decided by",
                          "first"], rows, escape(SECTION_TITLES[name]), row_header=True)
    return (f"<h2>{escape(SECTION_TITLES[name])}</h2><p>{sec['n']} hands.</p><figure>{chart}<figcaption>"
            "Share of hands with each kind of difference (95% CI)</figcaption></figure>" + table)


def _examples_html(report: dict) -> str:
    if not report["examples"]:
        return ""
    out = ["<h2>Examples (the simplest situation met, as a scenario case)</h2>"]
    for e in report["examples"]:
        text = f" <code>{escape(e['rule_text'])}</code>" if "rule_text" in e else ""
        out.append(f"<p><b>{escape(e['rule'])}</b> ({escape(STAGE_TITLES[e['stage']])}, "
                   f"{escape(KIND_TITLES[e['kind']])}){text}</p>")
        out.append(f"<pre>{escape(e['scenario_yaml'])}</pre>" if "scenario_yaml" in e
                   else f"<p>no case: {escape(e['why_none'])}</p>")
    return "".join(out)


def render(report: dict) -> str:
    cfg = report["config"]
    engine, variant, table = cfg["engine_name"], cfg["variant"]["id"], report_table(cfg)
    if report["conforms"]:
        verdict = f"<p class=ok>{escape(engine)} conforms to {escape(variant)} on every compared point.</p>"
    else:
        verdict = ("<p class=diff>Differences on: " + escape(", ".join(STAGE_TITLES[s] for s in report["differing"]))
                   + "</p><ul>" + "".join(f"<li>{escape(x)}</li>" for x in headline(report)) + "</ul>")
    body = [f"<h1>Conformance: {escape(engine)} against {escape(variant)}</h1>",
            f"<p>{escape(table_words(table))}; {cfg['deals']} deals, seed "
            f"<code>{escape(str(cfg['seed']))}</code>, players "
            f"{escape(', '.join(cfg['policies']))}; {cfg['games']} whole games.</p>", verdict]
    body += [_section_html(name, sec, table) for name, sec in report["sections"].items() if sec["n"]]
    body.append(_examples_html(report))
    if report["errors"]:
        body.append("<h2>Hands that could not be compared</h2><ul>"
                    + "".join(f"<li>{escape(k)}: {v}</li>" for k, v in report["errors"].items()) + "</ul>")
    return (f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>Conformance: {escape(engine)}</title>"
            f"<style>{_CSS}</style></head><body><main>{''.join(body)}</main></body></html>\n")
