"""`njit` that compiles a kernel once, for one integer width, whatever its callers pass.

numba compiles a jitted function once per distinct tuple of argument types, and a call from
another jitted function passes its argument types as the caller has them: a field read from the
int32 state is an int32, a loop index an int64, and a constant a literal (`Literal[int](16)`),
each a type of its own. So `space_has(state, pos, TRAP)` and `space_has(state, pos, WATER)` were
two compilations of `space_has` (and two copies linked into every caller); a game's kernels had
up to twelve signatures each (benchmarks/compile_profile.py lists them).

This `njit` is numba's, with one change: a signature to compile has its signed integer scalars
(and integer literals) widened to int64 and its boolean literals made plain booleans. numba's call
typing then picks that one overload for every caller, converting the arguments at the call (a
safe promotion), and a Python call with an int32 converts likewise. Arrays keep their types: an
int8 mask and an int32 state are different code. Widening changes no result: every kernel's
integers fit int32, and the callee computes in int64 as it would with an int64 argument.
"""

from __future__ import annotations

from typing import Any

import numba
from numba.core import sigutils, types
from numba.core.registry import CPUDispatcher


def one_width(arg: types.Type) -> types.Type:
    """The argument type a kernel is compiled for: int64 for a signed integer scalar or
    literal, a plain boolean for a boolean literal, anything else unchanged (an unsigned
    integer keeps its width: the generators' uint64 words and their wrap-around)."""
    plain = types.unliteral(arg)
    if isinstance(plain, types.Integer) and plain.signed:
        return types.int64
    if isinstance(plain, types.Boolean):
        return types.boolean
    return arg


class OneWidthDispatcher(CPUDispatcher):
    """A CPU dispatcher that compiles (and caches) each signature at one integer width."""

    def compile(self, sig: Any) -> Any:
        args, return_type = sigutils.normalize_signature(sig)
        if return_type is None:  # an explicit signature with a return type is left as written
            sig = tuple(one_width(arg) for arg in args)
        return super().compile(sig)


def njit(*args: Any, **kwargs: Any) -> Any:
    """numba.njit, with OneWidthDispatcher: the same options, used the same way."""
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _one_width(numba.njit(args[0]))
    decorate = numba.njit(*args, **kwargs)
    return lambda function: _one_width(decorate(function))


def _one_width(dispatcher: Any) -> Any:
    dispatcher.__class__ = OneWidthDispatcher  # same layout: a subclass that only overrides compile
    return dispatcher
