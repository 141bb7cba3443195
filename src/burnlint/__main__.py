"""``python -m burnlint``."""

from burnlint.cli import main

if __name__ == "__main__":
    main()
