"""`sfa`: Space Fighter Alpha, hex-map spacecraft combat for Street Fighter (seed 003)."""
