#!/usr/bin/python3
"""Merges the FST waveforms of several verilated blocks (one file per block, as ubsim
writes them) into one FST, each block's hierarchy under a scope named after it, so
GTKWave shows them side by side on one time axis.

usage: merge_fst.py OUT.fst NAME=IN.fst [NAME=IN.fst ...]

Each input is read with fst2vcd, the value changes merged by time and the result
written with vcd2fst (both from gtkwave). The inputs must share one timescale.
"""
import heapq
import os
import subprocess
import sys
import tempfile


def vcd_id(n):
    """The n-th VCD identifier code (printable ASCII 33..126)."""
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 94)
        out += chr(33 + r)
    return out


def read_vcd(text):
    """Header lines (scope/var, ids as given), timescale, and the body lines."""
    lines = text.splitlines()
    header, timescale, i = [], None, 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if line.startswith("$timescale"):
            parts = [line]
            while "$end" not in parts[-1]:
                parts.append(lines[i].strip())
                i += 1
            timescale = " ".join(parts).replace("$timescale", "").replace("$end", "").strip()
        elif line.startswith(("$scope", "$upscope", "$var")):
            header.append(line)
        elif line.startswith("$enddefinitions"):
            break
    return header, timescale, lines[i:]


def changes(body, remap):
    """(time, line) for every value change of a VCD body, ids remapped."""
    t = 0
    for raw in body:
        line = raw.strip()
        if not line or line.startswith("$"):
            continue
        if line[0] == "#":
            t = int(line[1:])
            continue
        if line[0] in "bBrR":   # vector / real: "b1010 id"
            value, ident = line.split()
            yield t, f"{value} {remap[ident]}"
        else:                   # scalar: "1id"
            yield t, line[0] + remap[line[1:]]


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    out = argv[1]
    blocks = []
    for arg in argv[2:]:
        name, _, path = arg.partition("=")
        if not path:
            sys.exit(f"merge_fst: '{arg}' is not NAME=FILE")
        text = subprocess.run(["fst2vcd", path], check=True, capture_output=True, text=True).stdout
        blocks.append((name, read_vcd(text)))
    timescales = {ts for _, (_, ts, _) in blocks}
    if len(timescales) != 1:
        sys.exit(f"merge_fst: the inputs have different timescales: {sorted(timescales)}")
    next_id = 0
    header, streams = [], []
    for name, (lines, _, body) in blocks:
        remap = {}
        header.append(f"$scope module {name} $end")
        for line in lines:
            if line.startswith("$var"):
                parts = line.split()   # $var type width id name [range] $end
                if parts[3] not in remap:
                    remap[parts[3]] = vcd_id(next_id)
                    next_id += 1
                parts[3] = remap[parts[3]]
                line = " ".join(parts)
            header.append(line)
        header.append("$upscope $end")
        streams.append(changes(body, remap))
    with tempfile.TemporaryDirectory() as tmp:
        vcd = os.path.join(tmp, "merged.vcd")
        with open(vcd, "w") as f:
            f.write(f"$timescale {timescales.pop()} $end\n")
            f.write("\n".join(header) + "\n$enddefinitions $end\n")
            now = None
            for t, line in heapq.merge(*streams, key=lambda c: c[0]):
                if t != now:
                    f.write(f"#{t}\n")
                    now = t
                f.write(line + "\n")
        partial = out + ".partial"
        subprocess.run(["vcd2fst", vcd, partial], check=True, capture_output=True)
        os.replace(partial, out)


if __name__ == "__main__":
    main(sys.argv)
