"""The committed sample corpus (corpus/) that `make run` loads.

Its CVs, job documents and ground_truth.jsonl were written by the test-support
generator (tests/support/generator, `make sample-data`); showcase/ is hand-written.
"""
