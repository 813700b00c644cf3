"""The reports, served: the bundled ones (``docs/reports``: the differential report, the verification
of each rule book, the conformance runs) and a differential report made on request, as a page.

No path in a request reaches the file system: the bundled folder is listed once (regular files of the
kinds below, no symbolic links) and a request names one of the listed files or gets 404.  A report
made on request runs ``diffrun.run_diff`` with the service's bounds (``DIFF_MAX_DEALS`` deals,
``DIFF_TIME_LIMIT`` seconds) and is rendered by the same writer as ``rulespec diff``'s report.html;
nothing is kept.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request

from rulespec.errors import InputError
from rulespec.model.variants import bundled_ids
from rulespec.tools.diff import html as diff_html

from .bodies import json_body
from .diffrun import default_deals, run_diff
from .local import ROOT

BUNDLED = ROOT / "docs" / "reports"
TYPES = {".html": "text/html; charset=utf-8", ".md": "text/markdown; charset=utf-8",
         ".json": "application/json", ".svg": "image/svg+xml", ".png": "image/png"}
# Reports hold inline CSS and SVG, never scripts: a browser is told to run none, and to load nothing else.
HEADERS = {"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
                                      "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
           "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
FORM_HEADERS = {**HEADERS, "Content-Security-Policy": "default-src 'none'; style-src 'self'; "
                                                      "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"}
TITLES = {"report.html": "Where the five documents' variants disagree (rulespec diff, 10,000 deals)",
          "verify/index.html": "What each document gets wrong or leaves open (rulespec verify), side by side",
          "conformance/001-standard/report.html": "Conformance: the recorded engine against standard",
          "conformance/openspiel/report.html": "Conformance: OpenSpiel's spades against standard"}

reports = Blueprint("reports", __name__, url_prefix="/reports")


@functools.lru_cache(maxsize=4)
def listing(folder: Path) -> dict[str, Path]:
    """Every report file under ``folder`` by its path there ("verify/index.html"): regular files of the
    kinds in ``TYPES``, none reached through a symbolic link."""
    if not folder.is_dir() or folder.is_symlink():
        return {}
    found = {}
    for top, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not Path(top, d).is_symlink() and not d.startswith("."))
        for name in sorted(files):
            path = Path(top, name)
            if path.suffix in TYPES and not name.startswith(".") and path.is_file() and not path.is_symlink():
                found[path.relative_to(folder).as_posix()] = path
    return found


def title(name: str) -> str:
    """A report's title in the index: its own, or the document a verification report is of."""
    if name in TITLES:
        return TITLES[name]
    stem = Path(name).stem
    if name.startswith("verify/") and stem[:3].isdigit():
        return f"Verification of {stem[:3]} ({stem[4:]}): dead ends, conflicts, endless games, open points"
    return name


def _folder() -> Path:
    return Path(current_app.config.get("REPORTS_DIR") or BUNDLED)


@reports.get("/")
def index():
    files = listing(_folder())
    pages = sorted(((name, title(name)) for name in files if name.endswith(".html")),
                   key=lambda page: (list(TITLES).index(page[0]) if page[0] in TITLES else len(TITLES), page[0]))
    others = [name for name in files if not name.endswith(".html")]
    return _page(render_template("reports.html", pages=pages, others=others, variants=bundled_ids(),
                                 max_deals=current_app.config["DIFF_MAX_DEALS"],
                                 deals=default_deals(current_app.config["DIFF_MAX_DEALS"]),
                                 seconds=current_app.config["DIFF_TIME_LIMIT"]), 200, FORM_HEADERS)


@reports.get("/<path:name>")
def bundled(name: str):
    path = listing(_folder()).get(name)
    if path is None:
        return _page(render_template("reports.html", missing=name, pages=[], others=[], variants=[]), 404,
                     FORM_HEADERS)
    return Response(path.read_bytes(), status=200, content_type=TYPES[path.suffix], headers=HEADERS)


def _diff_page(req) -> Response:
    cfg = current_app.config
    try:
        report = run_diff(req, cfg["DIFF_MAX_DEALS"], cfg["DIFF_TIME_LIMIT"])
    except InputError as exc:
        where = f"{exc.field}: " if exc.field else ""
        return _page(render_template("reports.html", problem=f"{where}{exc.message}", pages=[], others=[],
                                     variants=bundled_ids(), max_deals=cfg["DIFF_MAX_DEALS"],
                                     deals=default_deals(cfg["DIFF_MAX_DEALS"]), seconds=cfg["DIFF_TIME_LIMIT"]),
                     422, FORM_HEADERS)
    return Response(diff_html.render(report), status=200, content_type=TYPES[".html"], headers=HEADERS)


@reports.get("/diff")
def diff_form():
    """A differential report made now from the query (the form of /reports): ``variants`` (two or more,
    repeated or comma-separated), ``deals``, ``seed``."""
    variants = [v for value in request.args.getlist("variants") for v in value.split(",") if v]
    req: dict = {"variants": variants}
    if request.args.get("deals"):
        text = request.args["deals"]
        req["deals"] = int(text) if text.isdigit() and len(text) < 10 else text
    if request.args.get("seed"):
        req["seed"] = request.args["seed"]
    # any other query field is passed on as it came, so that the request's checks refuse it by name
    req.update({key: request.args[key] for key in request.args if key not in ("variants", "deals", "seed")})
    return _diff_page(req)


@reports.post("/diff")
def diff_post():
    """The report of ``POST /v1/diff``'s request body, as a page."""
    return _diff_page(json_body())


def _page(text: str, status: int, headers: dict) -> Response:
    return Response(text, status=status, content_type=TYPES[".html"], headers=headers)
