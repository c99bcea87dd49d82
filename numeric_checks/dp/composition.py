"""Privacy of k-fold composition: the exact optimum.

The stated bounds it is compared with live in their derivations: basic composition's
k eps in :mod:`derivations.composition`, advanced composition's eps' in
:mod:`derivations.advanced_composition`.

The optimum is from Kairouz, Oh & Viswanath 2015 (The Composition Theorem for Differential
Privacy, Theorem 3.3): every (eps, delta)-DP mechanism is a post-processing of the canonical
pair on four outcomes

    P = (delta, (1 - delta) e^eps/(1 + e^eps), (1 - delta)/(1 + e^eps), 0)
    Q = (0, (1 - delta)/(1 + e^eps), (1 - delta) e^eps/(1 + e^eps), delta),

so the k-fold composition is (eps', delta_opt(eps'))-DP for exactly the hockey-stick
divergence of the k-fold products.  A product outcome that uses P's delta-atom contributes
its full mass; one with l "reversed" outcomes among k has privacy loss (k - 2l) eps, so

    delta_opt(eps') = 1 - (1 - delta)^k + (1 - delta)^k S,
    S = sum over l with (k - 2l) eps > eps' of C(k, l) [p^(k-l) q^l - e^eps' p^l q^(k-l)]

with p = e^eps/(1 + e^eps), q = 1/(1 + e^eps).  The terms follow the recurrence
``T_{l+1} = T_l (k - l)/(l + 1) q/p`` (O(k) work, no per-term binomial), evaluated with
log10(k) + 5 guard digits against cancellation.
"""

from __future__ import annotations

from typing import Any

import mpmath

from numeric_checks.validate import check_eps_delta, check_probability, check_whole


def _check(k: int, eps: Any, delta: Any = 0) -> tuple[int, Any, Any]:
    """k mechanisms, each (eps, delta)-DP: eps >= 0 and delta in [0, 1)."""
    k = check_whole("k", k)
    eps, delta = check_eps_delta(eps, delta, eps_zero=True, delta_open="upper")
    return k, eps, delta


def optimal_delta(k: int, eps: Any, delta: Any, eps_prime: Any) -> Any:
    """The smallest delta'' such that every k-fold composition of (eps, delta)-DP mechanisms
    is (eps_prime, delta'')-DP (Kairouz, Oh & Viswanath 2015)."""
    k, eps, delta = _check(k, eps, delta)
    eps_prime = mpmath.mpf(eps_prime)
    with mpmath.extradps(int(mpmath.log10(k)) + 5):
        e = mpmath.exp(eps)
        p, q = e / (1 + e), 1 / (1 + e)
        ratio = q / p
        weight = mpmath.exp(eps_prime)
        # Class l has P-mass T_l = C(k,l) p^(k-l) q^l and Q-mass U_l = C(k,l) p^l q^(k-l);
        # only classes with loss (k - 2l) eps > eps' count, i.e. l <= last.
        last = k if eps == 0 else int(mpmath.ceil((k - eps_prime / eps) / 2)) - 1
        total = mpmath.mpf(0)
        if eps > 0 and last >= 0:
            last = min(last, k)
            t, u = p**k, q**k
            inverse = p / q
            for ell in range(last + 1):
                total += t - weight * u
                # Integers multiply an mpf faster than mpfs do (this loop is the cost at k=1e4).
                t = t * (k - ell) / (ell + 1) * ratio
                u = u * (k - ell) / (ell + 1) * inverse
            total = max(total, mpmath.mpf(0))
        stay = (1 - delta) ** k
        return +(1 - stay + stay * total)


def optimal_delta_slow(k: int, eps: Any, delta: Any, eps_prime: Any) -> Any:
    """The same quantity by direct summation over all 4^k-collapsed classes with
    ``mpmath.binomial`` and powers: an independent, slow evaluation for the benchmark."""
    k, eps, delta = _check(k, eps, delta)
    e = mpmath.exp(eps)
    p, q = e / (1 + e), 1 / (1 + e)
    total = mpmath.mpf(0)
    for ell in range(k + 1):
        if (k - 2 * ell) * eps > eps_prime:
            c = mpmath.binomial(k, ell)
            total += c * (p ** (k - ell) * q**ell - mpmath.exp(eps_prime) * p**ell * q ** (k - ell))
    stay = (1 - delta) ** k
    return 1 - stay + stay * max(total, 0)


def optimal_eps(k: int, eps: Any, delta_prime: Any, delta: Any = 0) -> Any:
    """The smallest eps' with optimal_delta(k, eps, delta, eps') <= k delta + delta'
    (bisection; optimal_delta decreases in eps')."""
    k, eps, delta = _check(k, eps, delta)
    d = check_probability("delta'", delta_prime, open_ends="both")
    target = k * delta + d
    lo, hi = mpmath.mpf(0), k * eps
    if optimal_delta(k, eps, delta, lo) <= target:
        return lo
    for _ in range(mpmath.mp.prec):
        mid = (lo + hi) / 2
        if optimal_delta(k, eps, delta, mid) <= target:
            hi = mid
        else:
            lo = mid
        if hi - lo <= hi * mpmath.mpf(2) ** (-mpmath.mp.prec + 8):
            break
    return hi


def ratio_bounded_points(
    rng: Any, k: int, count: int = 40, names: tuple[str, str] = ("a", "b"), shared: bool = False
) -> list[dict[str, Any]]:
    """Points for k pure-DP mechanisms (or rounds) at one output tuple: per mechanism a
    privacy parameter ``eps_i`` (one ``eps`` for all when ``shared``), ``Pr[M_i(y) = r_i] =
    b_i`` and ``Pr[M_i(x) = r_i] = a_i = b_i r_i`` with the ratio ``r_i`` in ``[e^-eps_i,
    e^eps_i]`` (both probabilities in (0, 1]); every third point puts each ratio at an end
    of its interval (strictly inside by a relative 10**-(dps/2), so that rounding keeps the
    hypotheses), where mutants of the bound show.  Names are an instance's: ``eps_1``,
    ``a_1``, ``b_1``, ... (``names`` renames a and b)."""
    inside = 1 - mpmath.mpf(10) ** (-(mpmath.mp.dps // 2))
    out = []
    for n in range(count):
        point: dict[str, Any] = {}
        common = mpmath.mpf(10) ** rng.uniform(-3, 0.5)
        if shared:
            point["eps"] = common
        for i in range(1, k + 1):
            eps = common if shared else mpmath.mpf(10) ** rng.uniform(-3, 0.5)
            if n % 3 == 0:
                log_ratio = eps * inside * (1 if rng.random() < 0.5 else -1)
            else:
                log_ratio = eps * (2 * mpmath.mpf(rng.random()) - 1)
            b = mpmath.mpf(rng.uniform(0.01, 1))
            a = b * mpmath.exp(log_ratio)
            if a > 1:  # scale the pair down: the ratio is what matters
                a, b = a / a, b / a
            if not shared:
                point[f"eps_{i}"] = eps
            point.update({f"{names[0]}_{i}": a, f"{names[1]}_{i}": b})
        out.append(point)
    return out
