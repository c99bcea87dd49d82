"""Independent computations of the privacy profiles for tests/test_account_configs.py, written
without dpderive's accounting code: numeric quadrature (mpmath) of the Gaussian hockey-stick
divergence, the exact binomial sum for randomized response, and for Laplace and the
Poisson-subsampled Gaussian a privacy-loss distribution on a grid composed by FFT (numpy),
once with every loss rounded up and once rounded down, which brackets the true delta(eps)
(delta(eps) = E_P[(1 - e^(eps - L))_+] increases with the loss L)."""

from __future__ import annotations

import math

import mpmath
import numpy as np


def gaussian_delta(mu: float, eps: float) -> float:
    """delta(eps) of N(mu, 1) against N(0, 1): the integral of (p - e^eps q)_+ by mpmath."""
    with mpmath.workdps(30):
        m, e = mpmath.mpf(mu), mpmath.mpf(eps)

        def f(x: mpmath.mpf) -> mpmath.mpf:
            return mpmath.npdf(x, m, 1) - mpmath.exp(e) * mpmath.npdf(x, 0, 1)

        start = e / m + m / 2  # where the integrand changes sign
        return float(mpmath.quad(f, [start, start + 2, start + 10, mpmath.inf]))


def rr_delta(eps0: float, k: int, eps: float) -> float:
    """The exact k-fold randomized-response profile (both laws binomial)."""
    with mpmath.workdps(40):
        e0 = mpmath.mpf(eps0)
        p = mpmath.exp(e0) / (1 + mpmath.exp(e0))
        w = mpmath.exp(mpmath.mpf(eps))
        total = mpmath.mpf(0)
        for j in range(k + 1):
            term = mpmath.binomial(k, j) * (
                p**j * (1 - p) ** (k - j) - w * (1 - p) ** j * p ** (k - j)
            )
            if term > 0:
                total += term
        return float(total)


def _profile_from_grid(masses: np.ndarray, k: int, h: float, lo_index: int, eps: float) -> float:
    """delta(eps) = sum P(L) (1 - e^(eps - L))_+ for the k-fold sum of a loss on the grid
    h * (lo_index + i) with the given masses (composed by FFT; every index of the sum is at
    least k * lo_index, and the FFT is long enough to hold them all)."""
    size = 1
    while size < k * (len(masses) - 1) + 1:
        size <<= 1
    total = np.clip(np.fft.irfft(np.fft.rfft(masses, size) ** k, size), 0.0, None)
    loss = h * (k * lo_index + np.arange(size))
    gain = 1.0 - np.exp(np.minimum(eps - loss, 700.0))
    return float(np.sum(total * np.clip(gain, 0.0, None)))


def _bracket(
    losses_lo: np.ndarray,
    losses_hi: np.ndarray,
    mass: np.ndarray,
    k: int,
    h: float,
    eps: float,
    cap: float = 1e9,
) -> tuple[float, float]:
    """delta(eps) from below (every cell at its smallest loss, rounded down; a loss below
    -cap dropped, one above cap lowered to cap) and from above (the largest loss rounded up;
    a loss below -cap raised to -cap, and the mass above cap counted as a sure loss of
    privacy: k times it added to delta)."""
    keep = losses_lo >= -cap
    lo_idx = np.floor(np.minimum(losses_lo[keep], cap) / h).astype(np.int64)
    low = _grid_profile(lo_idx, mass[keep], k, h, eps)
    over = losses_hi > cap
    hi_idx = np.ceil(np.maximum(losses_hi[~over], -cap) / h).astype(np.int64)
    high = _grid_profile(hi_idx, mass[~over], k, h, eps) + k * float(np.sum(mass[over]))
    return low, min(high, 1.0)


def _grid_profile(idx: np.ndarray, mass: np.ndarray, k: int, h: float, eps: float) -> float:
    lo = int(idx.min())
    grid = np.zeros(int(idx.max()) - lo + 1)
    np.add.at(grid, idx - lo, mass)
    return _profile_from_grid(grid, k, h, lo, eps)


def laplace_delta(eps0: float, k: int, eps: float, h: float = 2e-3) -> tuple[float, float]:
    """A bracket on delta(eps) of k Laplace steps with eps0 = Delta/b: under P = Lap(eps0, 1)
    the loss |x| - |x - eps0| is -eps0 with mass e^-eps0/2, +eps0 with mass 1/2, and
    2x - eps0 on (0, eps0)."""
    n = max(int(2 * eps0 / h) * 4, 8)
    edges = np.linspace(0.0, eps0, n + 1)
    mass_mid = 0.5 * (np.exp(edges[1:] - eps0) - np.exp(edges[:-1] - eps0))
    lo_loss = np.concatenate([[-eps0], 2 * edges[:-1] - eps0, [eps0]])
    hi_loss = np.concatenate([[-eps0], 2 * edges[1:] - eps0, [eps0]])
    mass = np.concatenate([[0.5 * math.exp(-eps0)], mass_mid, [0.5]])
    return _bracket(lo_loss, hi_loss, mass, k, h, eps)


