#!/usr/bin/python3
"""One column of a sweep's merged CSV against a swept key, one line per
combination of the other swept keys.

usage: plot_sweep.py sweep.csv METRIC XKEY out.png
"""
import csv
import json
import os
import re
import sys
from collections import OrderedDict

from plot_common import plt, save

UNITS = {"fs": 1e-6, "ps": 1e-3, "ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9,
         "Hz": 1.0, "kHz": 1e3, "MHz": 1e6, "GHz": 1e9}


def number(text):
    """The value of '50ns', '322MHz', '4096B' or '0.5' (in the unit's own scale)."""
    m = re.match(r"^\s*([-+0-9.eE]+)\s*([A-Za-z/]*)\s*$", text)
    if not m:
        return None
    return float(m.group(1)) * UNITS.get(m.group(2), 1.0)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    csv_path, metric, xkey, png = sys.argv[1:]
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    # the swept keys are named in sweep.json beside the CSV
    with open(os.path.join(os.path.dirname(csv_path), "sweep.json")) as f:
        swept = json.load(f)["swept"]
    group_by = [k for k in swept if k != xkey] + [k for k in ("path", "stack", "mode") if rows and k in rows[0]]
    groups = OrderedDict()
    for r in rows:
        if r.get(metric, "") == "":
            continue
        groups.setdefault(", ".join(f"{k}={r[k]}" for k in group_by), []).append(r)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, rs in groups.items():
        pts = sorted((number(r[xkey]), float(r[metric])) for r in rs if number(r[xkey]) is not None)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label or metric)
    ax.set_xlabel(xkey)
    ax.set_ylabel(metric)
    ax.grid(True, alpha=0.3)
    if len(groups) > 1:
        ax.legend(fontsize=7)
    ax.set_title(f"{metric} vs {xkey} (sweep, measured)", fontsize=9)
    save(fig, png)


if __name__ == "__main__":
    main()
