#!/usr/bin/python3
"""Coverage points whose counter Verilator's generated C++ guards with a
function's result read before the function is evaluated.

Verilator 5.006 inlines a SystemVerilog function called in an `if`
condition or a `cover property` as a local temporary (`__Vfunc_*__Vfuncout`)
that the inlined body assigns. Under `--coverage` it can place a coverage
counter's increment, guarded by that temporary, ahead of the inlined body in
the same C++ function: the guard then reads the temporary's initial 0, not
the function's value, and the point is counted wrongly (a `cover property`
on `rcvd_at(psn + 1)` was never hit while the reference block's copy of it,
on the same inputs, was). The model's own logic is not affected: its reads
follow the body (a read of this kind outside a coverage guard is reported
as well, as an error).

usage: coverage_order_check.py VERILATED_DIR...   (each a model's --Mdir)
prints one line per affected point: "<file>:<line> <kind> <name>"; exit
status 1 when any named cover point (kind user) or model logic is affected.
"""
import glob
import os
import re
import sys

FUNC_START = re.compile(r"^(?:VL_INLINE_OPT |VL_ATTR_COLD )?(?:static )?void \w+\(.*\) \{$", re.M)
TEMP = re.compile(r"__Vfunc_\w+__Vfuncout")
COUNTER = re.compile(r"__Vcoverage\[(\d+)\]")
INSERT = re.compile(r'__vlCoverInsert\(&\(vlSymsp->__Vcoverage\[(\d+)\]\), first, "([^"]*)", (\d+), \d+, "([^"]*)", "([^"]*)"')


def is_write(body, end):
    """The occurrence ending at `end` is assigned: `X = `, `X[i] = ` or the
    output argument of a VL_*_W helper (`VL_ZERO_W(n, X)`, `VL_ASSIGN_W(n, X, ...)`)."""
    rest = body[end:]
    m = re.match(r"\s*(\[[^\]]*\])?\s*=(?!=)", rest)
    if m:
        return True
    before = body[max(0, end - 200):end]
    return re.search(r"VL_\w+_W\w*\(\s*\d+\s*(,\s*\d+\s*)*,\s*\w+$", before) is not None


def guarded_counters(body, pos):
    """The counters in the block an `if` condition at `pos` guards, or None
    when the read at `pos` is not in an `if` condition."""
    stmt_start = max(body.rfind(";", 0, pos), body.rfind("{", 0, pos), body.rfind("}", 0, pos)) + 1
    if not body[stmt_start:pos].lstrip().startswith("if ("):
        return None
    brace = body.find("{", pos)
    depth, i = 0, brace
    while i < len(body):
        if body[i] == "{":
            depth += 1
        elif body[i] == "}":
            depth -= 1
            if depth == 0:
                break
        i += 1
    return [int(n) for n in COUNTER.findall(body[brace:i])]


def check_function(body):
    """(counters guarded by an early read, True if a read outside a guard)."""
    counters, logic = set(), False
    seen = {}   # temporary -> "declared" | "set"
    for m in TEMP.finditer(body):
        name = m.group(0)
        line_start = body.rfind("\n", 0, m.start()) + 1
        if re.match(r"\s*(?:[A-Z]Data|VlWide<\d+>)", body[line_start:m.start()]):
            seen[name] = "declared"
            continue
        if is_write(body, m.end()):
            # the declaration's own initial value is not the function's
            initial = re.match(r"\s*=\s*0;", body[m.end():]) or body[max(0, m.start() - 15):m.start()].endswith("VL_ZERO_W(")
            if not (initial and seen.get(name) == "declared"):
                seen[name] = "set"
            continue
        if seen.get(name) == "declared":
            guarded = guarded_counters(body, m.start())
            if guarded is None or not guarded:
                logic = True
            else:
                counters.update(guarded)
    return counters, logic


def check_model(mdir):
    """[(file, line, kind, name)] of the affected points, and the generated
    files with an affected read in model logic."""
    names = {}
    for f in glob.glob(os.path.join(mdir, "*__Slow.cpp")):
        with open(f, encoding="utf-8", errors="replace") as fh:
            for m in INSERT.finditer(fh.read()):
                names[int(m.group(1))] = (os.path.basename(m.group(2)), int(m.group(3)),
                                          m.group(5).split("/")[0].replace("v_", ""), m.group(4))
    affected, logic_files = set(), []
    for f in sorted(glob.glob(os.path.join(mdir, "*.cpp"))):
        if f.endswith("__Slow.cpp"):
            continue
        with open(f, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        starts = [m.start() for m in FUNC_START.finditer(text)] + [len(text)]
        for a, b in zip(starts, starts[1:]):
            counters, logic = check_function(text[a:b])
            affected.update(names[c] for c in counters if c in names)
            if logic:
                logic_files.append(os.path.basename(f))
    return affected, logic_files


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    affected, logic_files = set(), []
    for mdir in argv[1:]:
        a, l = check_model(mdir)
        affected |= a
        logic_files += l
    # (one line per point of a file: the instances of a module share it)
    for f, line, kind, name in sorted({(f, line, kind, name if kind == "user" else "-") for f, line, kind, name in affected}):
        print(f"{f}:{line} {kind} {name}")
    for f in logic_files:
        print(f"{f}: a function's result read before it is evaluated outside a coverage guard", file=sys.stderr)
    return 1 if logic_files or any(kind == "user" for _, _, kind, _ in affected) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
