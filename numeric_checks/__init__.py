"""Numeric layers of dpderive: mpmath evaluation, sampling, spot checks, counterexample
search and oracles.  May import :mod:`symbolic`; never imports :mod:`derivations`."""
