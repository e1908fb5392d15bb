"""`evo`: Babylon 5 fighters on Battlefield Evolution (seed 001)."""
