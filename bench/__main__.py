"""``python -m bench``: every performance target, measured in one run, as one table."""
from __future__ import annotations

import argparse
import json
import os
import platform

from . import api, simulation, startup


def _cpu() -> str:
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _solve_rows(raw: dict, args: argparse.Namespace) -> list[tuple[str, str, str, str, str]]:
    """The double-dummy solver against DDS (endplay) and the claim latency against /v1/score."""
    from . import solve
    if "solve" in args.skip:
        return []
    try:
        import endplay  # noqa: F401
    except ImportError:
        return [("double dummy vs DDS", "-", "endplay not installed (pip install -e '.[bench]')", "-", "-")]
    speed, latency = solve.speed(args.solve_deals, cap=60.0), solve.claim_latency()
    raw["solve"] = {"speed": speed, "claim_latency": latency}
    unfinished = f", {speed['unfinished']} at the {speed['cap_s']:g} s cap" if speed["unfinished"] else ""
    return [
        (f"full deal solve vs DDS OptimalOne (s, median of {speed['deals']}{unfinished}; ratio median)",
         f"{speed['median_ours_s']:.2f}", f"{speed['median_dds_s']:.3f}", f"{speed['median_ratio']:.0f}x", "<= 30x"),
        ("  same, ratio p95", "-", "-", f"{speed['p95_ratio']:.0f}x", "<= 60x"),
        (f"POST /v1/claim ({latency['tricks']} tricks) vs /v1/score (ms, median)", f"{latency['claim_ms']:.1f}",
         f"{latency['score_ms']:.1f}", f"{latency['ratio']:.1f}x", "<= 3x"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="budget of each simulation runner")
    parser.add_argument("--api-seconds", type=int, default=30, help="wrk time of each endpoint")
    parser.add_argument("--skip", nargs="*", default=[], choices=["simulation", "replay", "api", "startup", "solve"])
    parser.add_argument("--solve-deals", type=int, default=8, help="full deals timed against DDS (60 s cap each)")
    parser.add_argument("--json", help="also write the raw results here")
    args = parser.parse_args()
    rows: list[tuple[str, str, str, str, str]] = []
    raw: dict = {"machine": {"cpu": _cpu(), "cores": os.cpu_count(), "python": platform.python_version()}}

    if "simulation" not in args.skip:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})   # one core for every runner
        peer = simulation.openspiel(args.seconds)
        scalar = simulation.ours_scalar(budget=args.seconds)
        batch = simulation.ours_batch(budget=args.seconds)
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
        raw["simulation"] = {"openspiel": peer, "scalar": scalar, "batch": batch}
        peer_text = f"{peer:,.0f}" if peer else "not installed (pip install -e '.[bench]')"
        for name, value, target in (("scalar", scalar, 1.0), ("batch", batch, 2.0)):
            ratio = f"{value / peer:.2f}" if peer else "-"
            rows.append((f"simulation, {name} (hands/s, 1 core)", f"{value:,.0f}", peer_text, ratio,
                         f">= {target}"))

    if "replay" not in args.skip:
        from . import replay
        result = replay.measure()
        raw["replay"] = result
        rows.append((f"5 variants on shared deals vs 5 runs (CPU s, {result['rounds']} rounds; median ratio)",
                     f"{result['shared']:.2f}", f"{result['separate']:.2f}", f"{result['overhead']:+.1%} overhead",
                     "<= +10%"))
        rows.append((f"diff --jobs 2 vs --jobs 1 (wall s, {result['jobs_rounds']} rounds; median ratio)",
                     f"{result['jobs2']:.2f}", f"{result['jobs1']:.2f}", f"{result['speedup']:.2f}x", ">= 1.8x"))
        rows.append(("  CPU time of --jobs 2 / --jobs 1 (work the split adds)", "-", "-",
                     f"{result['cpu_inflation']:.2f}", "context"))
        rows.append(("  this machine: 2 CPU-bound processes vs 1 (ceiling)", "-", "-",
                     f"{result['parallel_ceiling']:.2f}x", "context"))

    if "api" not in args.skip:
        result = api.measure(args.api_seconds)
        raw["api"] = result
        if result is None:
            rows.append(("API /v1/score (req/s)", "-", "wrk not installed (apt-get install wrk)", "-", ">= 0.70"))
        else:
            s, f, pf, ratio = result["score"], result["floor"], result["post_floor"], result["ratios"]
            rounds = f"req/s, {result['rounds']} rounds; median ratio"
            rows.append((f"API POST /v1/score vs GET /healthz ({rounds})", f"{s['rps']:,.0f}", f"{f['rps']:,.0f}",
                         f"{ratio['floor']:.2f}", ">= 0.70"))
            rows.append((f"API POST /v1/score vs POST echo ({rounds})", f"{s['rps']:,.0f}", f"{pf['rps']:,.0f}",
                         f"{ratio['post_floor']:.2f}", ">= 0.70"))
            rows.append(("API p99 latency (ms): score / echo", f"{s['p99_ms']:.1f}", f"{pf['p99_ms']:.1f}", "-",
                         "reported"))

    rows += _solve_rows(raw, args)

    if "startup" not in args.skip:
        compile_s, help_s = startup.compile_all(), startup.cli_help()
        raw["startup"] = {"compile_all": compile_s, "cli_help": help_s}
        rows.append(("load + compile every bundled variant (ms)", f"{compile_s * 1000:.0f}", "200", "-", "< 200"))
        rows.append(("rulespec --help (ms, whole process)", f"{help_s * 1000:.0f}", "300", "-", "< 300"))

    header = ("measure", "ours", "peer / floor", "ratio", "target")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(5)]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print(" | ".join(str(cell).ljust(w) for cell, w in zip(row, widths)))
    print(f"\nmachine: {raw['machine']['cpu']}, {raw['machine']['cores']} cores, Python {raw['machine']['python']}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(raw, out, indent=2)


if __name__ == "__main__":
    main()
