"""Independent numeric computations of theorems' conclusions from first principles."""
