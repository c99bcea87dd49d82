"""The bibliography of the catalog: one entry per work, with its edition, cited by locator.

Every catalog :class:`~symbolic.derivation.Source` is made here, so that a work is named one
way and always carries the edition its theorem numbers refer to (the book's edition, the
venue, or the arXiv version):

>>> str(DWORK_ROTH.at("Theorem 3.6", seed="003"))  # doctest: +ELLIPSIS
'Dwork & Roth 2014, The Algorithmic Foundations of Differential Privacy, Theorem 3.6, Found...'
>>> DONG_ROTH_SU.at("Corollary 2.13").edition
'arXiv:1905.02383v3 (published in JRSS-B 84(1), 2022)'

A step that rests on a result outside the catalog cites it as ``by.cite(work.cite(locator))``.
"""

from __future__ import annotations

from dataclasses import dataclass

from symbolic.derivation import Source

__all__ = [
    "AZUMA",
    "BALLE_WANG",
    "BUN_STEINKE",
    "COVER_THOMAS",
    "DONG_ROTH_SU",
    "DPDERIVE",
    "DWORK_ROTH",
    "HOEFFDING",
    "KAIROUZ_OH_VISWANATH",
    "SEED_003_NOTES",
    "Work",
]


@dataclass(frozen=True)
class Work:
    """A work of the bibliography: how it is named and which edition its numbering follows."""

    name: str
    edition: str

    def at(self, locator: str, *, seed: str = "") -> Source:
        """The source ``locator`` (a theorem, a section) of this work; ``seed`` names the seed
        file that states it."""
        return Source(self.name, locator, self.edition, seed)

    def cite(self, locator: str = "") -> str:
        """A citation of ``locator`` in this work (or of the whole work), for ``by.cite``.

        >>> AZUMA.cite()
        'Azuma 1967, Weighted sums of certain dependent random variables'
        """
        return ", ".join(p for p in (self.name, locator) if p)


DWORK_ROTH = Work(
    "Dwork & Roth 2014, The Algorithmic Foundations of Differential Privacy",
    "Foundations and Trends in Theoretical Computer Science 9(3-4)",
)
DONG_ROTH_SU = Work(
    "Dong, Roth & Su, Gaussian Differential Privacy",
    "arXiv:1905.02383v3 (published in JRSS-B 84(1), 2022)",
)
KAIROUZ_OH_VISWANATH = Work(
    "Kairouz, Oh & Viswanath 2015, The Composition Theorem for Differential Privacy",
    "ICML 2015 (PMLR 37)",
)
AZUMA = Work(
    "Azuma 1967, Weighted sums of certain dependent random variables",
    "Tohoku Mathematical Journal 19(3)",
)
COVER_THOMAS = Work(
    "Cover & Thomas 2006, Elements of Information Theory",
    "2nd edition (Wiley)",
)
HOEFFDING = Work(
    "Hoeffding 1963, Probability inequalities for sums of bounded random variables",
    "Journal of the American Statistical Association 58(301)",
)
BALLE_WANG = Work(
    "Balle & Wang 2018, Improving the Gaussian Mechanism for Differential Privacy",
    "ICML 2018 (PMLR 80)",
)
BUN_STEINKE = Work(
    "Bun & Steinke 2016, Concentrated Differential Privacy",
    "TCC 2016-B",
)
SEED_003_NOTES = Work(
    "seed 003 (notes on Dwork & Roth 2014)",
    "seed file 003_dcd051e7843141d6",
)
DPDERIVE = Work("dpderive", "this catalog's own result")
