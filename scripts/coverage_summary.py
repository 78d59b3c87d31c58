#!/usr/bin/python3
"""Per RTL file: the line and toggle coverage points of a merged verilator_coverage
data file, how many were hit, and the files' uncovered lines.

usage: coverage_summary.py coverage.dat
"""
import collections
import os
import sys


def points(path):
    """(file, kind, line, count) of every coverage point."""
    with open(path, encoding="latin-1") as f:
        for raw in f:
            if not raw.startswith("C '"):
                continue
            body, _, count = raw.rstrip("\n").rpartition("' ")
            fields = {}
            for kv in body[3:].split("\x01"):
                if "\x02" in kv:
                    k, v = kv.split("\x02", 1)
                    fields[k] = v
            page = fields.get("page", "")
            kind = page.split("/")[0].replace("v_", "")
            yield os.path.basename(fields.get("f", "?")), kind, int(fields.get("l", "0")), int(count)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    total = collections.defaultdict(lambda: collections.Counter())
    missed = collections.defaultdict(set)
    for f, kind, line, count in points(argv[1]):
        total[(f, kind)]["all"] += 1
        if count > 0:
            total[(f, kind)]["hit"] += 1
        elif kind == "line":
            missed[f].add(line)
    files = sorted({f for f, _ in total})
    print(f"{'file':<24} {'line points':>16} {'toggle points':>18}")
    for f in files:
        cells = []
        for kind in ("line", "toggle"):
            c = total.get((f, kind))
            cells.append(f"{c['hit']}/{c['all']} ({100 * c['hit'] / c['all']:.1f} %)" if c and c["all"] else "-")
        print(f"{f:<24} {cells[0]:>16} {cells[1]:>18}")
    print("\nlines never executed (line points with count 0):")
    for f in files:
        if missed[f]:
            lines = sorted(missed[f])
            print(f"  {f}: {', '.join(map(str, lines[:40]))}{' ...' if len(lines) > 40 else ''}")


if __name__ == "__main__":
    main(sys.argv)
