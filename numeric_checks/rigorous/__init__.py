"""Rigorous calculus on Arb balls: integrals over finite and infinite ranges, sums over the
integers and over half-lines, with every truncation bounded by a proved inequality.

The modules, one concept each:

* :mod:`~numeric_checks.rigorous.signs` -- the sign of an expression on a ray ``x >= T`` (or
  ``x <= T``) for every parameter in a box, and the kinks (``Abs``, ``Max``, ``Min``,
  ``sign``, ``Heaviside``, ``Piecewise``) resolved there;
* :mod:`~numeric_checks.rigorous.envelopes` -- decaying majorants ``c y^m exp(p(y))`` of a
  tail, integrated or summed in closed form;
* :mod:`~numeric_checks.rigorous.quadrature` -- Arb's quadrature (``acb.integral``) on
  analytic pieces plus proved tails;
* :mod:`~numeric_checks.rigorous.taylor` -- Taylor coefficients on balls (``arb_series``), for
  derivatives on a whole interval at once;
* :mod:`~numeric_checks.rigorous.euler_maclaurin` -- long sums of smooth terms by the
  Euler-Maclaurin formula with a proved remainder;
* :mod:`~numeric_checks.rigorous.series` -- sums: terms as balls near their mass, proved tails
  (ratio test, geometric envelopes), Euler-Maclaurin where the mass is too wide to sum;
* :mod:`~numeric_checks.rigorous.calculus` -- whole expressions with sums and integrals
  compiled once and enclosed on any box (what certification and confirmation call).

Every enclosure here holds for every point of its input balls; where none can be proved the
functions raise :class:`~symbolic.errors.Unsupported` with the part and the reason.
"""

from numeric_checks.rigorous.calculus import CalculusFunction, compile_calculus

__all__ = ["CalculusFunction", "compile_calculus"]
