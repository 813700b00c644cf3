"""Rule arguments built by name.

A compiled rule takes its context's values positionally, in the order of
``schema.CONTEXTS`` (the compiler names them ``a0, a1, …``).  Callers never
build that tuple by hand: ``ARGS[context]`` is a function with one keyword-only
parameter per context name (dots become underscores: ``trick.led_suit`` is
``trick_led_suit``) that returns the tuple in schema order, so a missing or
misspelt value fails at once and adding a context name changes ``schema.py``
and the one place that computes the value.  ``pick`` does the same from a
mapping that may hold more facts than the context needs (scoring builds one
mapping of team facts for three contexts).  The values may be plain ints or
numpy arrays alike.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import itemgetter

from .schema import CONTEXTS


def param_name(name: str) -> str:
    """The keyword under which a context name is passed (``team.score`` -> ``team_score``)."""
    return name.replace(".", "_")


def _builder(context: str) -> Callable[..., tuple]:
    params = [param_name(name) for name in CONTEXTS[context]]
    source = (f"def {context}_args(*, {', '.join(params)}):\n"
              f"    return ({', '.join(params)},)\n")
    env: dict = {"__builtins__": {}}
    exec(compile(source, f"<context {context}>", "exec"), env)  # noqa: S102 - generated from the schema only
    return env[f"{context}_args"]


# one builder per context that has names ('param' rules take no arguments)
ARGS: dict[str, Callable[..., tuple]] = {context: _builder(context) for context, names in CONTEXTS.items() if names}
KEYS: dict[str, tuple[str, ...]] = {context: tuple(param_name(n) for n in names) for context, names in CONTEXTS.items()}


def _getter(keys: tuple[str, ...]) -> Callable[[Mapping[str, object]], tuple]:
    """``facts`` -> the tuple of ``facts[key]`` for ``keys`` (``itemgetter`` gives a tuple from two keys on)."""
    if len(keys) >= 2:
        return itemgetter(*keys)
    return lambda facts: tuple(facts[key] for key in keys)


_PICK = {context: _getter(keys) for context, keys in KEYS.items()}


def pick(context: str, facts: Mapping[str, object]) -> tuple:
    """The arguments of ``context`` taken by name from ``facts`` (keyed like ``ARGS``' parameters)."""
    return _PICK[context](facts)
