#!/usr/bin/python3
"""One self-contained HTML page over a reproduce output folder: at the top every
spec target of the experiments present with its verdict; then per experiment its
plot, one table per kind of row (units in the headers, figures rounded to what
their unit resolves), the configuration's difference from the defaults and its
provenance; the waveforms with the gtkwave command and save file that open them;
the timelines; whether area figures are there. Paths are shown relative to the
output folder.

usage: report.py OUT_DIR DEFAULTS.json FIELDS.json SOURCE_DIR PAGE_FILE

FIELDS.json is every experiment's documented result fields (name, unit,
meaning), written by `ubsim report`. PAGE_FILE is the private temporary file
(made by `ubsim report`) the page is written into; ubsim renames it to
OUT_DIR/index.html once it is complete. A result file that cannot be read or is
not a result document is listed as unreadable; the rest of the page is still
written.
"""
import base64
import csv
import glob
import html
import json
import math
import os
import sys


def flat(row, prefix=""):
    """Scalar fields of a result row, nested objects as dotted names (lists left out)."""
    out = {}
    for k, v in row.items():
        name = prefix + k
        if isinstance(v, dict):
            out.update(flat(v, name + "."))
        elif not isinstance(v, list):
            out[name] = v
    return out


def printable(name):
    """A file name as text: bytes that are not UTF-8 shown as \\xNN, never an encoding error."""
    s = str(name)
    try:
        return s.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeError:
        return s.encode("utf-8", "backslashreplace").decode("utf-8")


def esc(v):
    return html.escape(printable(v))


def fmt(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    return esc(v) if v is not None else "–"


# Decimals each unit resolves (a figure in ns to 10 ps, in us to 1 ns, ...);
# counts show whole when whole. Other units: six significant digits at the
# column's largest value.
UNIT_DECIMALS = {"ns": 2, "us": 3, "ms": 4, "s": 6, "GB/s": 3, "Gbit/s": 2, "1/us": 3, "1/s": 0,
                 "fraction": 4, "%": 2}
COUNT_UNITS = {"bytes", "B", "packets", "ops", "events", "requests", "frames", "flows", "seeds", "messages",
               "entries", "bits", "cells", "flits", "credits", "slots", "tags", "links", "reads", "sources",
               "endpoints", "window", "burst", "cycles"}


def column_format(values, unit):
    """A function formatting one column's values alike."""
    nums = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)]
    if not nums:
        return fmt
    if all(float(v).is_integer() for v in nums) and (unit in COUNT_UNITS or unit not in UNIT_DECIMALS):
        decimals = 0
    elif unit in UNIT_DECIMALS:
        decimals = UNIT_DECIMALS[unit]
    elif unit in COUNT_UNITS:
        decimals = 2
    else:
        top = max(abs(v) for v in nums) or 1.0
        decimals = max(0, min(6, 5 - math.floor(math.log10(top))))

    def f(v):
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
            return fmt(v)
        text = f"{v:.{decimals}f}"
        return text[1:] if text.startswith("-") and float(text) == 0 else text   # no "-0.00"
    return f


def kinds(rows):
    """Rows grouped by kind: the fields they fill (not null); a row whose
    filled fields are a subset of an earlier kind's joins it."""
    groups = []   # (filled fields, [rows])
    for r in rows:
        filled = [k for k, v in r.items() if v is not None]
        for fields, members in groups:
            if set(filled) <= set(fields):
                members.append(r)
                break
        else:
            for i, (fields, members) in enumerate(groups):   # a wider kind takes in a narrower one
                if set(fields) <= set(filled):
                    groups[i] = (filled, members + [r])
                    break
            else:
                groups.append((filled, [r]))
    return groups


def header(name, docs):
    d = docs.get(name) or docs.get(name.split(".")[0]) or {}
    unit = d.get("unit", "")
    title = f' title="{esc(d["meaning"])}"' if d.get("meaning") else ""
    return f"<th{title}>{esc(name)}{f' [{esc(unit)}]' if unit else ''}</th>", unit


def tables(rows, docs):
    rows = [flat(r) for r in rows]
    out = []
    groups = kinds(rows)
    for fields, members in groups:
        cols = [c for c in fields if any(m.get(c) is not None for m in members)]
        heads, fmts = [], []
        for c in cols:
            h, unit = header(c, docs)
            heads.append(h)
            fmts.append(column_format([m.get(c) for m in members], unit))
        def cell(v, f):
            return f"<td class=text>{f(v)}</td>" if isinstance(v, str) else f"<td>{f(v)}</td>"
        body = "".join("<tr>" + "".join(cell(m.get(c), f) for c, f in zip(cols, fmts)) + "</tr>"
                       for m in members[:60])
        more = f"<p class=note>{len(members) - 60} more rows in the JSON.</p>" if len(members) > 60 else ""
        label = ""
        if len(groups) > 1:
            tag = next((c for c in ("scenario", "row", "what", "case", "kind") if c in cols), None)
            seen = list(dict.fromkeys(str(m.get(tag)) for m in members)) if tag else []
            label = f"<h4>{len(members)} row{'s' if len(members) > 1 else ''}{': ' + esc(', '.join(seen[:8])) if seen else ''}</h4>"
        out.append(f"{label}<div class=scroll><table><tr>{''.join(heads)}</tr>{body}</table></div>{more}")
    return "".join(out)


