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
from numba.core.caching import NullCache
from numba.core.compiler_lock import global_compiler_lock
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


_python_call = threading.local()  # .dispatcher: the one a call from Python is compiling for


def has_python_wrapper(cres: Any) -> bool:
    """Whether a compiled overload has its CPython wrapper (what a call from Python runs)."""
    return bool(cres.library.get_pointer_to_function(cres.fndesc.llvm_cpython_wrapper_name))


class OneWidthDispatcher(CPUDispatcher):
    """A CPU dispatcher that compiles (and caches) each signature at one integer width and,
    with `no_cpython_wrapper` (our njit's default), builds a signature's CPython wrapper only
    when Python calls it: numba's would call a null pointer."""

    @property
    def lazy_wrapper(self) -> bool:
        """Whether this compile leaves out the CPython wrapper (True but while compiling one)."""
        return bool(self.targetoptions.get("no_cpython_wrapper"))

    def _compile_for_args(self, *args: Any, **kws: Any) -> Any:
        # numba's path for a call from Python that matches no wrapped overload.
        _python_call.dispatcher = self
        try:
            return super()._compile_for_args(*args, **kws)
        finally:
            _python_call.dispatcher = None

    def compile(self, sig: Any) -> Any:
        args, return_type = sigutils.normalize_signature(sig)
        if return_type is None:  # an explicit signature with a return type is left as written
            sig = tuple(one_width(arg) for arg in args)
        from_python = getattr(_python_call, "dispatcher", None) is self
        _python_call.dispatcher = None  # the callees it compiles are called from compiled code
        key = tuple(sigutils.normalize_signature(sig)[0])
        if getattr(_load_only, "on", False):
            # Python calls only a compile with its wrapper (one for a compiled caller would have
            # to compile again).
            wrapped = from_python and self.lazy_wrapper
            cached = self.overloads.get(key)
            if cached is None or (wrapped and not has_python_wrapper(cached)):
                cached = self._cache.load_overload(sig, self.targetctx)
            if cached is None or (wrapped and not has_python_wrapper(cached)):
                raise NotCached(f"{self.py_func.__qualname__} is neither compiled nor in numba's cache")
        if not (from_python and self.lazy_wrapper):
            return super().compile(sig)
        with global_compiler_lock:
            existing = self.overloads.get(key)
            if existing is not None and not has_python_wrapper(existing):
                del self.overloads[key]  # compiled for a compiled caller: compile it again, wrapped
            self.targetoptions["no_cpython_wrapper"] = False
            try:
                entry = super().compile(sig)
                if not has_python_wrapper(self.overloads[key]):  # the cache's was for a caller
                    del self.overloads[key]
                    cache, self._cache = self._cache, NullCache()
                    try:
                        entry = super().compile(sig)
                    finally:
                        self._cache = cache
                    self._cache.save_overload(sig, self.overloads[key])
                return entry
            finally:
                self.targetoptions["no_cpython_wrapper"] = True

    def add_overload(self, cres: Any) -> None:
        """An overload without its CPython wrapper serves compiled callers only: it stays out of
        the table that calls from Python look up (they would call a null pointer)."""
        if not has_python_wrapper(cres):  # by the overload itself: a cached one may lack it
            self.overloads[tuple(cres.signature.args)] = cres
            return
        super().add_overload(cres)


def njit(*args: Any, **kwargs: Any) -> Any:
    """numba.njit, with OneWidthDispatcher: the same options, used the same way, except for
    the two wrappers numba builds around every compiled function, each optimised and emitted
    with it. The C-callable one serves only a function passed as a first-class value, which no
    kernel is: `no_cfunc_wrapper` defaults to True (it was about a fourteenth of a game's
    compile). The CPython one serves only calls from Python, and most functions are helpers
    that only compiled code calls: `no_cpython_wrapper` defaults to True too, and
    OneWidthDispatcher then compiles a signature without it for a compiled caller, and with it
    (again, if it was compiled for a caller first) when Python calls it
    (`no_cpython_wrapper=False` builds it always)."""
    if len(args) == 1 and not kwargs and callable(args[0]):
        return njit()(args[0])
    kwargs.setdefault("no_cfunc_wrapper", True)
    # Signatures given compile eagerly, before OneWidthDispatcher could add the wrappers later.
    kwargs.setdefault("no_cpython_wrapper", not args)
    decorate = numba.njit(*args, **kwargs)
    return lambda function: _one_width(decorate(function))


def _one_width(dispatcher: Any) -> Any:
    if not isinstance(dispatcher, CPUDispatcher):  # NUMBA_DISABLE_JIT=1: the plain function
        return dispatcher
    dispatcher.__class__ = OneWidthDispatcher  # same layout: a subclass that only overrides methods
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
