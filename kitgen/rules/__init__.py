"""The rules as pure functions over the scenario's data: no drawing, no files."""
