"""The catalog of DP derivations and the ``dpderive`` command line."""
