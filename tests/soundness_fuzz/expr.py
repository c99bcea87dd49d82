"""A small expression tree: its text in the claim format's SymPy syntax, and an evaluator.

The evaluator is the fuzzer's own, independent of dpderive's engine: mpmath at a precision the
caller chooses (:func:`value`), and SymPy on exact rational points (:func:`exact`) where a tie
must be shown to be exact.  Nothing here imports ``symbolic`` or ``numeric_checks``.

The text is fully determined by the tree (no SymPy printing): a claim file says exactly what
the recipe built, ``exp(log(3))`` stays ``exp(log(3))`` and SymPy's auto-evaluation, if any,
is the tool's business.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy as sp

__all__ = ["Rel", "X"]

_ATOM, _POW, _NEG, _MUL, _ADD = 5, 4, 3, 2, 1


class TooCostly(Exception):
    """An evaluation the oracle will not attempt (a sum of too many terms)."""


SYMPY_SECONDS = 10.0
"""Wall-time bound on one SymPy simplification of the oracle (a tie it cannot show in this
time is "unsure", and the claim is dropped): ``simplify`` can run for minutes."""


@contextlib.contextmanager
def limited(seconds: float = SYMPY_SECONDS) -> Iterator[None]:
    """Raise :class:`TooCostly` in the block after ``seconds`` (main thread, POSIX; never
    while another timer runs, such as dpderive's own, which only runs inside the tool)."""
    usable = (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getitimer(signal.ITIMER_REAL)[0] == 0
    )
    if not usable:
        yield
        return

    def _raise(signum: int, frame: object) -> None:
        raise TooCostly("the oracle's SymPy took too long")

    previous = signal.signal(signal.SIGALRM, _raise)
    # Repeating: a tick that lands in a callback whose exceptions Python ignores (a garbage
    # collector hook) is followed by another.
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.25)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class X:
    """A node: ``op`` is ``var``, ``num``, ``const`` (pi, E, oo), ``add``, ``sub``, ``mul``,
    ``div``, ``neg``, ``pow``, ``call`` (a function ``name``), ``sum``, ``prod``,
    ``integral`` (``name`` the bound variable; args body, lower, upper) or ``piecewise``
    (args alternate value and condition; the last condition is ``X('true')``)."""

    op: str
    args: tuple[X | Rel, ...] = ()
    name: str = ""
    num: Fraction | None = None

    # -- building ---------------------------------------------------------------------
    def __add__(self, other: X | int) -> X:
        return add(self, lift(other))

    def __radd__(self, other: int) -> X:
        return add(lift(other), self)

    def __sub__(self, other: X | int) -> X:
        return X("sub", (self, lift(other)))

    def __rsub__(self, other: int) -> X:
        return X("sub", (lift(other), self))

    def __mul__(self, other: X | int) -> X:
        return mul(self, lift(other))

    def __rmul__(self, other: int) -> X:
        return mul(lift(other), self)

    def __truediv__(self, other: X | int) -> X:
        return X("div", (self, lift(other)))

    def __rtruediv__(self, other: int) -> X:
        return X("div", (lift(other), self))

    def __neg__(self) -> X:
        return X("neg", (self,))

    def __pow__(self, other: X | int) -> X:
        return X("pow", (self, lift(other)))

    def __rpow__(self, other: int) -> X:
        return X("pow", (lift(other), self))

    # -- reading ----------------------------------------------------------------------
    @property
    def text(self) -> str:
        return _text(self)[0]

    def __str__(self) -> str:
        return self.text

    def free(self) -> set[str]:
        """The free variable names (bound indices of sums and integrals excluded)."""
        if self.op == "var":
            return {self.name}
        out: set[str] = {self.name} if self.op == "index" else set()
        for a in self.args:
            out |= a.free()
        if self.op in ("sum", "prod", "integral"):
            out.discard(self.name)
            for a in self.args[1:]:
                out |= a.free()
        return out

    def calls(self) -> set[str]:
        """Every function or operator used (for coverage counts)."""
        if self.op == "alias":
            return self.args[0].calls()
        here = {self.name} if self.op == "call" else {self.op}
        for a in self.args:
            here |= a.calls()
        return here

    def subst(self, table: Mapping[str, X]) -> X:
        """Free variables replaced (bound indices untouched)."""
        if self.op == "var":
            return table.get(self.name, self)
        if self.op in ("sum", "prod", "integral"):
            inner = {k: v for k, v in table.items() if k != self.name}
            body = self.args[0]
            assert isinstance(body, X)
            rest = tuple(a.subst(table) for a in self.args[1:])
            return X(self.op, (body.subst(inner), *rest), self.name)
        return X(self.op, tuple(a.subst(table) for a in self.args), self.name, self.num)

    def size(self) -> int:
        return 1 + sum(a.size() for a in self.args)


