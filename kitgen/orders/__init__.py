"""Orders written on the faction order form (PDF or CSV), read back into a turn log."""
