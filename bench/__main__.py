"""``python -m bench``: every performance target, measured in one run, as one table."""
from __future__ import annotations

import argparse
import json
import os
import platform

from . import api, players, process, simulation, startup

Row = tuple[str, str, str, str, str]


def _cpu() -> str:
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _spread(ratio: dict) -> str:
    return f"{ratio['median']:.2f} ({ratio['min']:.2f}-{ratio['max']:.2f})"


def simulation_rows(result: dict) -> list[Row]:
    """OpenSpiel under each driver, and ours against the fair driver (the old driver's ratios as history)."""
    med, ratios = result["median"], result["ratios"]
    rounds = f"{result['rounds']} rounds of {result['budget']:g} CPU s"
    rows: list[Row] = []
    ours = {"scalar": ("scalar, pure Python (before)", "context"),
            "compiled": ("compiled scalar (numba from the rules; 1,000 hands per call, one at a time)", ">= 1.5"),
            "batch": ("batch", ">= 10")}
    if "openspiel_fair" not in med:
        return [(f"simulation, {name} (hands/s, 1 core)", f"{med[name]:,.0f}", "OpenSpiel not installed", "-", "-")
                for name in med]
    for driver, label in (("fair", "fair driver (legal_actions, shuffled deal)"),
                          ("chance_outcomes", "old driver (chance_outcomes), history"),
                          ("cpp", "evaluate_bots, all in C++, context")):
        rows.append((f"OpenSpiel spades hands/CPU s, 1 core: {label}", "-", f"{med['openspiel_' + driver]:,.0f}", "-",
                     "reported"))
    for name, (label, target) in ours.items():
        rows.append((f"simulation, {label} vs OpenSpiel fair driver (hands/CPU s, 1 core, {rounds}; median ratio)",
                     f"{med[name]:,.0f}", f"{med['openspiel_fair']:,.0f}",
                     _spread(ratios[f"{name}/openspiel_fair"]), target))
        if name == "compiled":
            rows.append(("  compiled, one call from Python per hand, vs the fair driver",
                         f"{med['compiled_per_call']:,.0f}", f"{med['openspiel_fair']:,.0f}",
                         _spread(ratios["compiled_per_call/openspiel_fair"]), "context"))
        for driver in ("chance_outcomes", "cpp"):
            rows.append((f"  {name} vs OpenSpiel {driver}", "-", "-", _spread(ratios[f"{name}/openspiel_{driver}"]),
                         "context"))
        rows.append((f"  {name} on OpenSpiel's rules (spades never broken) vs the fair driver",
                     f"{med[name + '_os_rules']:,.0f}", f"{med['openspiel_fair']:,.0f}",
                     _spread(ratios[f"{name}_os_rules/openspiel_fair"]), "context"))
    return rows


def process_rows(result: dict) -> list[Row]:
    """``rulespec simulate`` as a whole process against the pyspiel script."""
    wall, ratios = result["wall"], result["ratios"]
    rows: list[Row] = []
    label = {"simulate": " --policy random", "simulate_out": " --policy random --out hands.jsonl",
             "simulate_stats": " --policy random --stats"}
    peer = f"{min(wall['peer']):.2f}" if "peer" in wall else "OpenSpiel not installed"
    for name, suffix in label.items():
        ratio = _spread(ratios[name]) if ratios else "-"
        cpu = _spread(result["cpu_ratios"][name]) if ratios else "-"
        rows.append((f"rulespec simulate {result['variant']} --hands {result['hands']:,}{suffix} vs pyspiel script "
                     f"(wall s, fastest of {result['rounds']}; median ratio)", f"{min(wall[name]):.2f}", peer, ratio,
                     ">= 3" if name != "simulate_stats" else "reported"))
        rows.append(("  the same in CPU time (user + system)", f"{min(result['cpu'][name]):.2f}",
                     f"{min(result['cpu']['peer']):.2f}" if "peer" in wall else "-", cpu, "context"))
    return rows


def replay_rows(result: dict) -> list[Row]:
    return [
        (f"5 variants on shared deals vs 5 runs (CPU s, {result['rounds']} rounds; median ratio)",
         f"{result['shared']:.2f}", f"{result['separate']:.2f}", f"{result['overhead']:+.1%} overhead", "<= +10%"),
        (f"diff --jobs 2 vs --jobs 1 (wall s, {result['jobs_rounds']} rounds; median ratio)",
         f"{result['jobs2']:.2f}", f"{result['jobs1']:.2f}", f"{result['speedup']:.2f}x", ">= 1.8x"),
        ("  CPU time of --jobs 2 / --jobs 1 (work the split adds)", "-", "-", f"{result['cpu_inflation']:.2f}",
         "context"),
        ("  this machine: 2 CPU-bound processes vs 1 (ceiling)", "-", "-", f"{result['parallel_ceiling']:.2f}x",
         "context"),
    ]