@dataclass(frozen=True)
class Rel:
    """A relation ``lhs op rhs``, op one of ``< <= > >= ==``; in a Piecewise, a condition."""

    lhs: X
    op: str
    rhs: X

    @property
    def text(self) -> str:
        return f"{self.lhs.text} {self.op} {self.rhs.text}"

    @property
    def args(self) -> tuple[X, X]:
        return (self.lhs, self.rhs)

    def free(self) -> set[str]:
        return self.lhs.free() | self.rhs.free()

    def calls(self) -> set[str]:
        return self.lhs.calls() | self.rhs.calls()

    def subst(self, table: Mapping[str, X]) -> Rel:
        return Rel(self.lhs.subst(table), self.op, self.rhs.subst(table))

    def size(self) -> int:
        return 1 + self.lhs.size() + self.rhs.size()

    def holds(self, env: Mapping[str, object], dps: int = 60) -> bool | None:
        """Whether it holds at ``env`` (mpmath at ``dps`` digits; None when too close)."""
        d = diff_sign(self.lhs, self.rhs, env, dps)
        if d is None:
            return None
        return {
            "<": d < 0,
            "<=": d <= 0,
            ">": d > 0,
            ">=": d >= 0,
            "==": d == 0,
            "=": d == 0,
        }[self.op]


def lift(v: X | int | Fraction) -> X:
    if isinstance(v, X):
        return v
    return num(v)


def var(name: str) -> X:
    return X("var", name=name)


def num(p: int | Fraction, q: int = 1) -> X:
    return X("num", num=Fraction(p) / q)


def const(name: str) -> X:
    assert name in ("pi", "E", "oo")
    return X("const", name=name)


PI, EULER, OO = const("pi"), const("E"), const("oo")
ONE, ZERO, TWO = num(1), num(0), num(2)


def add(*terms: X) -> X:
    flat: list[X | Rel] = []
    for t in terms:
        flat += t.args if t.op == "add" else (t,)
    return X("add", tuple(flat))


def mul(*factors: X) -> X:
    flat: list[X | Rel] = []
    for t in factors:
        flat += t.args if t.op == "mul" else (t,)
    return X("mul", tuple(flat))


def call(name: str, *args: X | int) -> X:
    return X("call", tuple(lift(a) for a in args), name)


def summation(body: X, index: str, lo: X, hi: X, op: str = "sum") -> X:
    return X(op, (body, lo, hi), index)


def integral(body: X, t: str, lo: X, hi: X) -> X:
    return X("integral", (body, lo, hi), t)


def piecewise(*pieces: tuple[X, Rel | None]) -> X:
    args: list[X | Rel] = []
    for value, cond in pieces:
        args += [value, cond if cond is not None else X("true")]
    return X("piecewise", tuple(args))


def alias(shown: X, value: X) -> X:
    """``shown`` as the claim file writes it, evaluated by the oracle as ``value``: a sum or
    an integral and its closed form (a table test checks each pair numerically), so that
    the oracle does not integrate at every sanity point."""
    return X("alias", (shown, value))


def index(family: str, i: X) -> X:
    """``p[i]``: an element of a family (the witness names it ``p[3]``)."""
    return X("index", (i,), family)


def fn(name: str) -> Callable[..., X]:
    def make(*args: X) -> X:
        return call(name, *args)

    return make


