"""What the differential tester and the conformance checker share: collecting a run's parts and
writing a report's three forms."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path


def collect(parts: Iterable[dict], acc: object, merge: Callable[[object, dict], None], progress=None,
            pool=None) -> None:
    """Merge each part of a run into ``acc`` as it arrives (counting ``progress``); close ``pool`` after."""
    try:
        for part in parts:
            merge(acc, part)
            if progress:
                progress(1)
    finally:
        if pool is not None:
            pool.close()
            pool.join()


def write_report(rep: dict, out: str | Path, markdown: Callable[[dict], str], render: Callable[[dict], str]
                 ) -> list[Path]:
    """Write report.json, report.md and report.html into ``out``."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    files = {"report.json": json.dumps(rep, indent=1, ensure_ascii=False) + "\n",
             "report.md": markdown(rep), "report.html": render(rep)}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return [folder / name for name in files]
