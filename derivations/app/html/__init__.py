"""``dpderive html``: the catalog as a static site (Jinja2 templates, MathML, a little
vanilla JavaScript), readable offline from ``file://``, with a teaching mode."""

from derivations.app.html.command import HELP, add_arguments, run
from derivations.app.html.site import PLOT_OWNERS, Proof, SiteSummary, build_site

__all__ = ["HELP", "PLOT_OWNERS", "Proof", "SiteSummary", "add_arguments", "build_site", "run"]
