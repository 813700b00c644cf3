"""The Python loop's passes (``procedure.loop_passes``) on small functions: each rewrite made where it applies,
left alone where it would change what the function computes, and the function's results the same on many
inputs (the whole-hand loops they rewrite are compared with the other back ends in test_fused and
test_every_slot)."""
from __future__ import annotations

import ast
import random
import textwrap

import pytest

from rulespec.procedure import loop_passes as P


def _function(text: str) -> ast.FunctionDef:
    (node,) = ast.parse(textwrap.dedent(text)).body
    assert isinstance(node, ast.FunctionDef)
    return node


def _run(node: ast.FunctionDef, *args):
    env: dict = {}
    exec(compile(ast.fix_missing_locations(ast.Module([node], [])), "<test>", "exec"), env)  # noqa: S102
    return env[node.name](*args)


def _same_results(text: str, rewrite, inputs) -> str:
    """The rewritten function's text, once its results (and their types) matched the original's on ``inputs``."""
    before, after = _function(text), rewrite(_function(text))
    for args in inputs:
        want, got = _run(before, *args), _run(after, *args)
        assert got == want and type(got) is type(want), (args, want, got)
    return ast.unparse(after)


def _ints(count: int, seed: int = 1) -> list[tuple]:
    rng = random.Random(seed)
    return [tuple(rng.randrange(-3, 5) for _ in range(4)) for _ in range(count)]


PEEL = """
def f(a, b, c, d):
    xs = [a, b, c, d]
    total = 0
    out = []
    for i in range(1, 5):
        first = i == 1
        if first:
            total = total + xs[i - 1] * 10
        else:
            total = total + xs[i - 1]
        out.append(total if first else -total)
    return total, out, i
"""


def test_the_first_iteration_is_peeled_where_the_body_tests_for_it():
    text = _same_results(PEEL, P.peeled, _ints(200))
    assert "first" not in text          # the test worked out in each copy (and the flag, read nowhere, not kept)
    assert "range(2, 5)" in text and "if True:" in text and "if False:" in text    # (folded takes them)


@pytest.mark.parametrize("change", [
    ("        out.append(total if first else -total)\n",
     "        out.append(total if first else -total)\n        first = False\n"),       # the flag stored again
    ("        out.append(total if first else -total)\n",
     "        out.append(total if first else -total)\n        if total > 20:\n            break\n"),   # a break
    ("        first = i == 1\n", "        first = i == 2\n"),                     # not the first value
    ("        out.append(total if first else -total)\n",
     "        out.append(total if first else -total)\n        i = i + 0\n"),         # the loop's variable stored
])
def test_a_loop_whose_first_iteration_cannot_be_told_apart_is_left_alone(change):
    text = PEEL.replace(*change)
    assert text != PEEL
    assert _same_results(text, P.peeled, _ints(50)) == ast.unparse(_function(text))


UNROLL = """
def f(a, b, c, d):
    trick = [a, b, c, d]
    place = -1
    for p in (3, 2, 1, 0):
        if trick[p] == 2:
            place = p
    return place, p
"""


def test_a_short_loop_over_constants_is_written_out():
    text = _same_results(UNROLL, P.unrolled, _ints(200))
    assert "for " not in text and "trick[3] == 2" in text and text.rstrip().endswith("return (place, p)")


@pytest.mark.parametrize("change", [
    ("for p in (3, 2, 1, 0):", "for p in range(7):"),                                     # too many
    ("            place = p\n", "            place = p\n            break\n"),            # a break
    ("for p in (3, 2, 1, 0):", "for p in range(a % 2, 3):"),                              # not constants
])
def test_a_loop_that_cannot_be_written_out_is_left_alone(change):
    text = UNROLL.replace(*change).replace("trick[p]", "trick[p % 4]")
    assert _same_results(text, P.unrolled, _ints(50)) == ast.unparse(_function(text))


FOLD = """
def f(a, b, c, d):
    broken = False
    if a > 2:
        broken = b == 1
    broken = broken or (c == 3 and (not False or d == 0))
    kept = a or False
    gone = (c == 3 and False) and d != 3
    shifted = (1 << 3) - 1 + (2 - 1) * d
    if False:
        shifted = 0
    return broken, kept, gone, shifted, True and d == 1, (b == 1) or False
"""


def test_constants_are_folded_and_branches_that_cannot_run_dropped():
    text = _same_results(FOLD, P.folded, _ints(300))
    assert "broken = broken or c == 3" in text          # not False -> True, then 'X and True' -> X
    assert "gone = False" in text                       # 'X and False' with X a truth value -> False
    assert "shifted = 7 + 1 * d" in text and "if False" not in text
    assert "return (broken, kept, gone, shifted, d == 1, b == 1)" in text


def test_a_value_that_may_not_be_a_truth_value_keeps_its_or():
    """``a or False`` is ``False``, not ``0``, where ``a`` is 0: only a truth value loses its last constant."""
    assert "kept = a or False" in _same_results(FOLD, P.folded, [(0, 0, 0, 0)])
    assert _run(P.folded(_function(FOLD)), 0, 0, 0, 0)[1] is False


COPIES = """
def f(a, b, c, d):
    led = a
    spare = led
    x = led + b
    led = spare
    t = b * 2
    y = c
    out = t
    t = 0
    z = d
    z = d + 1
    w = len([d])
    w = 3
    led = led
    return led, x, out, t, y, z, w
"""


def test_copies_made_once_and_values_overwritten_unread_not_stored():
    text = _same_results(COPIES, lambda node: P.overwritten(P.copies(node)), _ints(100))
    assert "led = spare" not in text            # the copy back of an unchanged copy
    assert "out = b * 2" in text and "t = out" not in text      # the value moved to where it is wanted
    assert "z = d\n" not in text + "\n"         # overwritten unread
    assert "w = len([d])" in text               # (a call is kept: it may do something)
    assert "led = led" not in text


def test_a_copy_whose_variable_is_read_in_between_is_not_moved():
    text = COPIES.replace("    y = c\n", "    y = t + c\n")
    assert "out = t" in _same_results(text, P.copies, _ints(50))


def test_a_peeled_flag_keeps_a_store_that_calls_something():
    """Only the copies' constants of a flag read nowhere any more are dropped: its other stores may call."""
    text = _same_results(PEEL.replace("    total = 0\n", "    total = 0\n    first = len(xs) > 9\n"), P.peeled,
                         _ints(20))
    assert "first = len(xs) > 9" in text and "first = True" not in text
