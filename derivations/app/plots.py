"""``dpderive plot NAME -o FILE``: pictures whose data come from the numeric oracles.

* ``gdp-tradeoff``: G_mu against the family f_{eps, delta(eps)} it envelopes (Dong, Roth &
  Su, Corollary 2.13).
* ``composition``: basic, advanced (Dwork & Roth Theorem 3.20) and optimal (Kairouz, Oh &
  Viswanath 2015) eps' of a k-fold composition against k.
* ``kl-bounds``: eps (e^eps - 1) (Lemma 3.18), eps tanh(eps/2), and the exact KL of random
  eps-DP pairs.
* ``gaussian-calibration``: the classical sigma of Dwork & Roth Theorem A.1 against the
  exact sigma needed, over eps.

matplotlib is imported only here, with the Agg backend (no display needed).  The families
and oracles a plot draws on are imported in its function: the command line imports this
module for the plots' names, and ``check`` needs none of them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mpmath

from symbolic.errors import DpderiveError, InvalidInput

DPS = 30


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise DpderiveError(
            "plots need matplotlib: pip install 'dpderive[plot]' (or pip install matplotlib)"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 13, "axes.titlesize": 14, "legend.fontsize": 11})
    return plt


def _grid(lo: float, hi: float, n: int) -> list[float]:
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def gdp_tradeoff(plt: Any) -> Any:
    from numeric_checks.dp.gaussian import (
        profile_closed_form,
        tradeoff_eps_delta,
        tradeoff_gaussian,
    )

    mu = mpmath.mpf(1)
    alphas = _grid(0, 1, 201)
    fig, ax = plt.subplots(figsize=(7, 6))
    for eps in (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0):
        delta = profile_closed_form(mu, eps)
        ys = [float(tradeoff_eps_delta(eps, delta, a)) for a in alphas]
        ax.plot(
            alphas,
            ys,
            lw=1,
            alpha=0.8,
            label=rf"$f_{{\varepsilon,\delta(\varepsilon)}}$, $\varepsilon={eps:g}$",
        )
    ax.plot(alphas, [float(tradeoff_gaussian(mu, a)) for a in alphas], "k", lw=2.5, label=r"$G_1$")
    ax.plot(
        alphas, [1 - a for a in alphas], ":", color="gray", label=r"$1-\alpha$ (no privacy loss)"
    )
    ax.set_xlabel(r"type I error $\alpha$")
    ax.set_ylabel(r"type II error $\beta$")
    ax.set_title(
        r"$G_\mu$ ($\mu = 1$) is the upper envelope of $f_{\varepsilon,\delta(\varepsilon)}$"
    )
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper right")
    return fig


def composition(plt: Any) -> Any:
    from derivations.advanced_composition import advanced_eps
    from derivations.composition import basic_eps
    from numeric_checks.dp.composition import optimal_eps

    eps, delta_p = mpmath.mpf("0.1"), mpmath.mpf("1e-6")
    ks = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
    fig, ax = plt.subplots(figsize=(7, 5.5))
    ax.plot(ks, [float(basic_eps(k, eps)) for k in ks], "o-", label=r"basic: $k\varepsilon$")
    ax.plot(
        ks, [float(advanced_eps(k, eps, delta_p)) for k in ks], "s-", label="advanced (Thm 3.20)"
    )
    ax.plot(ks, [float(optimal_eps(k, eps, delta_p)) for k in ks], "^-", label="optimal (KOV 2015)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(r"number of mechanisms composed $k$")
    ax.set_ylabel(r"total privacy $\varepsilon'$")
    ax.set_title(r"$k$-fold composition, $\varepsilon = 0.1$, $\delta' = 10^{-6}$")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    return fig


def kl_bounds(plt: Any) -> Any:
    from derivations.kl_bound import seed_bound, tight_bound
    from numeric_checks.dp.divergences import kl
    from numeric_checks.dp.kl import random_pair

    epss = _grid(0.01, 2.0, 100)
    fig, ax = plt.subplots(figsize=(7, 5.5))
    rng = random.Random(0)
    xs, ys = [], []
    for _ in range(400):
        e = mpmath.mpf(rng.uniform(0.01, 2.0))
        p, q = random_pair(rng, rng.randint(2, 6), e, extreme=rng.random() < 0.5)
        xs.append(float(e))
        ys.append(float(kl(p, q)))
    ax.scatter(xs, ys, s=8, color="gray", alpha=0.6, label="exact KL of random eps-DP pairs")
    ax.plot(
        epss,
        [float(seed_bound(e)) for e in epss],
        lw=2,
        label=r"$\varepsilon(e^\varepsilon-1)$ (Lemma 3.18)",
    )
    ax.plot(
        epss,
        [float(tight_bound(e)) for e in epss],
        lw=2,
        label=r"$\varepsilon\tanh(\varepsilon/2)$ (tight)",
    )
    ax.set_xlabel(r"privacy parameter $\varepsilon$")
    ax.set_ylabel("KL divergence (nats)")
    ax.set_title("KL divergence of eps-DP output pairs and its bounds")
    ax.legend(loc="upper left")
    return fig


def gaussian_calibration(plt: Any) -> Any:
    from derivations.gaussian_mechanism import classical_sigma
    from numeric_checks.dp.gaussian import exact_sigma

    delta = mpmath.mpf("1e-5")
    epss = [0.05 * 1.15**i for i in range(40)]
    classical = [float(classical_sigma(e, delta)) for e in epss]
    exact = [float(exact_sigma(e, delta)) for e in epss]
    fig, ax = plt.subplots(figsize=(7, 5.5))
    ax.plot(
        epss,
        classical,
        lw=2,
        label=r"classical $\sqrt{2\ln(1.25/\delta)}\,\Delta/\varepsilon$ (Thm A.1)",
    )
    ax.plot(epss, exact, "--", lw=2, label=r"exact $\sigma$ needed (privacy profile)")
    bad = [e for e, c, x in zip(epss, classical, exact, strict=True) if c < x]
    if bad:
        ax.axvspan(min(bad), max(epss), color="red", alpha=0.1, label="classical sigma too small")
    ax.axvline(1.0, color="gray", ls=":", lw=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(r"privacy parameter $\varepsilon$")
    ax.set_ylabel(r"noise $\sigma$ (units of $\ell_2$ sensitivity $\Delta$)")
    ax.set_title(r"Gaussian mechanism calibration, $\delta = 10^{-5}$")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper right")
    return fig


PLOTS: dict[str, Callable[[Any], Any]] = {
    "gdp-tradeoff": gdp_tradeoff,
    "composition": composition,
    "kl-bounds": kl_bounds,
    "gaussian-calibration": gaussian_calibration,
}


def plot(name: str, target: Path) -> Path:
    """Draw the plot ``name`` into ``target`` (.png or .pdf)."""
    if name not in PLOTS:
        raise InvalidInput(f"unknown plot {name!r}; known plots: {', '.join(PLOTS)}")
    if target.suffix.lower() not in (".png", ".pdf"):
        raise InvalidInput(f"the output must end in .png or .pdf, got {str(target)!r}")
    plt = _pyplot()
    with mpmath.workdps(DPS):
        fig = PLOTS[name](plt)
    try:
        fig.tight_layout()
        fig.savefig(target, dpi=150)
    except OSError as exc:
        raise DpderiveError(f"cannot write {str(target)!r}: {exc.strerror}") from None
    finally:
        plt.close(fig)
    return target
