"""report.html: one self-contained page (inline CSS and SVG charts, no scripts, no network)."""
from __future__ import annotations

from html import escape

from .report import SECTIONS, headline

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1,h2,h3{line-height:1.2} h2{border-top:2px solid #ccd;padding-top:.6em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0} td,th{border:1px solid #ccd;padding:3px 7px;text-align:left}
th{background:#eef} td.num{text-align:right} pre{background:#f6f6fa;padding:.6em;overflow:auto}
.charts{display:flex;flex-wrap:wrap;gap:1.5em} figure{margin:0} figcaption{font-size:12px;color:#555}
code{background:#f3f3f7;padding:0 2px}
"""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _heat(rate: float | None) -> str:
    if rate is None:
        return "#fff"
    level = int(255 - 180 * min(1.0, rate))
    return f"rgb(255,{level},{level})"


def bar_chart(rows: list[tuple[str, float, tuple[float, float] | None]], width: int = 420, title: str = "") -> str:
    """Horizontal bars of proportions (0..1), with optional interval whiskers."""
    label_w, bar_w, row_h = 150, width - 210, 20
    height = row_h * len(rows) + 24
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{escape(title)}">']
    for k, (label, value, ci) in enumerate(rows):
        y = 4 + k * row_h
        parts.append(f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end" font-size="12">{escape(label)}</text>')
        parts.append(f'<rect x="{label_w}" y="{y + 2}" width="{bar_w * value:.1f}" height="{row_h - 6}" fill="#6a8fd0"/>')
        if ci:
            x0, x1 = label_w + bar_w * ci[0], label_w + bar_w * ci[1]
            parts.append(f'<line x1="{x0:.1f}" x2="{x1:.1f}" y1="{y + 9}" y2="{y + 9}" stroke="#223" stroke-width="1.5"/>')
        parts.append(f'<text x="{label_w + bar_w * value + 4:.1f}" y="{y + 13}" font-size="11">{_pct(value)}</text>')
    axis_y = 4 + row_h * len(rows)
    parts.append(f'<line x1="{label_w}" x2="{label_w + bar_w}" y1="{axis_y}" y2="{axis_y}" stroke="#999"/>')
    for tick in (0, 0.5, 1):
        parts.append(f'<text x="{label_w + bar_w * tick:.1f}" y="{axis_y + 14}" font-size="10" '
                     f'text-anchor="middle">{int(tick * 100)}%</text>')
    parts.append("</svg>")
    return "".join(parts)


def histogram_chart(bins: list[dict], width: int = 420, height: int = 170, title: str = "") -> str:
    """Vertical bars of a histogram [{lo, hi, count}]."""
    if not bins:
        return ""
    top = max(b["count"] for b in bins)
    left, bottom, plot_h = 36, 34, height - 50
    bar_w = (width - left - 10) / len(bins)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{escape(title)}">']
    for k, b in enumerate(bins):
        h = plot_h * b["count"] / top
        x = left + k * bar_w
        y = height - bottom - h
        label = str(b["lo"]) if b["lo"] == b["hi"] else f"{b['lo']}…{b['hi']}"
        parts.append(f'<rect x="{x + 1:.1f}" y="{y:.1f}" width="{bar_w - 2:.1f}" height="{h:.1f}" fill="#d08a6a">'
                     f'<title>{escape(label)}: {b["count"]}</title></rect>')
        if len(bins) <= 8 or k % 2 == 0:
            parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{height - bottom + 13}" font-size="9" '
                         f'text-anchor="middle">{escape(str(b["lo"]))}</text>')
    parts.append(f'<text x="{left - 4}" y="{height - bottom - plot_h + 8}" font-size="10" text-anchor="end">{top}</text>')
    parts.append(f'<text x="{left - 4}" y="{height - bottom}" font-size="10" text-anchor="end">0</text>')
    parts.append(f'<line x1="{left}" x2="{width - 10}" y1="{height - bottom}" y2="{height - bottom}" stroke="#999"/>')
    parts.append(f'<text x="{(width + left) / 2:.0f}" y="{height - 4}" font-size="11" text-anchor="middle">'
                 f'{escape(title)}</text></svg>')
    return "".join(parts)


def _matrix_html(report: dict) -> str:
    ids = report["matrix"]["variants"]
    cells = report["matrix"]["cells"]
    rows = ["<table><tr><th>hand score differs</th>" + "".join(f"<th>{escape(v)}</th>" for v in ids) + "</tr>"]
    for a in ids:
        row = [f"<th>{escape(a)}</th>"]
        for b in ids:
            cell = cells.get(f"{a}|{b}") or cells.get(f"{b}|{a}")
            rate = cell["score"] if cell else None
            text = _pct(rate) if cell else "—"
            flip = f"<br><small>flips {_pct(cell['game_flip'])}</small>" if cell and cell["game_flip"] is not None else ""
            row.append(f'<td class="num" style="background:{_heat(rate)}">{text}{flip}</td>')
        rows.append("<tr>" + "".join(row) + "</tr>")
    return "".join(rows) + "</table>"


def _stage_table(data: dict, stages: dict) -> str:
    rows = ["<table><tr><th>stage</th><th>deals</th><th>rate</th><th>95% CI</th><th>causes (ablation)</th>"
            "<th>score change B−A</th><th>forbidding clauses</th></tr>"]
    for stage, st in data["stages"].items():
        causes = "<br>".join(f"{escape(r['rule'])} {_pct(r['share'])}" for r in st["attribution"]) or "—"
        d = st.get("delta")
        dtext = f"median {d['median']}, mean {d['mean']}, {d['min']}…{d['max']}" if d else "—"
        clauses = "<br>".join(f"{escape(k)}: {v}" for k, v in (st.get("forbidding_clauses") or {}).items()) or "—"
        rows.append(f"<tr><td>{escape(stages[stage])}</td><td class=num>{st['count']}</td>"
                    f"<td class=num>{_pct(st['rate'])}</td><td>{_pct(st['ci95'][0])}–{_pct(st['ci95'][1])}</td>"
                    f"<td>{causes}</td><td>{dtext}</td><td>{clauses}</td></tr>")
    return "".join(rows) + "</table>"


def _pair_html(p: dict, stages: dict) -> str:
    out = [f"<h2 id='{escape(p['a'])}-{escape(p['b'])}'>{escape(p['a'])} vs {escape(p['b'])}</h2>",
           "<p>Rules that differ: " + (", ".join(f"<code>{escape(r)}</code>" for r in p["rules"]) or "none") + "</p>"]
    lines = headline(p)
    if lines:
        out.append("<ul>" + "".join(f"<li>{escape(x)}</li>" for x in lines) + "</ul>")
    for sec, title in SECTIONS.items():
        data = p[sec]
        if not data["n"]:
            continue
        out.append(f"<h3>{escape(title)}</h3><p>{data['n']} comparisons.</p>")
        charts = [bar_chart([(stages[s], st["rate"], tuple(st["ci95"])) for s, st in data["stages"].items()],
                            title="disagreement rate by stage")]
        charts[0] = f"<figure>{charts[0]}<figcaption>How often the variants disagree, by stage (95% CI)</figcaption></figure>"
        for stage in ("score", "bags"):
            bins = data["stages"][stage].get("histogram")
            if bins:
                caption = f"{stages[stage]}: {p['b']} minus {p['a']}"
                charts.append(f"<figure>{histogram_chart(bins, title=caption)}"
                              f"<figcaption>Distribution of the {escape(stages[stage])} change per team</figcaption></figure>")
        out.append(f"<div class=charts>{''.join(charts)}</div>")
        out.append(_stage_table(data, stages))
    g = p["games"]
    if g["n"]:
        rows = [(k, v / g["n"], None) for k, v in g["outcomes"].items()]
        out.append(f"<h3>Whole games</h3><p>The winner differs in {g['flips']} of {g['n']} games "
                   f"({_pct(g['rate'])}, 95% CI {_pct(g['ci95'][0])}–{_pct(g['ci95'][1])}).</p>"
                   f"<figure>{bar_chart(rows, title='game outcomes')}<figcaption>Winners ({escape(p['a'])} / "
                   f"{escape(p['b'])})</figcaption></figure>")
        if g["attribution"]:
            out.append("<p>Causes: " + ", ".join(f"{escape(r['rule'])} {_pct(r['share'])}"
                                                 for r in g["attribution"]) + "</p>")
    examples = [e for e in p["examples"] if e.get("scenario")]
    if examples:
        out.append("<h3>Minimal examples</h3>")
        for e in examples:
            out.append(f"<p><b>{escape(e['rule'])}</b> ({escape(stages[e['stage']])}): {escape(p['a'])} "
                       f"<code>{escape(e['a_rule']['text'])}</code>, {escape(p['b'])} "
                       f"<code>{escape(e['b_rule']['text'])}</code></p><pre>{escape(e['scenario_yaml'])}</pre>")
    return "".join(out)


def render(report: dict) -> str:
    cfg = report["config"]
    stages = report["stages"]
    body = [f"<h1>Variant differences</h1><p>{cfg['deals']} deals, seed <code>{escape(str(cfg['seed']))}</code>, "
            f"policies {escape(', '.join(cfg['policies']))}; {cfg['games']} whole games.</p>",
            "<h2>Summary</h2><p>Share of deals whose hand score differs (and how often the game winner flips).</p>",
            _matrix_html(report)]
    body += [_pair_html(p, stages) for p in report["pairs"]]
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Variant differences</title>"
            f"<style>{_CSS}</style></head><body>{''.join(body)}</body></html>\n")
