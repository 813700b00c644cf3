"""Tables of the HTML reports that read on a phone: on a wide screen an ordinary table; on a narrow one
each row becomes a block of its own, each cell on a line under its column's name, so no column is cut
off and nothing needs a sideways swipe.  The ARIA roles keep them tables for screen readers when the
narrow layout takes the table display away."""
from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

# A cell: its HTML, or (HTML, extra attributes such as 'class=num').
Cell = str | tuple[str, str]

CSS = ("table.reflow caption{text-align:left;font-weight:600}"
       "@media (max-width:40em){"
       "table.reflow,table.reflow tbody,table.reflow tr,table.reflow td,table.reflow th[scope=row]{display:block}"
       "table.reflow{border:0;width:100%}table.reflow caption{display:block}"
       "table.reflow thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}"
       "table.reflow tr{border:1px solid #ccd;border-radius:6px;margin:.6em 0;padding:.2em 0}"
       "table.reflow th[scope=row]{border:0;background:#eef;padding:.3em .6em}"
       "table.reflow td{border:0;border-top:1px solid #eee;display:grid;grid-template-columns:minmax(7em,40%) 1fr;"
       "gap:.6em;padding:.3em .6em;text-align:left;overflow-wrap:anywhere}"
       "table.reflow td::before{content:attr(data-label);font-weight:600;color:#555}"
       "}")


def _text(html: str) -> str:
    """A header's words, without its tags, for the data-label attribute."""
    return escape(re.sub(r"<[^>]+>", "", html).replace("&amp;", "&"), quote=True)


def _cell(cell: Cell, label: str) -> str:
    body, attrs = (cell, "") if isinstance(cell, str) else cell
    # (one element inside: beside its column's name on a phone, however many lines it holds)
    return f'<td role=cell data-label="{label}"{" " + attrs if attrs else ""}><span>{body}</span></td>'


def reflow_table(head: Sequence[str], rows: Sequence[Sequence[Cell]], caption: str = "",
                 row_header: bool = False) -> str:
    """A table with column headers ``head`` (HTML) and ``rows`` of cells (HTML, escaped by the caller); with
    ``row_header`` each row's first cell heads its row."""
    labels = [_text(h) for h in head]
    out = ['<table class=reflow role=table>']
    if caption:
        out.append(f"<caption>{caption}</caption>")
    columns = "".join(f"<th scope=col role=columnheader>{h}</th>" for h in head)
    out.append(f"<thead role=rowgroup><tr role=row>{columns}</tr></thead><tbody role=rowgroup>")
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            if i == 0 and row_header:
                body = cell if isinstance(cell, str) else cell[0]
                cells.append(f"<th scope=row role=rowheader>{body}</th>")
            else:
                cells.append(_cell(cell, labels[i]))
        out.append("<tr role=row>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)
