"""``POST /v1/audit`` and ``POST /v1/review``: a game record checked against a variant, and reviewed card by
card (``rulespec.app.audit``, ``rulespec.app.review``).  Each request's work is bounded: the record's bytes and
hands (``rulespec.records.REQUEST_LIMITS``), the rule-evaluation allowance, and for the review one
double-dummy search budget shared by every position it asks (``claims.allowance``)."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from rulespec.app.audit import answer_audit
from rulespec.app.claims import allowance
from rulespec.app.review import answer_review
from rulespec.lang.limits import budget

from .bodies import json_body

records = Blueprint("records", __name__, url_prefix="/v1")


@records.post("/audit")
def audit():
    cfg = current_app.config
    with budget(cfg["RULE_STEPS"], cfg["RULE_SECONDS"]):
        return jsonify(answer_audit(json_body()))


@records.post("/review")
def review():
    cfg = current_app.config
    with budget(cfg["RULE_STEPS"], cfg["RULE_SECONDS"]), allowance():
        return jsonify(answer_review(json_body()))