def matches(row, selector):
    f = flat(row)
    for part in selector.split(";"):
        k, _, v = part.partition("=")
        if k and str(f.get(k)) != v and fmt(f.get(k)) != v:
            try:
                if float(f.get(k)) != float(v):
                    return False
            except (TypeError, ValueError):
                return False
    return True


def targets_table(present, targets):
    """Every spec target of the experiments present (folder -> rows), in the
    order of docs/targets.csv, with its verdict; the others counted."""
    mine = [t for t in targets if t["folder"] in present]
    if not mine:
        return "<p>Spec targets: none of the experiments here has one.</p>"
    out = ["<table><tr><th>experiment</th><th>figure</th><th>spec</th><th>tolerance</th><th>measured</th>"
           "<th>within?</th><th>source</th></tr>"]
    within = 0
    for t in mine:
        rows = present[t["folder"]]
        hit = [r for r in rows if matches(r, t["row"])]
        value = flat(hit[0]).get(t["field"]) if hit else None
        target, tol = float(t["target"]), float(t["tolerance_pct"])
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            ok = abs(value - target) <= target * tol / 100
            within += ok
            verdict = "<td class=ok>yes</td>" if ok else "<td class=bad>no</td>"
            shown = f"{value:.6g}"
        else:
            verdict, shown = "<td class=bad>not run</td>", "–"
        anchor = esc(t["folder"])
        out.append(f'<tr><td class=text><a href="#{anchor}">{anchor}</a></td><td class=text>{html.escape(t["row"])}: '
                   f'{html.escape(t["field"])}</td><td>{target:g}</td><td>± {tol:g} %</td><td>{shown}</td>'
                   f'{verdict}<td class=text>{html.escape(t["source"])}</td></tr>')
    others = len(targets) - len(mine)
    rest = f" ({others} more belong to experiments not in this folder)" if others else ""
    return (f"<p id=verdict>{within} of {len(mine)} spec targets within their tolerance{rest}.</p>"
            + "".join(out) + "</table>")


def config_diff(doc, defaults):
    cfg = doc.get("config", {})
    diff = {k: v for k, v in cfg.items() if defaults.get(k) != v}
    if not diff:
        return "<p>Configuration: the defaults.</p>"
    items = "".join(f"<li><code>{html.escape(k)} = {html.escape(str(v))}</code> "
                    f"(default {html.escape(str(defaults.get(k, '–')))})</li>" for k, v in sorted(diff.items()))
    return f"<p>Configuration differs from the defaults in:</p><ul>{items}</ul>"


def provenance(doc):
    p = doc.get("provenance", {})
    keep = {k: v for k, v in p.items() if not isinstance(v, (dict, list))}
    return "<p class=note>" + html.escape(", ".join(f"{k}: {v}" for k, v in keep.items())) + "</p>"


def image(path):
    with open(path, "rb") as f:
        data = base64.b64encode(f.read()).decode()
    return f'<img alt="{html.escape(os.path.basename(path))}" src="data:image/png;base64,{data}">'


def save_files(source):
    """FST name pattern (as in each .gtkw's Open: line) -> save file."""
    out = []
    for g in sorted(glob.glob(os.path.join(source, "waveforms", "*.gtkw"))):
        with open(g) as f:
            for line in f:
                if line.startswith("[*] Open:"):
                    parts = line.split()
                    if len(parts) >= 5:
                        out.append((os.path.basename(parts[3]).split(".", 1)[1], "waveforms/" + os.path.basename(g)))
    return out


