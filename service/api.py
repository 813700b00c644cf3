"""The v1 endpoints: variants, the five dispute kinds, compare and diff."""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from flask import Blueprint, current_app, jsonify
from werkzeug.routing import BaseConverter

from rulespec.app.answers import KINDS

from rulespec.app.disputes import answer, compare
from rulespec.lang.limits import budget
from rulespec.app.claims import API_SECONDS, KINDS as SEARCH_KINDS, allowance

from .bodies import json_body, yaml_body
from .catalog import check_house_rule, get_variant, list_variants, variant_detail
from .diffrun import run_diff

v1 = Blueprint("v1", __name__, url_prefix="/v1")


class VariantIdConverter(BaseConverter):
    """A variant id in a path; never 'check' (``/v1/variants/check`` only takes POST)."""
    regex = r"(?!check$)[^/]{1,300}"


@v1.record_once
def _register_converter(state) -> None:
    state.app.url_map.converters["variant_id"] = VariantIdConverter


def bounded(view: Callable) -> Callable:
    """Run ``view`` within the request's rule-evaluation allowance (``RULE_STEPS``, ``RULE_SECONDS``)."""
    @functools.wraps(view)
    def run(*args, **kwargs):
        cfg = current_app.config
        with budget(cfg["RULE_STEPS"], cfg["RULE_SECONDS"]):
            return view(*args, **kwargs)
    return run


@contextmanager
def allowances(kind: str, config: Mapping) -> Iterator[None]:
    """One allowance for all of a request's work: its rule evaluation (``RULE_STEPS``; ``RULE_SECONDS``, or for
    the double-dummy kinds the search's own ``API_SECONDS``, so that their rules and searches run on one
    clock) and one search budget (the double-dummy kinds' searches share it)."""
    seconds = max(config["RULE_SECONDS"], API_SECONDS) if kind in SEARCH_KINDS else config["RULE_SECONDS"]
    with budget(config["RULE_STEPS"], seconds), allowance():
        yield


@v1.get("/variants")
def variants():
    return jsonify(variants=list_variants())


@v1.get("/variants/<variant_id:vid>")
def variant(vid: str):
    return jsonify(variant_detail(get_variant(vid)))


@v1.post("/variants/check")
@bounded
def check():
    return jsonify(check_house_rule(yaml_body()))


def dispute(kind: str, config: Mapping, read_body: Callable[[], object]) -> dict:
    """The answer of dispute ``kind`` to the document ``read_body`` gives, within the request's allowances
    (``allowances``)."""
    with allowances(kind, config):
        return answer(kind, read_body())


def _kind_view(kind: str):
    def view():
        return jsonify(dispute(kind, current_app.config, json_body))
    view.__name__ = f"answer_{kind}"
    view.__doc__ = KINDS[kind].__doc__
    return view


for _kind in KINDS:
    v1.add_url_rule(f"/{_kind}", view_func=_kind_view(_kind), methods=["POST"])


@v1.post("/compare")
def compare_view():
    body = json_body()
    kind = body.get("kind") if isinstance(body, Mapping) else None
    with allowances(kind if isinstance(kind, str) else "score", current_app.config):
        return jsonify(compare(body))


@v1.post("/diff")
def diff():
    cfg = current_app.config
    return jsonify(run_diff(json_body(), cfg["DIFF_MAX_DEALS"], cfg["DIFF_TIME_LIMIT"]))
