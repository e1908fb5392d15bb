"""`acta`: fighters for A Call to Arms: Star Fleet (seed 000)."""
