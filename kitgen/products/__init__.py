"""Products: which pages go in which file (the map sheets now; the kit and turn packets later)."""
