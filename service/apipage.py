"""The API described for people: plain HTML generated from the OpenAPI document
(no scripts, no CDN).  Each problem type has an anchor ``problem-<slug>``, the
target of the ``type`` URI in problem responses."""
from __future__ import annotations

import json
from html import escape

from .problems import PROBLEM_TYPES

STYLE = ("body{font:15px/1.5 system-ui,sans-serif;max-width:60em;margin:0 auto;padding:0 1em 2em;color:#222}"
         "code,pre{font:13px ui-monospace,monospace;background:#f4f4f4}"
         "pre{padding:.6em;white-space:pre-wrap;overflow-wrap:anywhere;max-width:100%}"
         "code{overflow-wrap:anywhere}h2{border-bottom:1px solid #ccc;margin-top:2em}h3 code{background:none}"
         "table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.2em .5em;text-align:left;"
         "vertical-align:top;overflow-wrap:anywhere}"
         "nav#contents{background:#f7f7f9;border:1px solid #ddd;border-radius:6px;padding:.3em 1em;margin:1em 0}"
         "nav#contents ol{margin:.3em 0;padding-left:1.3em}nav#contents li ol{font-size:.95em}"
         "nav#contents a{display:inline-block;min-height:24px;padding:3px 0}"
         ".back{display:inline-block;margin:1em 0 0;min-height:24px}.example{margin:.5em 0 1em}"
         ".example h4{margin:.6em 0 .2em;font-size:1em}")


def _schema_name(schema: dict) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f'<a href="#schema-{name}">{name}</a>'
    if "anyOf" in schema:
        return " | ".join(_schema_name(s) for s in schema["anyOf"])
    if schema.get("type") == "array":
        return f"array of {_schema_name(schema.get('items', {}))}"
    if "enum" in schema:
        return " | ".join(escape(json.dumps(v, ensure_ascii=False)) for v in schema["enum"])
    if "const" in schema:
        return escape(json.dumps(schema["const"], ensure_ascii=False))
    return escape(str(schema.get("type", "any")))


def _fields(schema: dict) -> str:
    props = schema.get("properties", {})
    if not props:
        return f"<p>{_schema_name(schema)}</p>"
    required = set(schema.get("required", ()))
    rows = "".join(f"<tr><td><code>{escape(name)}</code>{' (required)' if name in required else ''}</td>"
                   f"<td>{_schema_name(sub)}</td><td>{escape(sub.get('description', ''))}</td></tr>"
                   for name, sub in props.items())
    return f"<table><tr><th>field</th><th>type</th><th>meaning</th></tr>{rows}</table>"


def _example_html(example, status: int, answer: str) -> str:
    return (f'<section class="example" aria-label="Example: {escape(example.title)}">'
            f"<h4>Example: {escape(example.title)}</h4><pre>{escape(example.curl())}</pre>"
            f"<p>Answer ({status}):</p><pre>{escape(answer)}</pre></section>")


def render(spec: dict, examples: dict[str, tuple] | None = None) -> str:
    """The whole page: contents, endpoints each with a worked example (``examples``: operationId ->
    (Example, status, answer text)), problem types, then every schema."""
    info = spec["info"]
    examples = examples or {}
    ops = [(path, method, op) for path, methods in spec["paths"].items() for method, op in methods.items()]
    schemas = spec["components"]["schemas"]
    contents = ("<nav id=contents aria-label=Contents><h2>Contents</h2><ol>"
                "<li><a href=\"#endpoints\">Endpoints</a><ol>"
                + "".join(f'<li><a href="#op-{escape(op["operationId"])}"><code>{method.upper()} {escape(path)}</code>'
                          f"</a></li>" for path, method, op in ops)
                + "</ol></li><li><a href=\"#problems\">Problem types</a></li>"
                "<li><a href=\"#schemas\">Schemas</a></li></ol></nav>")
    out = [f"<!doctype html><html lang=en><head><meta charset=utf-8>"
           f"<meta name=viewport content=\"width=device-width, initial-scale=1\">"
           f"<title>{escape(info['title'])} API</title><style>{STYLE}</style></head><body>"
           f"<header><a class=back href=\"/\">← Back to the dispute page</a></header><main>"
           f"<h1>{escape(info['title'])} API</h1>"
           f"<p>{escape(info['description'])}</p><p>Machine-readable: <a href=\"/openapi.json\">/openapi.json</a> "
           "(OpenAPI 3.1). The examples below run as shown against <code>make serve</code> "
           "(127.0.0.1:8000); each answer is the one this service gives.</p>", contents,
           "<h2 id=endpoints>Endpoints</h2>"]
    for path, method, op in ops:
        out.append(f"<section aria-labelledby=\"op-{escape(op['operationId'])}\">"
                   f"<h3 id=\"op-{escape(op['operationId'])}\"><code>{method.upper()} {escape(path)}</code> — "
                   f"{escape(op['summary'])}</h3>")
        if op.get("description"):
            out.append(f"<p>{escape(op['description'])}</p>")
        body = op.get("requestBody", {}).get("content", {})
        if body:
            out.append("<p>Body: " + "; ".join(f"<code>{escape(t)}</code> {_schema_name(c['schema'])}"
                                               for t, c in body.items()) + "</p>")
        out.append("<ul>" + "".join(
            f"<li><b>{code}</b> {escape(r['description'])}"
            + "".join(f" <code>{escape(t)}</code> {_schema_name(c['schema'])}" for t, c in r.get("content", {}).items())
            + "</li>" for code, r in op["responses"].items()) + "</ul>")
        if op["operationId"] in examples:
            out.append(_example_html(*examples[op["operationId"]]))
        out.append("</section>")
    out.append("<h2 id=problems>Problem types</h2><p>Every error is <code>application/problem+json</code> (RFC 9457) "
               "with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, the "
               "<code>field</code> path of the offending input, <code>rule</code>/<code>cite</code> when a rule "
               "refuses it and <code>problems</code> for a rules file.</p><dl>")
    for slug, (status, title) in PROBLEM_TYPES.items():
        out.append(f"<dt id=\"problem-{slug}\"><code>/api#problem-{slug}</code> ({status})</dt>"
                   f"<dd>{escape(title)}</dd>")
    out.append("</dl><h2 id=schemas>Schemas</h2>")
    for name, schema in schemas.items():
        out.append(f"<h3 id=\"schema-{name}\">{name}</h3>")
        if schema.get("description"):
            out.append(f"<p>{escape(schema['description'])}</p>")
        out.append(_fields(schema))
    out.append("</main></body></html>")
    return "\n".join(out)
