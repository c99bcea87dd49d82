r"""Words and mathematics on the site's pages: prose with its formulas typeset, and page
text with the signs a reader expects (issue 43).

- :func:`prose_html`: a statement, a justification, a title as the book sets them: the runs
  of ASCII mathematics are found as the book finds them
  (:func:`derivations.printing.latex.prose.prose_latex`) and set as MathML, an author's
  ``$...$`` as MathML from their LaTeX; the words in between escaped.  The page showed
  ``|f(x) - f(y)| <= Delta f`` in a sentence and ``$k$`` in a reason.
- :func:`page_typography`: the last pass over a written page: in its text (never inside
  ``<code>``, ``<pre>``, tags or attributes) ``<=``, ``>=``, ``!=``, ``->`` and ``+-``
  become ≤ ≥ ≠ → ±, a spaced or leading hyphen before a number or between operands a minus
  sign; inside ``<math>`` a hyphen-minus operator becomes a minus sign, and SymPy's
  double-struck ⅇ and ⅆ an e and a d as the book prints them.

>>> str(prose_html("the ratio is at most e^eps"))[:38]
'the ratio is at most <span class="im">'
>>> page_typography("<p>Abs(x - 1) &lt;= 2, residual -0.18 +- 1e-06</p><code>a - b</code>")
'<p>Abs(x − 1) ≤ 2, residual −0.18 ± 1e-06</p><code>a - b</code>'
"""

from __future__ import annotations

import re
from html import escape

from markupsafe import Markup

from derivations.printing.latex.prose import prose_latex
from derivations.printing.latex_mathml import Untypeset, latex_pieces, plain_math

__all__ = ["page_typography", "prose_html"]

_AUTHOR_MATH = re.compile(r"\$([^$]+)\$")
_FILE = re.compile(r"[A-Za-z0-9_./-]+\.(?:toml|tex|json|py|txt)")


def _math(latex: str) -> str:
    """A run of mathematics as MathML, cut before its top-level signs and relations into
    pieces that a line may break between (a justification holds whole chains of
    inequalities, which as one ``<math>`` widened the chain past the window)."""
    try:
        pieces = latex_pieces(latex, also="/,:", lenient=True)
        return "\u2009".join(f'<span class="im"><math class="m">{p}</math></span>' for p in pieces)
    except Untypeset:
        # Never TeX source posing as mathematics: its symbols as characters, escaped.
        return escape(plain_math(latex), quote=False)


def _path(word: str) -> str:
    m = _FILE.search(word)
    if m is None:
        return escape(word, quote=False)
    head, name, tail = word[: m.start()], m.group(0), word[m.end() :]
    return escape(head, quote=False) + f"<code>{escape(name)}</code>" + escape(tail, quote=False)


def _words(text: str) -> str:
    return escape(text, quote=False)


def prose_html(text: str) -> Markup:
    """``text`` as HTML: an author's ``$...$`` and the runs of ASCII mathematics as MathML,
    the rest escaped."""
    out: list[str] = []
    last = 0
    for m in _AUTHOR_MATH.finditer(text):
        out.append(prose_latex(text[last : m.start()], plain=_words, math=_math, path=_path))
        out.append(_math(m.group(1)))
        last = m.end()
    rest = prose_latex(text[last:], plain=_words, math=_math, path=_path)
    # prose_latex joins its words with single spaces: the spaces around an author's $...$
    # come from the text itself.
    joined = "".join(out) + rest
    # `dpderive claim`: a command, set as code (issue 43)
    return Markup(re.sub(r"`([^`<]+)`", r"<code>\1</code>", joined))


_SKIP = re.compile(r"<(code|pre|script|style)\b.*?</\1>|<[^>]+>", re.S)
_MATH = re.compile(r"<math\b.*?</math>", re.S)
_TEXT_SIGNS = (
    (re.compile(r"&lt;="), "≤"),
    (re.compile(r"&gt;="), "≥"),
    (re.compile(r"!="), "≠"),
    (re.compile(r"-&gt;"), "→"),
    (re.compile(r"\+-(?=\s|\d)"), "±"),
    (re.compile(r"(?<=\s)-(?=\s)"), "−"),  # a - b
    (re.compile(r"(?<![\w.\-])-(?=\d|\.\d)"), "−"),  # -0.18, (-1, but not 1e-06 or eps-DP
    (re.compile(r"(?<=\()-(?=[A-Za-z])"), "−"),  # (-Abs(...
)
_MATH_SIGNS = (
    ("<mo>-</mo>", "<mo>−</mo>"),
    ("<mi>&ExponentialE;</mi>", "<mi>e</mi>"),
    ("&ExponentialE;", "e"),
    ("<mo>&dd;</mo>", '<mspace width="0.1667em"></mspace><mi mathvariant="normal">d</mi>'),
    ("&dd;", "d"),
    ("\u2147", "e"),
    ("\u2146", "d"),
)


def _text(chunk: str) -> str:
    for pattern, sign in _TEXT_SIGNS:
        chunk = pattern.sub(sign, chunk)
    return chunk


def _math_signs(math: str) -> str:
    for old, new in _MATH_SIGNS:
        math = math.replace(old, new)
    return math


def page_typography(page: str) -> str:
    """``page`` with the signs of its text and its MathML as a reader expects them (see the
    module's docstring); markup, code and attributes untouched."""
    out: list[str] = []
    last = 0
    for m in _MATH.finditer(page):
        out.append(_outside_math(page[last : m.start()]))
        out.append(_math_signs(m.group(0)))
        last = m.end()
    out.append(_outside_math(page[last:]))
    return "".join(out)


def _outside_math(html: str) -> str:
    out: list[str] = []
    last = 0
    for m in _SKIP.finditer(html):
        out.append(_text(html[last : m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(_text(html[last:]))
    return "".join(out)
