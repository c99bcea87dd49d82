"""The application around the catalog: the ``dpderive`` command line (:mod:`.cli`, with its
exit codes in :mod:`.exitcodes`), claim files (:mod:`.claims`), the NumericSparse simulation
verb (:mod:`.sparse`), plots (:mod:`.plots`) and pdflatex/pdftoppm rendering
(:mod:`.pdflatex`).  Printing itself lives in :mod:`derivations.printing`."""

from derivations.app.cli import main

__all__ = ["main"]
