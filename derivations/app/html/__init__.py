"""``dpderive html``: the catalog as a static site (Jinja2 templates, MathML, a little
vanilla JavaScript), readable offline from ``file://``, with a teaching mode.

The site's names are imported on first use (PEP 562): the command line imports this
package for the verb's arguments, and Jinja2 and the site's modules are not needed then."""

from typing import Any as _Any

from derivations.app.html.command import HELP, add_arguments, run

__all__ = ["HELP", "PLOT_OWNERS", "Proof", "SiteSummary", "add_arguments", "build_site", "run"]

_SITE_NAMES = ("PLOT_OWNERS", "Proof", "SiteSummary", "build_site")


def __getattr__(name: str) -> _Any:
    if name in _SITE_NAMES:
        from derivations.app.html import site

        return getattr(site, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