def startup_rows(result: dict) -> list[Row]:
    return [("load + compile every bundled variant (ms)", f"{result['compile_all'] * 1000:.0f}", "200", "-", "< 200"),
            ("rulespec --help (ms, whole process)", f"{result['cli_help'] * 1000:.0f}", "300", "-", "< 300")]


def api_rows(results: dict) -> list[Row]:
    """``/v1/score`` and its floors per server settings and connection count."""
    if None in results.values():
        return [("API /v1/score (req/s)", "-", "wrk not installed (apt-get install wrk)", "-", ">= 0.70")]
    rows: list[Row] = []
    for key, result in results.items():
        settings, connections = key.split("@")
        name = "gthread (make serve)" if settings == "gthread" else "sync (before)"
        s, f, pf, ratio = result["score"], result["floor"], result["post_floor"], result["ratios"]
        where = f"{name}, {connections} connections, {result['rounds']} rounds"
        rows.append((f"API POST /v1/score vs GET /healthz, req/s, {where}; median ratio", f"{s['rps']:,.0f}",
                     f"{f['rps']:,.0f}", f"{ratio['floor']:.2f}", ">= 0.70" if settings == "gthread" else "before"))
        rows.append(("  /v1/score vs POST echo (req/s); p99 ms score / healthz / echo",
                     f"{s['rps']:,.0f}; {s['p99_ms']:.1f}", f"{pf['rps']:,.0f}; {f['p99_ms']:.1f} / {pf['p99_ms']:.1f}",
                     f"{ratio['post_floor']:.2f}", "reported"))
        rows.append(("  server CPU µs per request: /v1/score vs /healthz (ratio healthz / score); echo",
                     f"{s['cpu_us']:,.0f}", f"{f['cpu_us']:,.0f}; {pf['cpu_us']:,.0f}",
                     f"{result['cpu_ratios']['floor']:.2f}", "context"))
    return rows


def table_text(rows: list[Row], machine: dict) -> str:
    """The rows as a text table, and the machine with its load average before and after the run."""
    header = ("measure", "ours", "peer / floor", "ratio", "target")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(5)]
    lines = [" | ".join(str(cell).ljust(w) for cell, w in zip(row, widths))
             for row in [header, tuple("-" * w for w in widths), *rows]]
    load = {when: ", ".join(f"{a:.1f}" for a in machine[f"load_{when}"]) for when in ("before", "after")}
    lines.append(f"\nmachine: {machine['cpu']}, {machine['cores']} cores, Python {machine['python']}; load average "
                 f"(1, 5, 15 min) before {load['before']}, after {load['after']}")
    return "\n".join(lines)


def records_rows(result: dict) -> list[Row]:
    """A game record's review (one double-dummy search per card) and audit, per hand (``bench.records``)."""
    from .records import VARIANTS
    rows: list[Row] = []
    for variant in VARIANTS:
        r = result[variant]
        rows.append((f"record review per hand, {variant}, compiled search (CPU s, median of {result['hands']} "
                     "random-play hands; p95, max)", f"{r['review_s']['median']:.2f}", "-",
                     f"p95 {r['review_s']['p95']:.2f}, max {r['review_s']['max']:.2f}", "reported"))
        rows.append(("  search nodes per hand (median; p95)", f"{r['nodes']['median']:,.0f}", "-",
                     f"p95 {r['nodes']['p95']:,.0f}", "context"))
        rows.append(("  record audit per hand (CPU ms, median; p95)", f"{r['audit_s']['median'] * 1000:.1f}", "-",
                     f"p95 {r['audit_s']['p95'] * 1000:.1f}", "reported"))
    python = result["python"]
    rows.append(("record review in the Python search (a house rule's, in the service) within one request's budget: "
                 "share of the hand's cards reviewed", ", ".join(f"{s:.0%}" for s in python["share"]), "-",
                 ", ".join(f"{s:.1f} s" for s in python["seconds"]), "reported"))
    return rows


