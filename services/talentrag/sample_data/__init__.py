"""Synthetic CV corpus with exact ground truth (see generator.py)."""
