"""Shared by the plot scripts: Agg backend, saving, and the CSV-in/PNG-out CLI."""
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402,F401  (re-exported for the scripts)


def save(fig, png_path):
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


def cli(main, doc):
    """Runs main(csv_path, png_path) from the command line."""
    if len(sys.argv) != 3:
        sys.exit(doc)
    main(sys.argv[1], sys.argv[2])
