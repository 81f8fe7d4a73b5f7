"""One home per policy: change a rule here and every layer follows.

- ``levels``: experience-level bands and how they are worded.
- ``credits``: how much a held skill counts for a requested one.
- ``limits``: sizes the service accepts and returns.
- ``duplicates``: when two CVs count as one CV stored twice.
"""
