"""What the differential tester and the conformance checker share: running work items on a Dask
cluster, collecting a run's parts and writing a report's three forms."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
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


def on_cluster(work: Callable, items: list, cfg: object, scheduler: str, timeout: float,
               error: type[Exception]) -> Iterator[dict]:
    """``work(item, cfg=cfg)`` for each item on the Dask cluster at ``scheduler``, results in item order;
    a missing Dask or an unreachable scheduler raises ``error`` saying so."""
    try:
        from distributed import Client
    except ImportError:
        raise error("--scheduler needs Dask's distributed scheduler: pip install -e '.[dask]'") from None
    try:
        client = Client(scheduler, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise error(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    try:
        for future in client.map(work, items, cfg=cfg, pure=False):
            yield future.result()
    finally:
        client.close()
