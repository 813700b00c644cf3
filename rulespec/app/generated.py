"""The code that runs for a variant, as each back end writes it from the lowered form (``rulespec show VARIANT
--generated KIND``): read it to see what a rule becomes where it is used."""
from __future__ import annotations

from collections.abc import Callable

from ..model.ruleset import Ruleset


def _steps(rs: Ruleset) -> str:
    from ..game.steps import ENTRIES
    from ..procedure.python import steps_source
    text, _ = steps_source(ENTRIES, explain=True)
    return ("# The scalar steps (the same code for every variant: each rule a call R_..., each parameter P_...);\n"
            "# NAME__x is the explained twin of NAME, whose notes make the explanation lines.\n" + text)


def _loop(rs: Ruleset) -> str:
    from ..procedure.python import loop_source
    return "# The Python card-play loop (game.fused): every rule's checked expression inlined.\n" + \
        loop_source(rs, "play_tricks")


def _native(rs: Ruleset) -> str:
    from ..fast.native_hand import source
    return source(rs)


def _array(rs: Ruleset) -> str:
    from ..fast.array_hand import ArrayModule
    return "# The array back end (numpy, the hands on each array's last axis).\n" + ArrayModule(rs).source


def _search(rs: Ruleset) -> str:
    from ..solve.search import Rules, rules_source
    return "# The double-dummy search's card play, the Python search (solve.search).\n" + \
        rules_source(rs, Rules(rs).partition)


def _native_search(rs: Ruleset) -> str:
    from ..solve.native_source import source
    return source(rs)


KINDS: dict[str, Callable[[Ruleset], str]] = {"steps": _steps, "loop": _loop, "native": _native, "array": _array,
                                              "search": _search, "native-search": _native_search}


def generated(rs: Ruleset, kind: str) -> str:
    """The code back end ``kind`` runs for ``rs`` (``KINDS``)."""
    return KINDS[kind](rs)
