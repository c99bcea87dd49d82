"""SymPy functions used by DP derivations that SymPy lacks, and defined quantities.

Three kinds live here:

* ``Phi`` and ``PhiInv``, the standard normal CDF and its inverse, as real functions with
  their algebraic rules (``Phi(-x) = 1 - Phi(x)``, ``Phi(PhiInv(p)) = p``) and a rewrite to
  ``erf``/``erfc`` so that the equality tactics can reason about them.
* ``expm1`` and ``log1p``, ``exp(x) - 1`` and ``log(1 + x)`` computed without cancellation.
* :class:`DefinedFunction`, an opaque quantity of a proof (a density of a mechanism's output,
  say) that carries its own definition.  A step justified "by definition" holds because both
  sides agree after :func:`unfold`; the numeric layer always evaluates the unfolded form.
"""

from __future__ import annotations

from typing import ClassVar

import sympy as sp
from sympy.core.function import ArgumentIndexError


class Phi(sp.Function):
    r"""Standard normal CDF, :math:`\Phi(x) = (1 + \operatorname{erf}(x/\sqrt{2}))/2`.

    >>> from sympy import oo
    >>> Phi(0), Phi(oo), Phi(-oo)
    (1/2, 1, 0)
    """

    nargs = 1

    @classmethod
    def eval(cls, x: sp.Expr) -> sp.Expr | None:
        if x is sp.S.Zero:
            return sp.S.Half
        if x is sp.S.Infinity:
            return sp.S.One
        if x is sp.S.NegativeInfinity:
            return sp.S.Zero
        if isinstance(x, PhiInv):
            return x.args[0]
        return None

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        if argindex != 1:
            raise ArgumentIndexError(self, argindex)
        x = self.args[0]
        return sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi)

    def _eval_rewrite_as_erf(self, x: sp.Expr, **kwargs: object) -> sp.Expr:
        return (1 + sp.erf(x / sp.sqrt(2))) / 2

    def _eval_rewrite_as_erfc(self, x: sp.Expr, **kwargs: object) -> sp.Expr:
        return sp.erfc(-x / sp.sqrt(2)) / 2

    def _eval_is_real(self) -> bool | None:
        return self.args[0].is_extended_real

    def _eval_is_positive(self) -> bool | None:
        if self.args[0].is_real:
            return True
        return None

    def _latex(self, printer: sp.printing.latex.LatexPrinter) -> str:
        return r"\Phi\left(%s\right)" % printer._print(self.args[0])


class PhiInv(sp.Function):
    r"""Inverse of the standard normal CDF on (0, 1).

    :math:`\Phi^{-1}(p) = \sqrt{2}\,\operatorname{erf}^{-1}(2p-1)`.

    >>> PhiInv(sp.S.Half)
    0
    """

    nargs = 1

    @classmethod
    def eval(cls, p: sp.Expr) -> sp.Expr | None:
        if p == sp.S.Half:
            return sp.S.Zero
        if p is sp.S.One:
            return sp.S.Infinity
        if p is sp.S.Zero:
            return sp.S.NegativeInfinity
        if isinstance(p, Phi):
            return p.args[0]
        return None

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        if argindex != 1:
            raise ArgumentIndexError(self, argindex)
        return sp.sqrt(2 * sp.pi) * sp.exp(self**2 / 2)

    def _eval_rewrite_as_erfinv(self, p: sp.Expr, **kwargs: object) -> sp.Expr:
        return sp.sqrt(2) * sp.erfinv(2 * p - 1)

    def _latex(self, printer: sp.printing.latex.LatexPrinter) -> str:
        return r"\Phi^{-1}\left(%s\right)" % printer._print(self.args[0])


class expm1(sp.Function):  # lower case like SymPy's own exp, log, gamma
    r"""``exp(x) - 1`` without cancellation: at ``x = 1e-30`` the difference of the two
    loses about 30 digits, ``mpmath.expm1`` none.  The equality tactics see through it by
    ``rewrite(exp)``.

    >>> x = sp.Symbol("x", positive=True)
    >>> expm1(0), expm1(x).is_positive, expm1(x).rewrite(sp.exp)
    (0, True, exp(x) - 1)
    """

    nargs = 1

    @classmethod
    def eval(cls, x: sp.Expr) -> sp.Expr | None:
        if x.is_zero:
            return sp.S.Zero
        if isinstance(x, log1p):
            return x.args[0]
        return None

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        if argindex != 1:
            raise ArgumentIndexError(self, argindex)
        return sp.exp(self.args[0])

    def _eval_rewrite_as_exp(self, x: sp.Expr, **kwargs: object) -> sp.Expr:
        return sp.exp(x) - 1

    def _eval_is_real(self) -> bool | None:
        return self.args[0].is_extended_real

    def _eval_is_positive(self) -> bool | None:
        return self.args[0].is_extended_positive

    def _eval_is_negative(self) -> bool | None:
        return self.args[0].is_extended_negative

    def _eval_is_zero(self) -> bool | None:
        return self.args[0].is_zero

    def _latex(self, printer: sp.printing.latex.LatexPrinter) -> str:
        return r"\operatorname{expm1}\left(%s\right)" % printer._print(self.args[0])


