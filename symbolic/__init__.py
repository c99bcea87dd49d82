"""Symbolic engine of dpderive: derivation data, relations, verdicts, tactics and rules,
expression parsing and printing.  Imports no other package of this project."""
