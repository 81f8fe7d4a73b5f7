"""Build steps for generated vocabulary data (run by ``make vocabulary-esco``, not by tests)."""
