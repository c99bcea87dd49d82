r"""Plain text for LaTeX text mode: TeX's special characters escaped, the Unicode symbols
of the catalog's prose as maths, and a run of Chinese (the seeds' own words) set in Chinese.
Mathematics written in ASCII is :mod:`derivations.printing.latex.prose`'s."""

from __future__ import annotations

import re

__all__ = ["latex_text"]

_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


_UNICODE = {
    "∩": r"$\cap$",
    "∪": r"$\cup$",
    "≤": r"$\le$",
    "≥": r"$\ge$",
    "ε": r"$\varepsilon$",
    "δ": r"$\delta$",
    "α": r"$\alpha$",
    "β": r"$\beta$",
    "μ": r"$\mu$",
    "∞": r"$\infty$",
    "−": "-",
    "·": r"$\cdot$",
    "×": r"$\times$",
    "→": r"$\to$",
    "√": r"$\surd$",
    "⊆": r"$\subseteq$",
    "∈": r"$\in$",
    "′": "'",
    "…": r"\ldots{}",
    "Σ": r"$\Sigma$",
    "≡": r"$\equiv$",
    "⊥": r"$\bot$",
    "κ": r"$\kappa$",
    "≠": r"$\ne$",
    # Issue 43: these printed as [U+00A0], or as a quote mark where code was meant.
    "\u00a0": "~",
    "±": r"$\pm$",
    "≈": r"$\approx$",
    "‘": "`",
    "’": "'",
    "“": "``",
    "”": "''",
    "–": "--",
    "—": "---",
    "γ": r"$\gamma$",
    "λ": r"$\lambda$",
    "σ": r"$\sigma$",
    "ρ": r"$\rho$",
    "τ": r"$\tau$",
    "θ": r"$\theta$",
    "π": r"$\pi$",
    "Δ": r"$\Delta$",
    "Φ": r"$\Phi$",
    "⊗": r"$\otimes$",
    "∘": r"$\circ$",
    "‖": r"$\|$",
    "✓": r"$\checkmark$",
}
_CJK = re.compile(r"([\u3000-\u9fff\uff00-\uffef]+)")


def _char(c: str) -> str:
    if c in _TEXT_ESCAPES:
        return _TEXT_ESCAPES[c]
    if c in _UNICODE:
        return _UNICODE[c]
    if c in "\n\t":
        return " "
    if ord(c) > 126 or ord(c) < 32:
        # Never an input error in pdflatex; and a carriage return (TeX's end of line) or
        # another control character could end the line or the group early.
        return f"[U+{ord(c):04X}]"
    return c


def latex_text(text: str) -> str:
    r"""Plain text for LaTeX text mode: specials escaped, ``<=``/``>=`` as math, a run of
    Chinese as the argument of ``\zh`` (which our preamble defines: CJKutf8's Song font,
    or a marker where that is not installed).

    >>> latex_text("|f(x) - f(y)| <= Delta_f & 5%")
    '|f(x) - f(y)| $\\le$ Delta\\_f \\& 5\\%'
    >>> latex_text("X ∩ D_i")
    'X $\\cap$ D\\_i'
    >>> latex_text("差分隐私 ⊆ √2")
    '\\zh{差分隐私} $\\subseteq$ $\\surd$2'
    """
    # A quote in the seed's own words is what a reader searches the source for: it is set in
    # Chinese, never transliterated or dropped.
    out = "".join(
        rf"\zh{{{part}}}" if k % 2 else "".join(_char(c) for c in part)
        for k, part in enumerate(_CJK.split(text))
    )
    out = out.replace("<=", r"$\le$").replace(">=", r"$\ge$")
    # +- of a residual ball is a plus-minus sign, not "+ -" (issue 43)
    out = re.sub(r"\+-(?=[\s\d.])", r"$\\pm$", out)
    # `dpderive claim`: a command, in type, not between two opening quotes (issue 43)
    out = re.sub(r"`([^`]+)`", r"\\texttt{\1}", out)
    return re.sub(r"(?<![\\$])([<>])", r"$\1$", out)