exp, log, sqrt, Abs, floor, ceiling = (
    fn(n) for n in ("exp", "log", "sqrt", "Abs", "floor", "ceiling")
)
Max, Min, binomial, factorial = fn("Max"), fn("Min"), fn("binomial"), fn("factorial")
sinh, cosh, tanh, erf, erfc = (fn(n) for n in ("sinh", "cosh", "tanh", "erf", "erfc"))
Phi, PhiInv, gamma, expm1, log1p = (fn(n) for n in ("Phi", "PhiInv", "gamma", "expm1", "log1p"))
loggamma, beta, lambertw = fn("loggamma"), fn("beta"), fn("lambertw")


# -- text --------------------------------------------------------------------------------
def _wrap(child: X | Rel, need: int) -> str:
    if isinstance(child, Rel):
        return child.text
    text, prec = _text(child)
    return f"({text})" if prec < need else text


def _num_text(q: Fraction) -> tuple[str, int]:
    if q.denominator == 1:
        return (str(q.numerator), _ATOM) if q >= 0 else (str(q.numerator), _NEG)
    text = f"{q.numerator}/{q.denominator}"
    return text, (_MUL if q >= 0 else _NEG)


def _text(x: X) -> tuple[str, int]:
    op, a = x.op, x.args
    if op == "var":
        return x.name, _ATOM
    if op == "num":
        assert x.num is not None
        return _num_text(x.num)
    if op == "const":
        return x.name, _ATOM
    if op == "true":
        return "True", _ATOM
    if op == "index":
        return f"{x.name}[{_wrap(x.args[0], _ADD)}]", _ATOM
    if op == "alias":
        return _text(x.args[0])  # type: ignore[arg-type]
    if op == "add":
        parts = [_wrap(a[0], _ADD)]
        for t in a[1:]:
            parts.append("+ " + _wrap(t, _MUL))
        return " ".join(parts), _ADD
    if op == "sub":
        return f"{_wrap(a[0], _ADD)} - {_wrap(a[1], _MUL)}", _ADD
    if op == "mul":
        return "*".join(_wrap(t, _NEG if i == 0 else _POW) for i, t in enumerate(a)), _MUL
    if op == "div":
        return f"{_wrap(a[0], _MUL)}/{_wrap(a[1], _POW)}", _MUL
    if op == "neg":
        return f"-{_wrap(a[0], _MUL + 1)}", _NEG
    if op == "pow":
        return f"{_wrap(a[0], _ATOM)}**{_wrap(a[1], _ATOM)}", _POW
    if op == "call":
        return f"{x.name}({', '.join(_wrap(t, _ADD) for t in a)})", _ATOM
    if op in ("sum", "prod", "integral"):
        word = {"sum": "Sum", "prod": "Product", "integral": "Integral"}[op]
        body, lo, hi = (_wrap(t, _ADD) for t in a)
        return f"{word}({body}, ({x.name}, {lo}, {hi}))", _ATOM
    if op == "piecewise":
        pieces = [f"({_wrap(a[i], _ADD)}, {_wrap(a[i + 1], _ADD)})" for i in range(0, len(a), 2)]
        return f"Piecewise({', '.join(pieces)})", _ATOM
    raise ValueError(f"unknown node {op}")


# -- mpmath evaluation -----------------------------------------------------------------
MAX_TERMS = 20_000


def _phi(v: mpmath.mpf) -> mpmath.mpf:
    return mpmath.erfc(-v / mpmath.sqrt(2)) / 2


def _phi_inv(p: mpmath.mpf) -> mpmath.mpf:
    if not 0 < p < 1:
        raise ValueError("PhiInv outside (0, 1)")
    # Newton on Phi from erfinv's start: erfinv alone loses digits near 0 and 1.
    x = mpmath.sqrt(2) * mpmath.erfinv(2 * p - 1) if 1e-10 < p < 1 - 1e-10 else mpmath.mpf(0)
    for _ in range(200):
        step = (_phi(x) - p) / (mpmath.exp(-(x**2) / 2) / mpmath.sqrt(2 * mpmath.pi))
        x -= step
        if abs(step) < mpmath.mpf(10) ** (-mpmath.mp.dps - 5) * (1 + abs(x)):
            break
    return x


def _binomial(n: mpmath.mpf, k: mpmath.mpf) -> mpmath.mpf:
    if n == int(n) and k == int(k):
        ni, ki = int(n), int(k)
        if ni >= 0 and (ki < 0 or ki > ni):
            return mpmath.mpf(0)
    return mpmath.binomial(n, k)