def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__)
    out_dir, defaults_path, fields_path, source, page_file = argv[1:6]
    with open(defaults_path) as f:
        defaults = json.load(f)
    with open(fields_path) as f:
        field_docs = json.load(f)
    with open(os.path.join(source, "docs", "targets.csv")) as f:
        targets = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    sections, toc, unreadable, present = [], [], [], {}
    # DIR is a folder name, never a pattern: its own brackets and stars are escaped
    base = glob.escape(out_dir)
    for doc_path in sorted(glob.glob(os.path.join(base, "*", "*.json"))):
        folder = os.path.basename(os.path.dirname(doc_path))
        if os.path.basename(doc_path) == "config.json":
            continue
        try:
            with open(doc_path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            unreadable.append((doc_path, f"not JSON ({printable(e)})"))
            continue
        if not isinstance(doc, dict) or "experiment" not in doc or "results" not in doc:
            continue   # not a result document (a timeline, a plan)
        if not isinstance(doc["experiment"], str):
            unreadable.append((doc_path, "its \"experiment\" is not a name"))
            continue
        if not isinstance(doc["results"], list) or not all(isinstance(r, dict) for r in doc["results"]):
            unreadable.append((doc_path, "its \"results\" is not a list of result rows"))
            continue
        if not isinstance(doc.get("config", {}), dict) or not isinstance(doc.get("provenance", {}), dict):
            unreadable.append((doc_path, "its \"config\" or \"provenance\" is not an object"))
            continue
        rows = doc["results"]
        pngs = sorted(glob.glob(os.path.join(glob.escape(os.path.dirname(doc_path)), "*.png")))
        anchor = esc(folder)
        toc.append(f'<li><a href="#{anchor}">{anchor}</a> ({esc(doc["experiment"])})</li>')
        present[folder] = rows
        docs = field_docs.get(doc["experiment"], {}).get("fields", {})
        sections.append(f'<section id="{anchor}"><h2>{anchor}: ubsim {esc(doc["experiment"])}</h2>'
                        + "".join(image(p) for p in pngs) + tables(rows, docs)
                        + config_diff(doc, defaults) + provenance(doc) + "</section>")
    # waveforms and timelines
    saves = save_files(source)
    waves = []
    for fst in sorted(glob.glob(os.path.join(base, "*.fst"))):
        name = os.path.basename(fst)
        gtkw = next((g for pattern, g in saves if name.endswith(pattern)), None)
        cmd = f"gtkwave {os.path.relpath(fst, out_dir)}" + (f" {os.path.join(source, gtkw)}" if gtkw else "")
        waves.append(f"<li><code>{esc(cmd)}</code></li>")
    timelines = [f"<li><code>{esc(os.path.relpath(p, out_dir))}</code> (ui.perfetto.dev)</li>"
                 for p in sorted(glob.glob(os.path.join(base, "**", "*timeline*.json"), recursive=True))]
    bad = "".join(f"<li><code>{esc(os.path.relpath(p, out_dir))}</code>: {esc(why)}</li>" for p, why in unreadable)
    area = ("<p>Area figures: see the <a href=\"#area\">area</a> section.</p>"
            if os.path.isdir(os.path.join(out_dir, "area"))
            else "<p>Area figures: absent (<code>scripts/reproduce --area</code> synthesizes the RTL blocks).</p>")
    page = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>ubsim report</title>
<style>
body {{ font-family: sans-serif; margin: 2em; max-width: 1400px; }}
table {{ border-collapse: collapse; font-size: 12px; margin: 0.5em 0; }}
td, th {{ border: 1px solid #ccc; padding: 2px 6px; text-align: right; white-space: nowrap; }}
th {{ background: #f0f0f0; }}
.ok {{ background: #d8f5d8; }} .bad {{ background: #f8d0d0; }}
.scroll {{ overflow-x: auto; }} td.text {{ text-align: left; }} .note {{ color: #666; font-size: 12px; }}
img {{ max-width: 100%; display: block; margin: 0.5em 0; }}
section {{ border-top: 2px solid #888; margin-top: 2em; }}
</style>
<script>
window.onerror = function (msg) {{ document.documentElement.dataset.scriptError = String(msg); }};
window.addEventListener("load", function () {{
  var imgs = Array.prototype.slice.call(document.images);
  var ok = imgs.filter(function (i) {{ return i.complete && i.naturalWidth > 0; }}).length;
  document.documentElement.dataset.imagesTotal = imgs.length;
  document.documentElement.dataset.imagesLoaded = ok;
}});
</script></head>
<body><h1>ubsim report: {esc(os.path.basename(os.path.abspath(out_dir)))}</h1>
<p class=note>Paths are relative to this page's folder; the commands run from there.</p>
<h2>Spec targets</h2>
{targets_table(present, targets)}
{area}
<h2>Experiments</h2><ul>{''.join(toc)}</ul>
<h2>Waveforms</h2><ul>{''.join(waves) or '<li>none</li>'}</ul>
<h2>Timelines</h2><ul>{''.join(timelines) or '<li>none</li>'}</ul>
{f'<h2>Unreadable result files</h2><ul id="unreadable">{bad}</ul>' if bad else ''}
{''.join(sections)}
</body></html>
"""
    fd = os.open(page_file, os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW)
    with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as f:
        f.write(page)
        f.flush()
        os.fsync(f.fileno())
    for p, why in unreadable:
        print(f"report: unreadable result file {printable(p)}: {why}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    main(sys.argv)
