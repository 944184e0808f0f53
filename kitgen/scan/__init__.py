"""Paper order forms read back: scanned pages or photos, their markers and QR code found, every
bubble measured against its own ring, and the orders made from what is read for certain."""
