"""The sum rules: links about sums and products of symbolic length, proved for every length
at once (issue 24).  :mod:`.prove` decides a link from the normal form of :mod:`.normal`
with what :mod:`.setup` reads from the hypotheses; :mod:`.factors`, :mod:`.elements` and
:mod:`.products` are its steps; :mod:`.peel` is the step of an induction on a length."""

from symbolic.rules.sums.prove import has_family_sums, prove_sums

__all__ = ["has_family_sums", "prove_sums"]
