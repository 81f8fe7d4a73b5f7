"""Documents in: reading, structure, skills with evidence, and the write into both stores."""