_FUNCS: dict[str, Callable[..., mpmath.mpf]] = {
    "exp": mpmath.exp,
    "log": mpmath.log,
    "sqrt": mpmath.sqrt,
    "Abs": abs,
    "Max": max,
    "Min": min,
    "floor": mpmath.floor,
    "ceiling": mpmath.ceil,
    "binomial": _binomial,
    "factorial": mpmath.factorial,
    "sinh": mpmath.sinh,
    "cosh": mpmath.cosh,
    "tanh": mpmath.tanh,
    "erf": mpmath.erf,
    "erfc": mpmath.erfc,
    "Phi": _phi,
    "PhiInv": _phi_inv,
    "gamma": mpmath.gamma,
    "loggamma": mpmath.loggamma,
    "expm1": mpmath.expm1,
    "log1p": mpmath.log1p,
    "beta": mpmath.beta,
    "lambertw": lambda v: _real(mpmath.lambertw(v)),
}


def _real(v: mpmath.mpc | mpmath.mpf) -> mpmath.mpf:
    if isinstance(v, mpmath.mpc):
        if v.imag != 0:
            raise ValueError("complex value")
        return v.real
    return v


_NEEDS_POSITIVE = {"log", "loggamma"}
_HUGE_ARG = dict.fromkeys(
    (
        "gamma",
        "loggamma",
        "beta",
        "factorial",
        "binomial",
        "tanh",
        "erf",
        "erfc",
        "Phi",
        "sinh",
        "cosh",
    ),
    mpmath.mpf(2) ** (10**6),
)
"""Arguments past which the oracle declines: ``gamma(exp(x**2/2))`` at x = 1e30 reaches
GMP, which aborts the process; ``tanh`` of ``exp(1e60)`` shifts by 1e60 bits."""


def value(x: X | Rel, env: Mapping[str, object], dps: int = 60) -> mpmath.mpf:
    """``x`` at ``env`` (names -> numbers) with mpmath at ``dps`` digits; raises
    ``ValueError`` where it is undefined in the reals."""
    with mpmath.workdps(dps):
        menv = {k: mpmath.mpf(_as_mpf_arg(v)) for k, v in env.items()}
        out = _ev(x, menv)
        if isinstance(out, mpmath.mpc):
            raise ValueError("complex value")
        return +out


def _as_mpf_arg(v: object) -> object:
    if isinstance(v, Fraction):
        return mpmath.mpf(v.numerator) / v.denominator
    if isinstance(v, sp.Rational):
        return mpmath.mpf(int(v.p)) / int(v.q)
    if isinstance(v, sp.Basic):  # an exact end such as log(3): SymPy's digits, a few more
        return mpmath.mpf(str(sp.N(v, mpmath.mp.dps + 20)))
    return v


