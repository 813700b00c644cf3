"""The solver as a whole process from the shell: ``rulespec solve deal.json`` against two DDS scripts solving
the same file in DDS's one-value mode — ``bench/peer_dds.py`` through endplay (as its users write it) and
``bench/peer_dds_ctypes.py``, DDS's library called through ctypes without endplay's package import (the
peer at its fastest) — on the same full deals, in turns, the order rotated.  Wall and CPU time (user +
system, from ``wait4``) of each process; all print the tricks of each side (``rulespec solve`` also a
principal line, which DDS's one-value mode does not give), and they must agree.  Also each on a one-trick
position: what starting the process costs (our numba module loaded from its disk cache, which is warmed
first; DDS's library loaded)."""
from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
from pathlib import Path

from rulespec.model.ruleset import load_ruleset
from rulespec.solve.native import NativeUnavailable, native_module

from . import process
from .process import ROOT
from .solve import BRIDGE_SPADES, _full_deal, hands_body, nearest_rank


def _run(cmd: list[str]) -> tuple[float, float, dict]:
    """Wall and CPU seconds of one process running ``cmd`` to completion, and the tricks it printed."""
    with tempfile.TemporaryFile() as out:
        wall, cpu = process.run(cmd, out)
        out.seek(0)
        return wall, cpu, json.load(out)["tricks"]


def _file(folder: str, name: str, pos) -> str:
    path = Path(folder) / f"{name}.json"
    path.write_text(json.dumps(hands_body(BRIDGE_SPADES, pos)))
    return str(path)


def measure(deals: int = 8, seed: int = 1, size: int = 13) -> dict:
    """{'per_deal': each command's wall and CPU s per deal, 'start': each on the one-trick position, for each
    peer the 'median'/'p95' of our wall and CPU time over its, 'agree': deals where all three agree}; the
    deals are ``bench.solve.speed``'s (same seed and ``size``, cards a seat)."""
    rs = load_ruleset(BRIDGE_SPADES)
    try:
        native_module(rs)          # compiled into numba's disk cache before anything is timed
    except NativeUnavailable:
        pass
    cmds = {"ours": [str(Path(sys.executable).with_name("rulespec")), "solve"],
            "endplay": [sys.executable, str(ROOT / "bench" / "peer_dds.py")],
            "ctypes": [sys.executable, str(ROOT / "bench" / "peer_dds_ctypes.py")]}
    names = list(cmds)
    rng = random.Random(seed)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        start_file = _file(tmp, "start", _full_deal(rs, random.Random(seed), 1))
        start = {name: _run(cmd + [start_file])[:2] for name, cmd in cmds.items()}
        for i in range(deals):
            path = _file(tmp, f"deal{i}", _full_deal(rs, rng, size))
            got = {name: _run(cmds[name] + [path]) for name in names[i % 3:] + names[:i % 3]}
            rows.append({f"{name}_{kind}": got[name][k] for name in names for k, kind in enumerate(("wall", "cpu"))})
            rows[-1]["agree"] = got["ours"][2] == got["endplay"][2] == got["ctypes"][2]
    out: dict = {"deals": deals, "cards": size, "start": start, "agree": sum(row["agree"] for row in rows),
                 "per_deal": rows}
    for name in names:
        for kind in ("wall", "cpu"):
            out[f"{name}_{kind}_median"] = statistics.median(row[f"{name}_{kind}"] for row in rows)
            if name != "ours":
                ratios = sorted(row[f"ours_{kind}"] / row[f"{name}_{kind}"] for row in rows)
                out[f"vs_{name}_{kind}"] = {"median": statistics.median(ratios),
                                            "p95": nearest_rank(ratios, 0.95)}
    return out


if __name__ == "__main__":
    result = measure(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
    for row in result.pop("per_deal"):
        print("   ", {k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()})
    print(result)
