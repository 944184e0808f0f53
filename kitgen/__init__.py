"""kitgen: print-ready kits and turn packets for the 1919-1920 South Russia campaign."""

__version__ = "0.1.0"