def _ev(x: X | Rel, env: Mapping[str, mpmath.mpf]) -> mpmath.mpf:
    assert isinstance(x, X)
    op, a = x.op, x.args
    if op == "var":
        return env[x.name]
    if op == "num":
        assert x.num is not None
        return mpmath.mpf(x.num.numerator) / x.num.denominator
    if op == "const":
        return {"pi": mpmath.pi, "E": mpmath.e, "oo": mpmath.inf}[x.name] * 1
    if op == "index":
        return env[f"{x.name}[{int(_ev(a[0], env))}]"]
    if op == "alias":
        return _ev(a[1], env)
    if op == "add":
        return mpmath.fsum(_ev(t, env) for t in a)
    if op == "sub":
        return _ev(a[0], env) - _ev(a[1], env)
    if op == "mul":
        out = mpmath.mpf(1)
        for t in a:
            out *= _ev(t, env)
        return out
    if op == "div":
        den = _ev(a[1], env)
        if den == 0:
            raise ValueError("division by zero")
        return _ev(a[0], env) / den
    if op == "neg":
        return -_ev(a[0], env)
    if op == "pow":
        base, power = _ev(a[0], env), _ev(a[1], env)
        if base < 0 and power != int(power):
            raise ValueError("negative base, fractional power")
        if base == 0 and power < 0:
            raise ValueError("zero to a negative power")
        if power == int(power) and abs(power) < 10**6:
            return base ** int(power)
        return base**power
    if op == "call":
        args = [_ev(t, env) for t in a]
        if any(abs(v) > _HUGE_ARG.get(x.name, mpmath.inf) for v in args):
            raise TooCostly(f"{x.name} of a huge argument")  # mpmath may abort (GMP)
        if x.name in _NEEDS_POSITIVE and args[0] <= 0:
            raise ValueError(f"{x.name} of a nonpositive number")
        if x.name == "sqrt" and args[0] < 0:
            raise ValueError("sqrt of a negative number")
        if x.name == "factorial" and (args[0] < 0 or args[0] != int(args[0])):
            raise ValueError("factorial of a non-natural number")
        return _FUNCS[x.name](*args)
    if op in ("sum", "prod"):
        body = a[0]
        lo = _ev(a[1], env)
        hi_node = a[2]
        if isinstance(hi_node, X) and hi_node.op == "const" and hi_node.name == "oo":
            if op == "prod":
                raise TooCostly("infinite product")
            return mpmath.nsum(lambda k: _ev(body, {**env, x.name: k}), [lo, mpmath.inf])
        hi = _ev(hi_node, env)
        if hi - lo > MAX_TERMS:
            raise TooCostly("sum too long")
        terms = [_ev(body, {**env, x.name: mpmath.mpf(k)}) for k in range(int(lo), int(hi) + 1)]
        if op == "sum":
            return mpmath.fsum(terms)
        out = mpmath.mpf(1)
        for t in terms:
            out *= t
        return out
    if op == "integral":
        body = a[0]
        lo, hi = _ev(a[1], env), _ev(a[2], env)
        # Split at 0 and at the variables' values: where |t|, |t - x| have their kinks.
        cuts = sorted({v for v in (mpmath.mpf(0), *env.values()) if lo < v < hi})
        return mpmath.quad(lambda t: _ev(body, {**env, x.name: t}), [lo, *cuts, hi])
    if op == "piecewise":
        for i in range(0, len(a), 2):
            cond = a[i + 1]
            if isinstance(cond, X):  # True
                return _ev(a[i], env)
            if _cond(cond, env):
                return _ev(a[i], env)
        raise ValueError("no piece applies")
    raise ValueError(f"unknown node {op}")


def _cond(c: Rel, env: Mapping[str, mpmath.mpf]) -> bool:
    left, right = _ev(c.lhs, env), _ev(c.rhs, env)
    return {
        "<": left < right,
        "<=": left <= right,
        ">": left > right,
        ">=": left >= right,
        "==": left == right,
    }[c.op]