def players_rows(result: dict) -> list[Row]:
    """Player strength: duplicate matches (points per hand, A minus B, 95% interval) and self-play."""
    rows: list[Row] = []
    for key in ("sensible_vs_random", "sampled_vs_sensible"):
        m = result[key]
        p = m["points_per_hand"]
        rows.append((f"duplicate match {m['a']} vs {m['b']}, {m['variant']} ({p['n']} deals, each played twice with "
                     "the sides swapped; points per hand, A minus B, 95% interval)", f"{p['mean']:+.1f}", "0",
                     f"{p['low']:+.1f} to {p['high']:+.1f}", "interval > 0"))
    for variant, run in result["self_play"].items():
        a_name, b_name = run["players"]
        for measure, hands in (("set_rate", f"{run['hands']} deals"),
                               ("nil_success", f"{run['nil_hands']} deals with a nil bid")):
            r = run[measure]
            rows.append((f"self-play {measure.replace('_', ' ')}, {variant}: {a_name} vs {b_name} ({hands}, the same "
                         f"for both; n = {r['a']['n']}; gap and its paired 95% interval)", _rate(r["a"]),
                         _rate(r["b"]), _gap(r["gap"]), "within 5 points"))
    bid = result["bid_error"]
    rows.append((f"sensible bids minus double-dummy tricks per side, {bid['variant']} ({bid['sides']} sides): mean; "
                 "mean |error|, share within 1", f"{bid['mean_error']:+.2f}", "-",
                 f"{bid['mean_abs_error']:.2f}; {bid['within_one']:.0%}", "reported"))
    return rows


def _gap(gap: dict | None) -> str:
    return "-" if gap is None else f"{gap['points']:+.1f} points ({gap['low']:+.1f} to {gap['high']:+.1f})"


def _rate(r: dict) -> str:
    return "-" if r["rate"] is None else f"{r['rate']:.1%} ({r['low']:.1%}-{r['high']:.1%})"


