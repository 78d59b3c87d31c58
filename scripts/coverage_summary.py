#!/usr/bin/python3
"""Per RTL file: the line, toggle and named cover points (SystemVerilog `cover
property`, labelled cp_*) of a merged verilator_coverage data file, how many
were hit, the files' uncovered lines, and every named cover point never hit.
With --miscounted FILE (coverage_order_check.py's output), the points listed
there, which Verilator counts before their condition is evaluated, are left
out of the totals and listed; a named one among them fails the run too.

usage: coverage_summary.py coverage.dat [--miscounted FILE]
exit status 1 when a named cover point was never hit or is miscounted.
"""
import collections
import os
import sys


def points(path):
    """(file, kind, line, name, count) of every coverage point, summed over the
    instances of its module (every hierarchy and parameterization that holds
    it: a line or bit of a file counts as covered when any instance covered it)."""
    merged = collections.Counter()
    for f, kind, line, col, name, count in raw_points(path):
        merged[(f, kind, line, col, name)] += count
    for (f, kind, line, _, name), count in merged.items():
        yield f, kind, line, name, count


def raw_points(path):
    """(file, kind, line, column, name, count) of every point as written."""
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
            yield (os.path.basename(fields.get("f", "?")), kind, int(fields.get("l", "0")), fields.get("n", ""),
                   fields.get("o", ""), int(count))


def miscounted_points(path):
    """{(file, kind, line)} and the named points ({(file, name)}) of a
    coverage_order_check.py listing ("<file>:<line> <kind> <name>")."""
    lines, named = set(), set()
    with open(path, encoding="utf-8") as f:
        for raw in f:
            where, kind, name = raw.split()
            file, line = where.rsplit(":", 1)
            if kind == "user":
                named.add((file, name.rsplit(".", 1)[-1]))
            else:
                lines.add((file, kind, int(line)))
    return lines, named


def main(argv):
    if len(argv) == 4 and argv[2] == "--miscounted":
        miscounted, miscounted_named = miscounted_points(argv[3])
    elif len(argv) == 2:
        miscounted, miscounted_named = set(), set()
    else:
        sys.exit(__doc__)
    total = collections.defaultdict(lambda: collections.Counter())
    missed = collections.defaultdict(set)
    covers = collections.defaultdict(int)   # (file, name) -> hits
    for f, kind, line, name, count in points(argv[1]):
        if kind == "user":
            covers[(f, name)] += count
            continue
        if (f, kind, line) in miscounted:
            continue
        total[(f, kind)]["all"] += 1
        if count > 0:
            total[(f, kind)]["hit"] += 1
        elif kind == "line":
            missed[f].add(line)
    for (f, _), count in covers.items():
        total[(f, "user")]["all"] += 1
        total[(f, "user")]["hit"] += count > 0
    files = sorted({f for f, _ in total})
    print(f"{'file':<24} {'line points':>16} {'toggle points':>18} {'cover points':>14}")
    for f in files:
        cells = []
        for kind in ("line", "toggle", "user"):
            c = total.get((f, kind))
            if kind == "user":
                cells.append(f"{c['hit']}/{c['all']}" if c and c["all"] else "-")
            else:
                cells.append(f"{c['hit']}/{c['all']} ({100 * c['hit'] / c['all']:.1f} %)" if c and c["all"] else "-")
        print(f"{f:<24} {cells[0]:>16} {cells[1]:>18} {cells[2]:>14}")
    never = sorted(k for k, count in covers.items() if count == 0)
    print(f"\nnamed cover points: {len(covers) - len(never)} of {len(covers)} hit")
    for f, name in never:
        print(f"  never hit: {f} {name}")
    if miscounted or miscounted_named:
        print("\ncounted before their condition's function is evaluated (Verilator 5.006;"
              " coverage_order_check.py), left out of the totals:")
        for f, name in sorted(miscounted_named):
            print(f"  named: {f} {name}")
        by_file = collections.defaultdict(list)
        for f, kind, line in sorted(miscounted, key=lambda p: (p[0], p[2])):
            by_file[f].append(f"{line} ({kind})")
        for f, where in sorted(by_file.items()):
            print(f"  {f}: {', '.join(where)}")
    print("\nlines never executed (line points with count 0):")
    for f in files:
        if missed[f]:
            lines = sorted(missed[f])
            print(f"  {f}: {', '.join(map(str, lines[:40]))}{' ...' if len(lines) > 40 else ''}")
    return 1 if never or miscounted_named else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