def _split(loss: np.ndarray, mass: np.ndarray, h: float) -> tuple[int, np.ndarray]:
    """The masses put on the grid h * (lo + i), each cell's mass split between the two grid
    points around its loss so that the mean loss is kept (as the PRV accountant of Gopi, Lee
    & Wutschitz 2021 does)."""
    pos = loss / h
    base = np.floor(pos).astype(np.int64)
    frac = pos - base
    lo = int(base.min())
    grid = np.zeros(int(base.max()) - lo + 2)
    np.add.at(grid, base - lo, mass * (1 - frac))
    np.add.at(grid, base - lo + 1, mass * frac)
    return lo, grid


def _windowed_profile(lo: int, grid: np.ndarray, k: int, h: float, eps: float) -> float:
    """delta(eps) of the k-fold sum, composed by an FFT of ``size`` points that wraps around:
    the sum's index is taken nearest to its mean (its law lies within a few dozen nats of
    the mean, far less than size * h)."""
    size = 1 << 16
    while size < 4 * len(grid):
        size <<= 1
    total = np.clip(np.fft.irfft(np.fft.rfft(grid, size) ** k, size), 0.0, None)
    mean_index = k * float(np.dot(np.arange(len(grid)), grid) / grid.sum())
    j = np.arange(size)
    shift = np.round((mean_index - j) / size) * size  # the representative nearest the mean
    loss = h * (k * lo + j + shift)
    gain = 1.0 - np.exp(np.minimum(eps - loss, 700.0))
    return float(np.sum(total * np.clip(gain, 0.0, None)))


def subsampled_gaussian_delta(sigma: float, q: float, k: int, eps: float) -> float:
    """delta(eps) of k Poisson-subsampled Gaussian steps (sensitivity 1, within about 1%):
    the larger of the two orders of the pair (1 - q) N(0, s^2) + q N(1, s^2) and N(0, s^2).
    The grid is a twentieth of a step's loss spread (splitting a cell's mass between grid
    points adds up to h^2/4 to each step's variance)."""
    mu = 1.0 / sigma
    h = min(2e-3, q * math.sqrt(math.expm1(mu * mu)) / 20)
    x = np.linspace(-12.0, mu + 12.0, 100_001)
    cdf0 = 0.5 * np.array([math.erfc(-v / math.sqrt(2)) for v in x])
    cdf1 = 0.5 * np.array([math.erfc(-(v - mu) / math.sqrt(2)) for v in x])
    m0, m1 = np.diff(cdf0), np.diff(cdf1)
    mid = (x[1:] + x[:-1]) / 2
    mix = (1 - q) * m0 + q * m1
    ell = np.log1p(q * np.expm1(mu * mid - mu * mu / 2))  # log(mix/N0) at the cell
    added = _windowed_profile(*_split(ell, mix, h), k, h, eps)
    removed = _windowed_profile(*_split(-ell, m0, h), k, h, eps)
    return max(added, removed)


def laplace_delta_near(eps0: float, k: int, eps: float, h: float = 2e-3) -> float:
    """The same mean-keeping grid for Laplace (a check of the method against the bracket)."""
    n = max(int(2 * eps0 / h) * 4, 8)
    edges = np.linspace(0.0, eps0, n + 1)
    mass_mid = 0.5 * (np.exp(edges[1:] - eps0) - np.exp(edges[:-1] - eps0))
    loss = np.concatenate([[-eps0], edges[:-1] + edges[1:] - eps0, [eps0]])
    mass = np.concatenate([[0.5 * math.exp(-eps0)], mass_mid, [0.5]])
    return _windowed_profile(*_split(loss, mass, h), k, h, eps)


def eps_for(delta_of: object, delta: float, hi: float = 100.0) -> float:
    """The eps where a decreasing profile crosses delta (bisection)."""
    lo_e, hi_e = 0.0, hi
    for _ in range(60):
        mid = (lo_e + hi_e) / 2
        if delta_of(mid) > delta:  # type: ignore[operator]
            lo_e = mid
        else:
            hi_e = mid
    return (lo_e + hi_e) / 2