def _solve_rows(raw: dict, args: argparse.Namespace) -> list[tuple[str, str, str, str, str]]:
    """The double-dummy solver against DDS (endplay) and the claim latency against /v1/score."""
    from . import solve
    if "solve" in args.skip:
        return []
    try:
        import endplay  # noqa: F401
    except ImportError:
        return [("double dummy vs DDS", "-", "endplay not installed (pip install -e '.[bench]')", "-", "-")]
    from . import solve_process
    speed, latency = solve.speed(args.solve_deals, cap=60.0), solve.claim_latency()
    deal, line = solve.same_deal(args.same_deal_deals), solve.line_cost(args.same_deal_deals)
    whole = solve_process.measure(args.process_deals)
    raw["solve"] = {"speed": speed, "claim_latency": latency, "process": whole, "same_deal": deal, "line": line}
    unfinished = f", {speed['unfinished']} at the {speed['cap_s']:g} s cap" if speed["unfinished"] else ""
    return [
        (f"full deal solve vs DDS OptimalOne (CPU s, median of {speed['deals']}{unfinished}; ratio median)",
         f"{speed['median_ours_s']:.2f}", f"{speed['median_dds_s']:.3f}", f"{speed['median_ratio']:.1f}x", "<= 10x"),
        (f"  same, ratio p95 (nearest rank; the worst deal {speed['worst_ratio']:.0f}x)", "-", "-",
         f"{speed['p95_ratio']:.0f}x", "<= 40x"),
        ("  same, the worst deal", "-", "-", f"{speed['worst_ratio']:.0f}x", "<= 100x"),
        (f"four leaders of a deal one after the other vs its leader alone (CPU s, median of {deal['deals']}; "
         "ours / DDS's own ratio)", f"{deal['median_four_s']:.3f}", f"{deal['median_dds_four_s']:.4f}",
         f"{deal['median_four_ratio']:.2f}x / {deal['median_dds_four_ratio']:.2f}x", "<= 2x"),
        ("  same vs a leader's mean alone", f"{deal['median_mean_one_s']:.3f}", "-",
         f"{deal['median_four_mean_ratio']:.2f}x / {deal['median_dds_four_mean_ratio']:.2f}x", "reported"),
        (f"a hand reviewed card by card ({deal['positions']} positions) vs its first position alone (CPU s, median; "
         f"ours / DDS analyse_play's; {deal['agree_with_dds']} of {deal['deals']} agree)",
         f"{deal['median_review_s']:.3f}", f"{deal['median_dds_review_s']:.4f}",
         f"{deal['median_review_ratio']:.2f}x / {deal['median_dds_review_ratio']:.2f}x", "<= 3x"),
        (f"full /v1/solve answer (tricks and line) vs the value alone (CPU s, median of {line['deals']})",
         f"{line['median_answer_s']:.3f}", f"{line['median_value_s']:.3f}", f"{line['median_ratio']:.2f}x", "<= 1.3x"),
        (f"  rulespec solve vs a ctypes DDS script, whole process (CPU s, median of {whole['deals']}; ratio median)",
         f"{whole['ours_cpu_median']:.2f}", f"{whole['ctypes_cpu_median']:.3f}",
         f"{whole['vs_ctypes_cpu']['median']:.0f}x", "reported"),
        ("  same vs an endplay script (its package import about 0.5 s)", "-", f"{whole['endplay_cpu_median']:.3f}",
         f"{whole['vs_endplay_cpu']['median']:.1f}x", "reported"),
        ("  process start, one-trick position: ours / ctypes / endplay (CPU s)", f"{whole['start']['ours'][1]:.2f}",
         f"{whole['start']['ctypes'][1]:.3f} / {whole['start']['endplay'][1]:.3f}", "-", "reported"),
        (f"POST /v1/claim ({latency['tricks']} tricks) vs /v1/score (ms, median)", f"{latency['claim_ms']:.1f}",
         f"{latency['score_ms']:.1f}", f"{latency['ratio']:.1f}x", "<= 3x"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="each simulation runner's time per round")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of the simulation runners")
    parser.add_argument("--hands", type=int, default=100_000, help="hands of the whole-process simulate runs")
    parser.add_argument("--process-rounds", type=int, default=3, help="rounds of the whole-process runs")
    parser.add_argument("--api-seconds", type=int, default=15, help="wrk time of each endpoint and setting")
    parser.add_argument("--skip", nargs="*", default=[],
                        choices=["simulation", "process", "replay", "api", "startup", "solve", "records", "players"])
    parser.add_argument("--solve-deals", type=int, default=100, help="full deals timed against DDS (60 s cap each)")
    parser.add_argument("--process-deals", type=int, default=20, help="full deals solved by whole processes")
    parser.add_argument("--record-hands", type=int, default=20, help="hands reviewed per variant (bench.records)")
    parser.add_argument("--same-deal-deals", type=int, default=50,
                        help="full deals of the four-leader, review and line runs")
    parser.add_argument("--match-deals", type=int, default=1000, help="deals of the sensible vs random match")
    parser.add_argument("--sampled-deals", type=int, default=60, help="deals of the sampled vs sensible match")
    parser.add_argument("--self-deals", type=int, default=200, help="deals of each self-play run (sensible, sampled)")
    parser.add_argument("--nil-deals", type=int, default=100, help="deals with a nil bid of each nil self-play run")
    parser.add_argument("--json", help="also write the raw results here")
    args = parser.parse_args()
    rows: list[Row] = []
    raw: dict = {"machine": {"cpu": _cpu(), "cores": os.cpu_count(), "python": platform.python_version(),
                             "load_before": os.getloadavg()}}

    if "simulation" not in args.skip:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})   # one core for every runner
        raw["simulation"] = simulation.measure(args.seconds, args.rounds)
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
        rows += simulation_rows(raw["simulation"])
    if "process" not in args.skip:
        raw["process"] = process.measure(args.hands, args.process_rounds)
        rows += process_rows(raw["process"])
    if "replay" not in args.skip:
        from . import replay
        raw["replay"] = replay.measure()
        rows += replay_rows(raw["replay"])
    if "api" not in args.skip:
        raw["api"] = {f"{settings}@{c}": api.measure(args.api_seconds, connections=c, settings=settings)
                      for settings in ("sync", "gthread") for c in (16, 200)}
        rows += api_rows(raw["api"])
    if "startup" not in args.skip:
        raw["startup"] = {"compile_all": startup.compile_all(), "cli_help": startup.cli_help()}
        rows += startup_rows(raw["startup"])
    rows += _solve_rows(raw, args)
    if "records" not in args.skip:
        from . import records
        raw["records"] = records.measure(args.record_hands)
        rows += records_rows(raw["records"])
    if "players" not in args.skip:
        raw["players"] = players.measure(args.match_deals, args.sampled_deals, args.self_deals, args.nil_deals)
        rows += players_rows(raw["players"])

    raw["machine"]["load_after"] = os.getloadavg()
    print(table_text(rows, raw["machine"]))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(raw, out, indent=2)


if __name__ == "__main__":
    main()
