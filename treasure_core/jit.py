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

import contextlib
import threading
from collections.abc import Iterator
from types import CellType, FunctionType, ModuleType
from typing import Any

import numba
import numpy as np
from numba.core import sigutils, types
from numba.core.dispatcher import Dispatcher
from numba.core.registry import CPUDispatcher
from numba.cpython.unsafe.numbers import trailing_zeros


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


class NotCached(Exception):
    """Raised, under `load_only`, by a call that would have to compile its kernel."""


_load_only = threading.local()


@contextlib.contextmanager
def load_only() -> Iterator[None]:
    """Calls in this block run a kernel already compiled in this process or loaded from numba's
    cache; one that would have to compile raises NotCached instead (nothing is compiled). A
    kernel loaded from the cache carries every function it calls, so nothing below it compiles."""
    before = getattr(_load_only, "on", False)
    _load_only.on = True
    try:
        yield
    finally:
        _load_only.on = before


class OneWidthDispatcher(CPUDispatcher):
    """A CPU dispatcher that compiles (and caches) each signature at one integer width."""

    def compile(self, sig: Any) -> Any:
        args, return_type = sigutils.normalize_signature(sig)
        if return_type is None:  # an explicit signature with a return type is left as written
            sig = tuple(one_width(arg) for arg in args)
        if getattr(_load_only, "on", False):
            args, _ = sigutils.normalize_signature(sig)
            cached = self.overloads.get(tuple(args)) or self._cache.load_overload(sig, self.targetctx)
            if cached is None:
                raise NotCached(f"{self.py_func.__qualname__} is neither compiled nor in numba's cache")
        return super().compile(sig)


def njit(*args: Any, **kwargs: Any) -> Any:
    """numba.njit, with OneWidthDispatcher: the same options, used the same way, except that
    `no_cfunc_wrapper` defaults to True. numba gives every compiled function a C-callable
    wrapper as well as its Python one, used only when the function is passed as a first-class
    function value, which no kernel is; building, optimizing and emitting it for every kernel
    and helper was about a fourteenth of a game's compile (`no_cfunc_wrapper=False` restores it)."""
    if len(args) == 1 and not kwargs and callable(args[0]):
        return njit()(args[0])
    kwargs.setdefault("no_cfunc_wrapper", True)
    decorate = numba.njit(*args, **kwargs)
    return lambda function: _one_width(decorate(function))


def _one_width(dispatcher: Any) -> Any:
    if not isinstance(dispatcher, CPUDispatcher):  # NUMBA_DISABLE_JIT=1: the plain function
        return dispatcher
    dispatcher.__class__ = OneWidthDispatcher  # same layout: a subclass that only overrides compile
    return dispatcher


# -- the Python twins of kernels ------------------------------------------------------------
# A kernel's twin is its own Python function with every kernel it reaches (a global, a closure
# cell, or an attribute of a project module it imports) replaced by that kernel's twin, so that
# running it compiles nothing: numba's NUMBA_DISABLE_JIT for one call tree, in a process that
# also runs compiled kernels. The twins compute what the kernels compute (the conformance suite
# holds every game's twins to its kernels' results, bit for bit).


def _python_trailing_zeros(word: Any) -> Any:
    """numba's trailing_zeros intrinsic in Python: the zero bits below the lowest set bit, of
    the word's own type (its width for 0)."""
    value = int(word)
    width = np.dtype(type(word)).itemsize * 8 if isinstance(word, np.integer) else 64
    count = (value & -value).bit_length() - 1 if value else width
    return type(word)(count) if isinstance(word, np.integer) else count


# numba intrinsics the kernels use, which have no Python implementation of their own.
PYTHON_FALLBACKS: dict[int, Any] = {id(trailing_zeros): _python_trailing_zeros}

_twins: dict[int, FunctionType] = {}
_twin_globals: dict[int, dict[str, Any]] = {}
_twin_modules: dict[str, _ModuleTwin] = {}
_twins_lock = threading.RLock()


def python_twin(kernel: Any) -> Any:
    """The Python twin of a kernel (any numba dispatcher; anything else as it is)."""
    if not isinstance(kernel, Dispatcher):
        return kernel
    with _twins_lock:
        twin = _twins.get(id(kernel))
        if twin is None:
            function = kernel.py_func
            namespace, fill = _namespace(function.__globals__)
            cells = None
            if function.__closure__ is not None:
                cells = tuple(CellType(cell.cell_contents) for cell in function.__closure__)
            twin = FunctionType(function.__code__, namespace, function.__name__, function.__defaults__, cells)
            twin.__kwdefaults__ = function.__kwdefaults__
            twin.__qualname__ = function.__qualname__
            _twins[id(kernel)] = twin  # before its callees: kernels that call each other
            for cell in cells or ():
                cell.cell_contents = _twin_value(cell.cell_contents)
            if fill:
                _fill(namespace)
        return twin


def _namespace(namespace: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The twins' copy of a module's globals, and whether it is new (still to be filled)."""
    twin = _twin_globals.get(id(namespace))
    if twin is not None:
        return twin, False
    _twin_globals[id(namespace)] = twin = dict(namespace)
    return twin, True


def _fill(namespace: dict[str, Any]) -> None:
    for name, value in list(namespace.items()):
        replacement = _twin_value(value)
        if replacement is not value:
            namespace[name] = replacement


def _twin_value(value: Any) -> Any:
    if isinstance(value, Dispatcher):
        return python_twin(value)
    if isinstance(value, ModuleType):
        return _module_twin(value)
    fallback = PYTHON_FALLBACKS.get(id(value))
    return value if fallback is None else fallback


class _ModuleTwin:
    """A module that holds kernels as its twins see it: each attribute from the module's twin
    namespace (looked up at each use, so that one still being filled is read as it ends up)."""

    def __init__(self, module: ModuleType, namespace: dict[str, Any]) -> None:
        self.__name__ = module.__name__
        self._namespace = namespace

    def __getattr__(self, name: str) -> Any:
        try:
            return self._namespace[name]
        except KeyError:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}") from None


def _module_twin(module: ModuleType) -> Any:
    """A module that holds kernels, as the twins see it (`cenote.pay_kind(...)` in a kernel);
    any other module (numpy, numba, math) as it is."""
    if not any(isinstance(value, Dispatcher) for value in vars(module).values()):
        return module
    twin = _twin_modules.get(module.__name__)
    if twin is None:
        namespace, fill = _namespace(vars(module))
        _twin_modules[module.__name__] = twin = _ModuleTwin(module, namespace)
        if fill:
            _fill(namespace)
    return twin