class log1p(sp.Function):  # lower case like SymPy's own exp, log, gamma
    r"""``log(1 + x)`` without cancellation near ``x = 0`` (``mpmath.log1p``).  Its
    ``rewrite(exp)`` is the elementary ``log(1 + x)``, so that the equality tactics, which
    rewrite to elementary functions with ``exp``, see through it.

    >>> x = sp.Symbol("x", positive=True)
    >>> log1p(0), log1p(x).is_positive, log1p(x).rewrite(sp.exp)
    (0, True, log(x + 1))
    """

    nargs = 1

    @classmethod
    def eval(cls, x: sp.Expr) -> sp.Expr | None:
        if x.is_zero:
            return sp.S.Zero
        if isinstance(x, expm1) and x.args[0].is_extended_real:
            return x.args[0]
        return None

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        if argindex != 1:
            raise ArgumentIndexError(self, argindex)
        return 1 / (1 + self.args[0])

    def _eval_rewrite_as_exp(self, x: sp.Expr, **kwargs: object) -> sp.Expr:
        return sp.log(1 + x)

    _eval_rewrite_as_log = _eval_rewrite_as_exp

    def _eval_is_real(self) -> bool | None:
        x = self.args[0]
        return True if (x.is_extended_real and (x + 1).is_positive) else None

    def _eval_is_positive(self) -> bool | None:
        return self.args[0].is_extended_positive

    def _eval_is_zero(self) -> bool | None:
        return self.args[0].is_zero

    def _latex(self, printer: sp.printing.latex.LatexPrinter) -> str:
        return r"\operatorname{log1p}\left(%s\right)" % printer._print(self.args[0])


class DefinedFunction(sp.Function):
    """A named quantity of a proof whose meaning is given by :meth:`definition`.

    Subclasses set ``nargs`` and implement ``definition``; ``latex_template`` (a format string
    over the printed arguments) controls how the quantity reads on the page.
    """

    latex_template: ClassVar[str] = ""

    @classmethod
    def definition(cls, *args: sp.Expr) -> sp.Expr:
        raise NotImplementedError

    def _latex(self, printer: sp.printing.latex.LatexPrinter) -> str:
        printed = [printer._print(a) for a in self.args]
        if self.latex_template:
            return self.latex_template.format(*printed)
        return r"\operatorname{%s}\left(%s\right)" % (type(self).__name__, ", ".join(printed))


def unfold(expr: sp.Expr, max_depth: int = 20) -> sp.Expr:
    """Replace every :class:`DefinedFunction` by its definition, recursively.

    >>> t, b = sp.symbols("t b", positive=True)
    >>> unfold(LaplacePDF(t, b))
    exp(-t/b)/(2*b)
    """
    for _ in range(max_depth):
        found = expr.atoms(DefinedFunction)
        if not found:
            return expr
        expr = expr.xreplace({f: type(f).definition(*f.args) for f in found})
    raise RecursionError("definitions nest deeper than %d levels" % max_depth)


class LaplacePDF(DefinedFunction):
    r"""Density of :math:`\mathrm{Lap}(b)` at ``t``: :math:`\frac{1}{2b} e^{-|t|/b}`.

    Dwork & Roth 2014, Definition 3.2.
    """

    nargs = 2
    latex_template = r"p_{{\mathrm{{Lap}}({1})}}\left({0}\right)"

    @classmethod
    def definition(cls, t: sp.Expr, b: sp.Expr) -> sp.Expr:
        return sp.exp(-sp.Abs(t) / b) / (2 * b)


class LaplaceMechanismPDF(DefinedFunction):
    r"""Density at ``z`` of the Laplace mechanism's output ``f + Lap(b)``.

    Dwork & Roth 2014, Definition 3.3: the output is the true answer ``f`` shifted by
    Laplace noise, so its density at ``z`` is the noise density at ``z - f``.
    """

    nargs = 3
    latex_template = r"\Pr\left[{1} + \mathrm{{Lap}}({2}) = {0}\right]"

    @classmethod
    def definition(cls, z: sp.Expr, f: sp.Expr, b: sp.Expr) -> sp.Expr:
        return LaplacePDF(z - f, b)


class NumericFunction(sp.Function):
    """A quantity defined by a numeric computation rather than a formula (an exact privacy
    profile, an optimal composition).  Subclasses set ``impl`` to an mpmath function of the
    arguments.  The symbolic layer treats the call as opaque (steps about it can only be
    ``checked``) unless the subclass gives a ``doit`` that writes out its definition
    symbolically (a finite sum over atoms, an integral over a region solved in closed form),
    which the tactics' doit rung then decides."""

    impl: ClassVar[object] = None
    latex_template: ClassVar[str] = ""

    def _latex(self, printer: sp.printing.latex.LatexPrinter) -> str:
        printed = [printer._print(a) for a in self.args]
        if self.latex_template:
            return self.latex_template.format(*printed)
        return r"\operatorname{%s}\left(%s\right)" % (type(self).__name__, ", ".join(printed))
