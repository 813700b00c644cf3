"""bench.records runs and returns well-formed results (tiny sizes; no timing is asserted)."""
from __future__ import annotations

from bench import __main__ as table
from bench import records


def test_record_bench_measures_audit_and_review_per_hand():
    result = records.measure(hands=1, python_hands=0, first=1)
    for variant in records.VARIANTS:
        spread = result[variant]["review_s"]
        assert 0 < spread["median"] <= spread["p95"] <= spread["max"]
        assert result[variant]["nodes"]["median"] > 0 and result[variant]["audit_s"]["median"] > 0
    assert result["python"] == {"share": [], "seconds": []}
    assert len(table.records_rows(result)) == 3 * len(records.VARIANTS) + 1
