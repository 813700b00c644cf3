"""A bounded differential run over HTTP, with the differential tester in
``rulespec.tools.diff``: identical deals replayed under each variant, disagreements
tallied by stage and attributed to the rules that cause them.

Bounds: at most ``max_deals`` deals, all within ``time_limit`` seconds: a deal after the first starts only
if, as slow as the slowest so far, it would end within the first ``1 - REPORT_SHARE`` of the limit; the
report's minimal examples are searched in the rest, and those not reached by the limit say so (the report
covers the deals run).  Deals
run one at a time in the request's own thread, on a context built for the
request, so concurrent requests share nothing but the compiled bundled
variants.
"""
from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace

from rulespec.errors import InputError

from rulespec.app.disputes import MAX_VARIANTS
from rulespec.tools.diff import DiffConfig, DiffError
from rulespec.tools.diff.report import build
from rulespec.tools.diff.deal_runs import Context, merge, new_acc, run_deals
from rulespec.errors import RulespecError
from rulespec.game.policies import POLICIES
from rulespec.model.variants import bundled_ids

KEYS = ("variants", "deals", "seed", "policies", "time_limit")
REPORT_SHARE = 0.2    # of the time limit, kept for the report's minimal examples


def _variants(req: Mapping) -> tuple[str, ...]:
    variants = req.get("variants")
    if not isinstance(variants, list) or not 2 <= len(variants) <= MAX_VARIANTS:
        raise InputError(f"expected a list of 2 to {MAX_VARIANTS} bundled variant ids", "variants")
    known = bundled_ids()
    for i, ref in enumerate(variants):
        if not isinstance(ref, str) or ref not in known:
            raise InputError(f"a differential run compares bundled variants; {ref!r} is not one "
                             f"(bundled: {', '.join(known)})", f"variants[{i}]")
        if ref in variants[:i]:
            raise InputError(f"'{ref}' is named twice", f"variants[{i}]")
    return tuple(variants)


def default_deals(max_deals: int) -> int:
    """Deals run when the request names no number (never more than the limit)."""
    return min(20, max_deals)


def _config(req: Mapping, max_deals: int, time_limit: float) -> tuple[DiffConfig, float]:
    for key in req:
        if key not in KEYS:
            raise InputError(f"unknown key '{key}' (allowed: {', '.join(KEYS)})", key)
    deals = req.get("deals", default_deals(max_deals))
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= max_deals:
        raise InputError(f"deals is a whole number from 1 to {max_deals}", "deals")
    seed = req.get("seed", "0")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or len(str(seed)) > 64:
        raise InputError("seed is a whole number or a string of at most 64 characters", "seed")
    policies = _policies(req)
    limit = req.get("time_limit", time_limit)
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not 0 < limit <= time_limit:
        raise InputError(f"time_limit is a number of seconds, more than 0 and at most {time_limit}", "time_limit")
    cfg = DiffConfig(refs=_variants(req), deals=deals, seed=str(seed), games=0, policies=policies,
                     attribute=deals)
    return cfg, float(limit)


def _policies(req: Mapping) -> tuple[str, ...]:
    """The players to replay deals with: distinct known policies."""
    policies = req.get("policies", list(DiffConfig.policies))
    if (not isinstance(policies, list) or not policies
            or not all(isinstance(p, str) and p in POLICIES for p in policies) or len(set(policies)) != len(policies)):
        raise InputError(f"policies is a list of distinct player policies from: {', '.join(POLICIES)}", "policies")
    return tuple(policies)


def run_diff(req, max_deals: int, time_limit: float) -> dict:
    """The differential report for the deals run within the bounds, plus how the run went."""
    if not isinstance(req, Mapping):
        raise InputError("expected a JSON object", "body")
    cfg, limit = _config(req, max_deals, time_limit)
    start = time.monotonic()
    deadline = start + limit
    try:
        ctx = Context(cfg)
        acc = new_acc(ctx)
        run, slowest = 0, 0.0
        # a deal starts only if, taking as long as the slowest so far, it ends within the deals' share
        while run < cfg.deals and (run == 0 or time.monotonic() + slowest <= deadline - REPORT_SHARE * limit):
            began = time.monotonic()
            merge(acc, run_deals(ctx, run, run + 1))
            slowest = max(slowest, time.monotonic() - began)
            run += 1
        report = build(replace(cfg, deals=run, attribute=run), ctx, acc, deadline)
    except DiffError as exc:
        raise InputError(str(exc), "variants") from None
    except RulespecError as exc:  # a bundled variant that does not compile
        raise InputError(f"the run could not be set up: {exc}", "variants") from None
    report["run"] = {"deals_requested": cfg.deals, "deals_run": run,
                     "stopped": "time limit" if run < cfg.deals else None,
                     "time_limit": limit, "elapsed_seconds": round(time.monotonic() - start, 3)}
    return report
