"""Validated data models: the scenario and its rule tables."""
