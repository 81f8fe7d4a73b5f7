"""Test support code: the synthetic corpus generator (not part of the runtime package)."""
