"""``python -m tests.support.generator OUT_DIR --n 200 --seed 42 --jobs 5``."""

from tests.support.generator.corpus import main

main()
