"""The campaign map: projection, hex grid, the grid built from the scenario's geography, its cache."""
