"""The limits on what kitgen reads: one per kind of input, the same for every command that reads
it (`validate`, `status` and every writer for a turn log; `orders scan` and `orders check` for
scans; `orders import` for a spreadsheet or a PDF filled on screen, whether it holds order forms,
report forms or the roll sheet). The manual's table of limits (docs/reference/data.md) is made from this module's values.

Each is checked before the work it bounds: a file's size from the disk before it is read
(`kitgen.inputs`), a YAML file's nesting and values as it is parsed, a picture's pages and pixels
from its header before a page is decoded, a PDF's pages from its page tree before a page is
rendered or walked, a field's name and value before any pattern or reading. An input past a limit
is refused with a catalogued message saying what was found and the limit."""

from __future__ import annotations

# --- files of YAML: the scenario's files, campaign.yaml, setup.yaml --------------------------------

TEXT_BYTES = 20 * 1024 * 1024
"""A scenario's or a campaign's file of YAML read at most (the bundled scenario's largest is under
50 kB)."""
YAML_VALUES = 250_000
"""Values of one YAML file after its aliases are expanded: a guard against "billion laughs"."""
YAML_DEPTH = 64
"""Nesting of lists and mappings in a YAML file (kitgen's files nest at most about 8 deep)."""

# --- the campaign record: turn logs, their backups and the backups' index ---------------------------

LOG_BYTES = 2 * 1024 * 1024
"""A turn log read at most, by every command, reader or writer, and a backup of one (the sample's
longest log is 9 kB; a turn of 200 units' orders with comments is about 60 kB)."""
INDEX_BYTES = 8 * 1024 * 1024
"""The index of backups read at most (a line of 100 bytes a write: 80,000 writes)."""

# --- spreadsheets of orders (`orders import` of a .csv) --------------------------------------------

CSV_BYTES = 2 * 1024 * 1024
"""A spreadsheet of orders read at most (a faction's form as CSV is under 5 kB)."""
CSV_ROWS = 2000
"""Rows of orders in one spreadsheet at most (a faction has under 100 units, trains and ships)."""
PATH_LENGTH = 64
"""Hexes a path may name at most (the form holds 12, 16 for a ship; a spreadsheet holds any)."""

# --- files of scans: pictures (PNG, JPEG, TIFF) and PDFs of scanned pages -------------------------

SCAN_BYTES = 200 * 1024 * 1024
"""A file of scans read at most: a 50-page PDF of 300 dpi colour pages is well under it."""
SCAN_PAGES = 200
"""Pages of one file of scans (a multi-page TIFF or a PDF) at most: a week's forms of every faction
are a few dozen."""
PAGE_PIXELS = 60_000_000
"""A picture's page at most, in pixels (width x height), read from its header before it is decoded:
A4 at 600 dpi is 35 million, a 48-megapixel phone photo 48 million."""
DECODER_BYTES = 4 * PAGE_PIXELS
"""Memory a decoder may hold beside the page it decodes, as the header says it will: OpenCV holds a
TIFF's strip or tile at 4 bytes a pixel (8 for 16-bit samples), libjpeg a progressive JPEG's
coefficients at 2 bytes a sample. As much as a page of the most pixels stored in one strip."""
FILE_PIXELS = 2_000_000_000
"""The pixels of all the pages of one file of scans at most (a PDF's pages as rendered): 200 pages of
A4 at 300 dpi are 1,740 million. A file past it is refused before any page is decoded."""
PDF_DPI = 200
"""A PDF page of scans is rendered at this resolution: enough for any bubble, fast to read."""
READ_PIXELS = 10_000_000
"""A page is read in this many pixels at most (finding its markers and code takes about 13 bytes a
pixel): a picture larger is reduced to it as soon as it is decoded, a PDF page rendered in it (a
page larger than A4 at 300 dpi, 8.7 million, is read at the resolution that fits)."""
PAGE_POINTS = (144.0, 8640.0)
"""A PDF page of scans may be from 2 to 120 inches a side (in points): a form scanned on its
paper, or a phone's photo of one saved at 72 dpi (48 megapixels: 112 inches). A page outside is no
form's, and is refused before it is rendered."""
PAGE_ASPECT = 2.0
"""A PDF page of scans is at most twice as long as wide (A4 is 1.41, a 16:9 photo 1.78)."""

# --- PDFs filled on screen: order forms, report forms and the roll sheet (`orders import`) -------

FORM_PDF_BYTES = 20 * 1024 * 1024
"""A filled form's PDF read at most: a faction's order form is under 200 kB, the umpire's packet
with its maps and report forms about 1 MB."""
FORM_PAGES = 50
"""Pages of a filled form's PDF at most (the umpire's packet of the sample is 31), counted from its
page tree's /Count before any page is read, then along the tree, never past the limit."""
PDF_STRING_BYTES = 1024 * 1024
"""The bytes of all the strings of a filled form's PDF read at most (pypdf reads them a byte at a
time: 1 MB in hex takes a second): the sample's packets hold 27 kB of strings, none over 85 bytes."""
FIELD_CHARS = 8000
"""A form field's value at most, in characters (a path of 64 hexes is 320; the hidden field naming
the digest of each earlier turn's log grows 12 a turn: 8,000 is 660 turns): a longer one is
refused before it is read as orders, a turn or a state."""
FIELD_NODES = 200_000
"""Fields and their kids walked at most: a form has a few hundred; a hostile tree stops here."""
FIELD_DEPTH = 32
"""Fields nested in fields at most (a kitgen form's are not nested at all): a deeper tree is no
form's, and its walk stops there, before its names grow long."""
FIELD_NAME_CHARS = 300
"""The longest full field name read (a kitgen field's is under 100 characters): a longer one is
refused before any pattern is matched against it."""
