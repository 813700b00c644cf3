"""API throughput under the production server: ``/v1/score`` against a trivial JSON endpoint
(``/healthz``) on the same gunicorn and settings, driven by wrk on loopback."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import urllib.request
from pathlib import Path

from service.local import gunicorn
SCORE_BODY = {"variant": "classic", "bids": {"N": "nil", "E": 3, "S": 4, "W": 3},
              "tricks": {"N": 0, "E": 4, "S": 5, "W": 4},
              "before": {"NS": {"score": 120, "bags": 8}, "EW": {"score": 200, "bags": 3}}}


def _wrk(url: str, seconds: int, connections: int, script: str | None = None) -> dict:
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if script:
        cmd += ["-s", script]
    out = subprocess.run(cmd + [url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "p99_ms": float(p99.group(1)) * scale, "non_2xx": int(errors.group(1)) if errors else 0}


def measure(seconds: int = 10, connections: int = 16, workers: int = 2) -> dict | None:
    """{'score': {...}, 'floor': {...}} or None when wrk is not installed."""
    if shutil.which("wrk") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp, gunicorn(workers=workers) as base:
        script = Path(tmp) / "score.lua"
        body = json.dumps(SCORE_BODY).replace("\\", "\\\\").replace('"', '\\"')
        script.write_text(f'wrk.method = "POST"\nwrk.body = "{body}"\n'
                          f'wrk.headers["Content-Type"] = "application/json"\n')
        check = urllib.request.Request(base + "/v1/score", data=json.dumps(SCORE_BODY).encode(),
                                       headers={"Content-Type": "application/json"})
        json.load(urllib.request.urlopen(check))  # the request is valid before it is measured
        floor = _wrk(base + "/healthz", seconds, connections)
        score = _wrk(base + "/v1/score", seconds, connections, str(script))
    return {"score": score, "floor": floor}