def diff_sign(
    lhs: X, rhs: X, env: Mapping[str, object], dps: int = 60, exact_ties: bool = True
) -> int | None:
    """The sign of ``lhs - rhs`` at ``env``: 1, -1, 0 (shown exactly by SymPy), or None when
    the two precisions disagree or the gap is too small to call.

    Trees with ``floor``, ``ceiling`` or ``Piecewise`` (and no sum or integral) are evaluated
    exactly by SymPy when an argument is near its jump: ``floor(3*(1/3))`` in floating point
    may be 0."""
    uses = lhs.calls() | rhs.calls()
    jumps = bool(uses & _JUMPS) and not uses & {"sum", "prod", "integral"}
    if jumps and not (_jumps_clear(lhs, env, dps) and _jumps_clear(rhs, env, dps)):
        return _exact_sign(lhs, rhs, env, dps)
    # Sums and integrals (nsum, quad) at twice the digits, everything else at three times.
    high = 2 * dps if uses & {"sum", "prod", "integral"} else 3 * dps
    try:
        with limited(2 * SYMPY_SECONDS):
            lo = _cached(lhs, env, dps) - _cached(rhs, env, dps)
            hi_l, hi_r = _cached(lhs, env, high), _cached(rhs, env, high)
    except (ValueError, ZeroDivisionError, OverflowError, TooCostly, MemoryError):
        return None
    with mpmath.workdps(high):
        hi = hi_l - hi_r
        scale = max(abs(hi_l), abs(hi_r), mpmath.mpf(1))
        tiny = scale * mpmath.mpf(10) ** (-(high - dps // 2))
        if abs(hi) > tiny:
            # Both precisions must see the same sign (a catastrophic cancellation would not).
            if lo != 0 and (lo > 0) != (hi > 0):
                return None
            return 1 if hi > 0 else -1
    if not exact_ties:
        return None  # a tie to 2x the digits, not shown to be exact
    return 0 if exact_zero(lhs, rhs, env) else None


_JUMPS = {"floor", "ceiling", "piecewise"}
_VALUES: dict[tuple[object, ...], mpmath.mpf] = {}


def _cached(x: X, env: Mapping[str, object], dps: int) -> mpmath.mpf:
    """:func:`value`, remembered: a recipe asks for the same side at the same point again."""
    key = (x, tuple(sorted((k, str(v)) for k, v in env.items())), dps)
    if key not in _VALUES:
        if len(_VALUES) > 20_000:
            _VALUES.clear()
        _VALUES[key] = value(x, env, dps)
    return _VALUES[key]


def _jumps_clear(x: X | Rel, env: Mapping[str, object], dps: int) -> bool:
    """Whether every floor, ceiling and Piecewise condition in ``x`` is far from its jump
    at ``env`` (then floating point decides them exactly); else SymPy must."""
    if isinstance(x, X) and x.op == "alias":
        return _jumps_clear(x.args[1], env, dps)
    if isinstance(x, Rel):
        pairs = [(x.lhs, x.rhs)]
    elif x.op in ("floor", "ceiling") or (x.op == "call" and x.name in ("floor", "ceiling")):
        arg = x.args[0]
        assert isinstance(arg, X)
        try:
            with limited(2 * SYMPY_SECONDS):
                v = _cached(arg, env, 3 * dps)
        except (ValueError, ZeroDivisionError, OverflowError, TooCostly, MemoryError):
            return False
        with mpmath.workdps(3 * dps):
            gap = abs(v - mpmath.nint(v))
            if not gap > mpmath.mpf(10) ** (-2 * dps) * max(1, abs(v)):
                return False
        pairs = []
    else:
        pairs = []
    for left, right in pairs:
        try:
            with limited(2 * SYMPY_SECONDS):
                d = _cached(left, env, 3 * dps) - _cached(right, env, 3 * dps)
        except (ValueError, ZeroDivisionError, OverflowError, TooCostly, MemoryError):
            return False
        if not abs(d) > mpmath.mpf(10) ** (-2 * dps):
            return False
    return all(_jumps_clear(a, env, dps) for a in x.args)


def _exact_sign(lhs: X, rhs: X, env: Mapping[str, object], dps: int) -> int | None:
    try:
        with limited():
            d = sp.simplify(exact(lhs, env) - exact(rhs, env))
        if d == 0:
            return 0
        v = sp.N(d, 3 * dps)
        if not v.is_number or not v.is_real:
            return None
        if abs(v) > sp.Float(10) ** (-2 * dps):
            return 1 if v > 0 else -1
    except Exception:
        return None
    return None


# -- exact SymPy evaluation (ties) -------------------------------------------------------
_SP: dict[str, Callable[..., sp.Expr]] = {
    "exp": sp.exp,
    "log": sp.log,
    "sqrt": sp.sqrt,
    "Abs": sp.Abs,
    "Max": sp.Max,
    "Min": sp.Min,
    "floor": sp.floor,
    "ceiling": sp.ceiling,
    "binomial": sp.binomial,
    "factorial": sp.factorial,
    "sinh": sp.sinh,
    "cosh": sp.cosh,
    "tanh": sp.tanh,
    "erf": sp.erf,
    "erfc": sp.erfc,
    "Phi": lambda v: (1 + sp.erf(v / sp.sqrt(2))) / 2,
    "PhiInv": lambda p: sp.sqrt(2) * sp.erfinv(2 * p - 1),
    "gamma": sp.gamma,
    "loggamma": sp.loggamma,
    "expm1": lambda v: sp.exp(v) - 1,
    "log1p": lambda v: sp.log(1 + v),
    "beta": sp.beta,
    "lambertw": sp.LambertW,
}


HUGE = 10**5
"""SymPy evaluates ``factorial(10**26)`` and ``4**(10**26)`` exactly, and GMP aborts the
process ("overflow in mpz type") before any exception: the oracle declines them."""


def exact(x: X | Rel, env: Mapping[str, object]) -> sp.Expr:
    """``x`` as a SymPy number at ``env`` (rational values), SymPy's own evaluation."""
    return _sx(x, {k: _exact_value(v) for k, v in env.items()})


def _exact_value(v: object) -> sp.Expr:
    if isinstance(v, sp.Basic):
        return v  # type: ignore[return-value]
    if isinstance(v, Fraction):
        return sp.Rational(v.numerator, v.denominator)
    if isinstance(v, int):
        return sp.Integer(v)
    return sp.nsimplify(v)  # type: ignore[no-any-return]


def _sx(x: X | Rel, env: Mapping[str, sp.Expr]) -> sp.Expr:
    if isinstance(x, Rel):
        raise ValueError("a relation is not a number")
    op, a = x.op, x.args
    if op == "var":
        return env.get(x.name, sp.Symbol(x.name))
    if op == "num":
        assert x.num is not None
        return sp.Rational(x.num.numerator, x.num.denominator)
    if op == "const":
        return {"pi": sp.pi, "E": sp.E, "oo": sp.oo}[x.name]
    if op == "index":
        return env[f"{x.name}[{int(_sx(a[0], env))}]"]
    if op == "alias":
        return _sx(a[1], env)
    if op == "add":
        return sp.Add(*[_sx(t, env) for t in a])
    if op == "sub":
        return _sx(a[0], env) - _sx(a[1], env)
    if op == "mul":
        return sp.Mul(*[_sx(t, env) for t in a])
    if op == "div":
        return _sx(a[0], env) / _sx(a[1], env)
    if op == "neg":
        return -_sx(a[0], env)
    if op == "pow":
        base, power = _sx(a[0], env), _sx(a[1], env)
        if base.is_Integer and power.is_Integer and abs(base) > 1 and abs(power) > HUGE:
            raise TooCostly("an exact power with a huge exponent")  # GMP aborts the process
        return base**power
    if op == "call":
        args = [_sx(t, env) for t in a]
        if x.name in ("factorial", "binomial", "gamma") and any(
            v.is_Integer and abs(v) > HUGE for v in args
        ):
            raise TooCostly(f"an exact {x.name} of a huge integer")
        return _SP[x.name](*args)
    if op in ("sum", "prod"):
        lo, hi = _sx(a[1], env), _sx(a[2], env)
        if lo.is_Integer and hi.is_Integer and int(hi) - int(lo) <= MAX_TERMS // 10:
            # A finite sum term by term (the body may index a family: p[k]).
            terms = [_sx(a[0], {**env, x.name: sp.Integer(j)}) for j in range(int(lo), int(hi) + 1)]
            return sp.Add(*terms) if op == "sum" else sp.Mul(*terms)
    if op in ("sum", "prod", "integral"):
        k = sp.Symbol(x.name, integer=op != "integral", real=True)
        body = _sx(a[0], {**env, x.name: k})
        lims = (k, _sx(a[1], env), _sx(a[2], env))
        made = {"sum": sp.Sum, "prod": sp.Product, "integral": sp.Integral}[op](body, lims)
        return made.doit()
    if op == "piecewise":
        for i in range(0, len(a), 2):
            cond = a[i + 1]
            if isinstance(cond, X):
                return _sx(a[i], env)
            truth = {
                "<": sp.Lt,
                "<=": sp.Le,
                ">": sp.Gt,
                ">=": sp.Ge,
                "==": sp.Eq,
            }[cond.op](_sx(cond.lhs, env), _sx(cond.rhs, env))
            if truth is sp.true:
                return _sx(a[i], env)
            if truth is not sp.false:
                raise ValueError("undecidable piece condition")
        raise ValueError("no piece applies")
    raise ValueError(f"unknown node {op}")


def exact_zero(lhs: X, rhs: X, env: Mapping[str, object]) -> bool:
    """Whether ``lhs - rhs`` is exactly 0 at ``env``, shown by SymPy."""
    try:
        with limited():
            d = exact(lhs, env) - exact(rhs, env)
            if d == 0:
                return True
            # simplify only: ``equals`` may answer from a numerical evaluation.
            return bool(sp.simplify(d) == 0)
    except Exception:
        return False
