"""Shared by the plot scripts: Agg backend, saving, and the JSON-in/PNG-out CLI.

Every plot script reads an experiment's result document (ubsim EXPERIMENT
--format json, or <stem>.json in an --out directory): its "results" rows are
the same self-describing objects the CSV and the table are made from.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402,F401  (re-exported for the scripts)


def save(fig, png_path):
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


def size_text(b):
    """A byte count as the experiments write sizes: 4 KiB, 1 MiB, 100 B."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= scale and b % scale == 0:
            return f"{b // scale} {unit}"
    return f"{b} B"


def field(row, dotted, default=None):
    """A row's field by dotted path ("latency_ns.mean")."""
    v = row
    for part in dotted.split("."):
        if not isinstance(v, dict) or part not in v:
            return default
        v = v[part]
    return v


def cli(main, doc):
    """Runs main(rows, png_path) from the command line: rows = the document's results."""
    if len(sys.argv) != 3:
        sys.exit(doc)
    with open(sys.argv[1]) as f:
        document = json.load(f)
    main(document["results"], sys.argv[2])
