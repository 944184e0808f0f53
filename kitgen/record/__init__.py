"""The campaign record: the turn logs, read, locked, merged, backed up and restored.

Every command that writes a log (`orders import`, `next`, `restore`) goes through this package:
it holds the campaign's lock while it reads, checks and writes (`lock.py`), writes a log only if
no one changed it on disk since it was read, keeping its earlier version (`logfile.py`,
`backups.py`), and knows where the turn being played stands (`unfinished.py`, `status.py`).
"""
