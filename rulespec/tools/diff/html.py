"""report.html: one self-contained page (inline CSS and SVG charts, no scripts, no network)."""
from __future__ import annotations

from html import escape

from ..tables import CSS as TABLE_CSS, reflow_table
from .report import SECTIONS, headline

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:1em auto 2em;max-width:1100px;color:#222;padding:0 1em}
h1,h2,h3{line-height:1.2} h2{border-top:2px solid #ccd;padding-top:.6em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0} \
td,th{border:1px solid #ccd;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#eef} td.num{text-align:right}
pre{background:#f6f6fa;padding:.6em;white-space:pre-wrap;overflow-wrap:anywhere}
.wide{overflow-x:auto;max-width:100%} svg{max-width:100%;height:auto}
.charts{display:flex;flex-wrap:wrap;gap:1.5em} figure{margin:0;max-width:100%} figcaption{font-size:12px;color:#555}
code{background:#f3f3f7;padding:0 2px;overflow-wrap:anywhere}
nav.contents{background:#f6f6fa;border:1px solid #ccd;border-radius:6px;padding:.3em 1em}
nav.contents ol{columns:16em;margin:.3em 0} nav.contents a{display:inline-block;min-height:24px;padding:2px 0}
details summary{cursor:pointer;min-height:24px;padding:4px 0} details.evidence>summary{font-weight:600}
""" + TABLE_CSS


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
    parts = [_svg_open(width, height, title)]
    for k, (label, value, ci) in enumerate(rows):
        y = 4 + k * row_h
        parts.append(f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end" font-size="12">{escape(label)}</text>')
        parts.append(f'<rect x="{label_w}" y="{y + 2}" width="{bar_w * value:.1f}" height="{row_h - 6}" '
                     'fill="#6a8fd0"/>')
        if ci:
            x0, x1 = label_w + bar_w * ci[0], label_w + bar_w * ci[1]
            parts.append(f'<line x1="{x0:.1f}" x2="{x1:.1f}" y1="{y + 9}" y2="{y + 9}" stroke="#223" '
                         'stroke-width="1.5"/>')
        parts.append(f'<text x="{label_w + bar_w * value + 4:.1f}" y="{y + 13}" font-size="11">{_pct(value)}</text>')
    axis_y = 4 + row_h * len(rows)
    parts.append(f'<line x1="{label_w}" x2="{label_w + bar_w}" y1="{axis_y}" y2="{axis_y}" stroke="#999"/>')
    for tick in (0, 0.5, 1):
        parts.append(f'<text x="{label_w + bar_w * tick:.1f}" y="{axis_y + 14}" font-size="10" '
                     f'text-anchor="middle">{int(tick * 100)}%</text>')
    parts.append("</svg>")
    return "".join(parts)


def _svg_open(width: int, height: int, title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'role="img" aria-label="{escape(title)}">')


def histogram_chart(bins: list[dict], width: int = 420, height: int = 200, title: str = "") -> str:
    """Vertical bars of a histogram [{lo, hi, count}], each with its count printed on it.  The bin that
    holds 0 (no change: a bin of its own in the reports) is drawn apart on the right, on its own scale, so that
    it does not flatten the rest."""
    if not bins:
        return ""
    zero = next((b for b in bins if b["lo"] <= 0 <= b["hi"]), None)
    rest = [b for b in bins if b is not zero]
    left, bottom, top_pad = 8, 50, 16
    plot_h = height - bottom - top_pad
    apart = 62 if zero else 0
    bar_w = (width - left - 10 - apart) / max(1, len(rest))
    parts = [_svg_open(width, height, title)]
    base = height - bottom

    def bar(x: float, w: float, b: dict, scale: int, colour: str) -> None:
        h = plot_h * b["count"] / scale if scale else 0
        label = str(b["lo"]) if b["lo"] == b["hi"] else f"{b['lo']}…{b['hi']}"
        parts.append(f'<rect x="{x + 1:.1f}" y="{base - h:.1f}" width="{w - 2:.1f}" height="{h:.1f}" fill="{colour}">'
                     f'<title>{escape(label)}: {b["count"]}</title></rect>')
        parts.append(f'<text x="{x + w / 2:.1f}" y="{base - h - 3:.1f}" font-size="9" text-anchor="middle">'
                     f'{b["count"]}</text>')

    top = max((b["count"] for b in rest), default=0)
    for k, b in enumerate(rest):
        x = left + k * bar_w
        bar(x, bar_w, b, top, "#d08a6a")
        if len(rest) <= 8 or k % 2 == 0:
            parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{base + 12}" font-size="9" '
                         f'text-anchor="middle">{escape(str(b["lo"]))}</text>')
    parts.append(f'<line x1="{left}" x2="{left + bar_w * len(rest)}" y1="{base}" y2="{base}" stroke="#999"/>')
    if zero:
        x = width - apart
        bar(x + 8, apart - 14, zero, zero["count"], "#8a9bb0")
        parts.append(f'<line x1="{x + 6}" x2="{width - 4}" y1="{base}" y2="{base}" stroke="#999"/>')
        label = "0" if zero["lo"] == zero["hi"] else f'{zero["lo"]}…{zero["hi"]}'
        parts.append(f'<text x="{x + apart / 2 + 1:.1f}" y="{base + 12}" font-size="9" text-anchor="middle">'
                     f'{label}</text>')
        notes = ("no change,", "own scale") if zero["lo"] == zero["hi"] else ("incl. 0,", "own scale")
        for dy, note in zip((21, 30), notes):
            parts.append(f'<text x="{x + apart / 2 + 1:.1f}" y="{base + dy}" font-size="9" text-anchor="middle">'
                         f'{note}</text>')
    parts.append(f'<text x="{width / 2:.0f}" y="{height - 4}" font-size="11" text-anchor="middle">'
                 f'{escape(title)}</text></svg>')
    return "".join(parts)


def _matrix_html(report: dict) -> str:
    ids = report["matrix"]["variants"]
    cells = report["matrix"]["cells"]
    rows = []
    for a in ids:
        row: list = [escape(a)]
        for b in ids:
            cell = cells.get(f"{a}|{b}") or cells.get(f"{b}|{a}")
            rate = cell["score"] if cell else None
            text = _pct(rate) if cell else "—"
            flips = cell and cell["game_flip"] is not None
            flip = f"<br><small>flips {_pct(cell['game_flip'])}</small>" if flips else ""
            row.append((f"{text}{flip}", f'class="num" style="background:{_heat(rate)}"'))
        rows.append(row)
    return reflow_table(["hand score differs", *map(escape, ids)], rows, "Share of deals whose hand score differs",
                        row_header=True)


def _stage_table(data: dict, stages: dict, label: str) -> str:
    rows = []
    for stage, st in data["stages"].items():
        causes = "<br>".join(f"{escape(r['rule'])} {_pct(r['share'])}" for r in st["attribution"]) or "—"
        d = st.get("delta")
        dtext = f"median {d['median']}, mean {d['mean']}, {d['min']}…{d['max']}" if d else "—"
        clauses = "<br>".join(f"{escape(k)}: {v}" for k, v in (st.get("forbidding_clauses") or {}).items()) or "—"
        rows.append([escape(stages[stage]), (str(st["count"]), "class=num"), (_pct(st["rate"]), "class=num"),
                     f"{_pct(st['ci95'][0])}–{_pct(st['ci95'][1])}", causes, dtext, clauses])
    return reflow_table(["stage", "deals", "rate", "95% CI", "causes (ablation)", "score change B−A",
                         "forbidding clauses"], rows, escape(label), row_header=True)


def _pair_html(p: dict, stages: dict) -> str:
    out = [f"<h2 id='{escape(p['a'])}-{escape(p['b'])}'>{escape(p['a'])} vs {escape(p['b'])}</h2>",
           "<p>Rules that differ: " + (", ".join(f"<code>{escape(r)}</code>" for r in p["rules"]) or "none") + "</p>"]
    lines = headline(p)
    if lines:
        out.append("<ul>" + "".join(f"<li>{escape(x)}</li>" for x in lines) + "</ul>")
    detail = []
    for sec, title in SECTIONS.items():
        if p[sec]["n"]:
            detail += _section_html(p, p[sec], title, stages)
    detail += _games_html(p)
    if detail:    # folded: the sentences above answer the question; the charts and tables show the evidence
        out.append(f"<details class=evidence><summary>Charts and tables: how often and why, stage by stage"
                   f"</summary>{''.join(detail)}</details>")
    examples = [e for e in p["examples"] if e.get("scenario")]
    if examples:
        out.append("<h3>Minimal examples</h3>")
    for e in examples:
        out.append(f"<p><b>{escape(e['rule'])}</b> ({escape(stages[e['stage']])}): {escape(p['a'])} "
                   f"<code>{escape(e['a_rule']['text'])}</code>, {escape(p['b'])} "
                   f"<code>{escape(e['b_rule']['text'])}</code></p><details><summary>As a scenario case to run"
                   f"</summary><pre>{escape(e['scenario_yaml'])}</pre></details>")
    return "".join(out)


def _section_html(p: dict, data: dict, title: str, stages: dict) -> list[str]:
    """One section: its rate chart, the score and bags histograms, the stage table."""
    charts = [bar_chart([(stages[s], st["rate"], tuple(st["ci95"])) for s, st in data["stages"].items()],
                        title="disagreement rate by stage")]
    charts[0] = (f"<figure>{charts[0]}<figcaption>How often the variants disagree, by stage (95% CI)</figcaption>"
                 "</figure>")
    for stage in ("score", "bags"):
        bins = data["stages"][stage].get("histogram")
        if bins:
            caption = f"{stages[stage]}: {p['b']} minus {p['a']}"
            charts.append(f"<figure>{histogram_chart(bins, title=caption)}"
                          f"<figcaption>Distribution of the {escape(stages[stage])} change per team (count on "
                          f"each bar; the bin holding no change on the right, on its own scale)</figcaption></figure>")
    return [f"<h3>{escape(title)}</h3><p>{data['n']} comparisons.</p>", f"<div class=charts>{''.join(charts)}</div>",
            _stage_table(data, stages, f"{p['a']} vs {p['b']}: {title}")]


def _games_html(p: dict) -> list[str]:
    g = p["games"]
    if not g["n"]:
        return []
    rows = [(k, v / g["n"], None) for k, v in g["outcomes"].items()]
    out = [f"<h3>Whole games</h3><p>The winner differs in {g['flips']} of {g['n']} games "
           f"({_pct(g['rate'])}, 95% CI {_pct(g['ci95'][0])}–{_pct(g['ci95'][1])}).</p>"
           f"<figure>{bar_chart(rows, title='game outcomes')}<figcaption>Winners ({escape(p['a'])} / "
           f"{escape(p['b'])})</figcaption></figure>"]
    if g["attribution"]:
        out.append("<p>Causes: " + ", ".join(f"{escape(r['rule'])} {_pct(r['share'])}"
                                             for r in g["attribution"]) + "</p>")
    return out


def render(report: dict) -> str:
    cfg = report["config"]
    stages = report["stages"]
    contents = ('<nav class="contents" aria-label="Contents"><h2>Contents</h2><ol>'
                '<li><a href="#summary">Summary</a></li>'
                + "".join(f'<li><a href="#{escape(p["a"])}-{escape(p["b"])}">'
                          f'{escape(p["a"])} vs {escape(p["b"])}</a></li>' for p in report["pairs"]) + "</ol></nav>")
    body = [f"<h1>Variant differences</h1><p>{cfg['deals']} deals, seed <code>{escape(str(cfg['seed']))}</code>, "
            f"policies {escape(', '.join(cfg['policies']))}; {cfg['games']} whole games.</p>", contents,
            "<h2 id='summary'>Summary</h2><p>Share of deals whose hand score differs (and how often the game winner "
            "flips).</p>", _matrix_html(report)]
    body += [_pair_html(p, stages) for p in report["pairs"]]
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Variant differences</title>'
            f"<style>{_CSS}</style></head><body><main>{''.join(body)}</main></body></html>\n")
