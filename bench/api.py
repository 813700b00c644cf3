"""API throughput under the production server: ``POST /v1/score`` against trivial JSON endpoints on the
same gunicorn and settings (``GET /healthz``, and ``POST /_floor`` which parses the same body and answers
it back), driven by wrk on loopback.  ``SETTINGS``: the server as ``make serve`` runs it now
(gunicorn.conf.py) and as it did before (sync workers)."""
from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import urllib.request
from pathlib import Path

from service.local import gunicorn
SCORE_BODY = {"variant": "classic", "bids": {"N": "nil", "E": 3, "S": 4, "W": 3},
              "tricks": {"N": 0, "E": 4, "S": 5, "W": 4},
              "before": {"NS": {"score": 120, "bags": 8}, "EW": {"score": 200, "bags": 3}}}


def _server_cpu(port: str) -> float:
    """CPU seconds (user + system) used so far by every process of the server on ``port`` (master and
    workers: their command lines name the bind address)."""
    ticks = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmd:
                if f"127.0.0.1:{port}".encode() not in cmd.read():
                    continue
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:      # a process that ended between listing and reading
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _wrk(url: str, seconds: int, connections: int, script: str | None = None) -> dict:
    """One wrk run: req/s, p99, non-2xx answers, and the server's CPU µs per request (from ``/proc``)."""
    port = url.split(":")[2].split("/")[0]
    cpu = _server_cpu(port)
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if script:
        cmd += ["-s", script]
    out = subprocess.run(cmd + [url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    cpu_us = (_server_cpu(port) - cpu) / max(requests, 1) * 1e6
    return {"rps": rps, "p99_ms": float(p99.group(1)) * scale, "non_2xx": int(errors.group(1)) if errors else 0,
            "cpu_us": cpu_us}


def _post_script(folder: str, name: str) -> str:
    body = json.dumps(SCORE_BODY).replace("\\", "\\\\").replace('"', '\\"')
    path = Path(folder) / f"{name}.lua"
    path.write_text(f'wrk.method = "POST"\nwrk.body = "{body}"\nwrk.headers["Content-Type"] = "application/json"\n')
    return str(path)


SETTINGS = {"gthread": (), "sync": ("--worker-class", "sync", "--threads", "1")}   # after, before
# measured for issue 28 beside make serve's worker (gthread reading each request first, service/worker.py):
# gunicorn's own gthread (before issue 28) and gevent (installed by hand for the measurement)
CANDIDATES = {"plain-gthread": ("--worker-class", "gthread"),
              "gevent": ("--worker-class", "gevent", "--worker-connections", "1000")}


def measure(seconds: int = 30, connections: int = 16, workers: int | None = None, rounds: int = 5,
            settings: str = "gthread") -> dict | None:
    """{'score', 'floor' (GET /healthz), 'post_floor' (POST /_floor)}: mean req/s, the worst p99 and the
    median server CPU µs per request of the rounds; 'ratios': the median over rounds of score's req/s to
    each floor's, and 'cpu_ratios': of each floor's CPU per request to score's (the req/s ratio the server
    would show were it CPU-bound and alone on the machine); None without wrk.
    Each endpoint gets ``seconds`` in all, split into ``rounds`` that take turns (the machine's speed
    drifts), each round in a rotated order.  ``settings``: a key of ``SETTINGS`` or ``CANDIDATES``."""
    if shutil.which("wrk") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp, gunicorn(workers=workers, app="bench.floor:create_app()",
                                                           options={**SETTINGS, **CANDIDATES}[settings]) as base:
        script = _post_script(tmp, "score")
        check = urllib.request.Request(base + "/v1/score", data=json.dumps(SCORE_BODY).encode(),
                                       headers={"Content-Type": "application/json"})
        json.load(urllib.request.urlopen(check))  # the request is valid before it is measured
        targets = {"floor": ("/healthz", None), "post_floor": ("/_floor", script), "score": ("/v1/score", script)}
        runs: dict[str, list[dict]] = {name: [] for name in targets}
        share = max(1, round(seconds / rounds))
        for r in range(rounds):
            names = list(targets)
            for name in names[r % 3:] + names[:r % 3]:
                path, lua = targets[name]
                runs[name].append(_wrk(base + path, share, connections, lua))
    out: dict = {name: {"rps": sum(x["rps"] for x in got) / len(got), "p99_ms": max(x["p99_ms"] for x in got),
                        "non_2xx": sum(x["non_2xx"] for x in got),
                        "cpu_us": statistics.median(x["cpu_us"] for x in got)} for name, got in runs.items()}
    out["ratios"] = {floor: statistics.median(s["rps"] / f["rps"] for s, f in zip(runs["score"], runs[floor]))
                     for floor in ("floor", "post_floor")}
    out["cpu_ratios"] = {floor: statistics.median(f["cpu_us"] / s["cpu_us"] for s, f in zip(runs["score"], runs[floor]))
                         for floor in ("floor", "post_floor")}
    out["rounds"] = rounds
    return out
