"""The readers: what users type, read into the engine's objects -- SymPy syntax
(:mod:`.syntax`, an AST whitelist, never ``eval``), LaTeX (:mod:`.latex`), and the
TOML claim and proof files (:mod:`.claim_files`, :mod:`.proof_files`, their
families and ``[certify]`` tables).  Below the application: they import the
engine only, never the catalog, the printers or the app (issue 42)."""

__all__: list[str] = []
