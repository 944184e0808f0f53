"""The umpire's forms beside the order form: a battle report for each contact and the roll sheet.
What each asks (its rows, as data), where its bubbles stand, and what a filled one says, read
from a PDF filled on screen or from a scan; the record writes what they say into the log."""
