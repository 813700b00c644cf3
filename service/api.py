"""The v1 endpoints: variants, the five dispute kinds, compare and diff."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from rulespec.app.answers import KINDS, answer, compare
from rulespec.app.claims import allowance

from .bodies import json_body, yaml_body
from .catalog import check_house_rule, get_variant, list_variants, variant_detail
from .diffrun import run_diff

v1 = Blueprint("v1", __name__, url_prefix="/v1")


@v1.get("/variants")
def variants():
    return jsonify(variants=list_variants())


@v1.get("/variants/<vid>")
def variant(vid: str):
    return jsonify(variant_detail(get_variant(vid)))


@v1.post("/variants/check")
def check():
    return jsonify(check_house_rule(yaml_body()))


def _kind_view(kind: str):
    def view():
        with allowance():     # the double-dummy kinds' searches share one bounded budget per request
            return jsonify(answer(kind, json_body()))
    view.__name__ = f"answer_{kind}"
    view.__doc__ = KINDS[kind].__doc__
    return view


for _kind in KINDS:
    v1.add_url_rule(f"/{_kind}", view_func=_kind_view(_kind), methods=["POST"])


@v1.post("/compare")
def compare_view():
    with allowance():
        return jsonify(compare(json_body()))


@v1.post("/diff")
def diff():
    cfg = current_app.config
    return jsonify(run_diff(json_body(), cfg["DIFF_MAX_DEALS"], cfg["DIFF_TIME_LIMIT"]))
