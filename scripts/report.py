#!/usr/bin/python3
"""One self-contained HTML page over a reproduce output folder: per experiment its
table, its plot (embedded), the spec targets it is checked against, the configuration's
difference from the defaults and its provenance; the waveforms with the gtkwave command
and save file that open them; the timelines; whether area figures are there.

usage: report.py OUT_DIR DEFAULTS.json SOURCE_DIR PAGE_FILE

PAGE_FILE is the private temporary file (made by `ubsim report`) the page is
written into; ubsim renames it to OUT_DIR/index.html once it is complete.
A result file that cannot be read or is not a result document is listed as
unreadable; the rest of the page is still written.
"""
import base64
import csv
import glob
import html
import json
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


def table(rows):
    rows = [flat(r) for r in rows]
    cols = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    cols = cols[:24]
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{fmt(r.get(c))}</td>" for c in cols) + "</tr>" for r in rows[:60])
    more = f"<p class=note>{len(rows) - 60} more rows in the JSON.</p>" if len(rows) > 60 else ""
    return f"<div class=scroll><table><tr>{head}</tr>{body}</table></div>{more}"


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


def targets_table(folder, rows, targets):
    mine = [t for t in targets if t["folder"] == folder]
    if not mine:
        return ""
    out = ["<table><tr><th>figure</th><th>spec</th><th>tolerance</th><th>measured</th><th>within?</th>"
           "<th>source</th></tr>"]
    for t in mine:
        hit = [r for r in rows if matches(r, t["row"])]
        value = flat(hit[0]).get(t["field"]) if hit else None
        target, tol = float(t["target"]), float(t["tolerance_pct"])
        if isinstance(value, (int, float)):
            ok = abs(value - target) <= target * tol / 100
            verdict = "<td class=ok>yes</td>" if ok else "<td class=bad>no</td>"
            shown = f"{value:.6g}"
        else:
            verdict, shown = "<td class=bad>not run</td>", "–"
        out.append(f"<tr><td>{html.escape(t['row'])}: {html.escape(t['field'])}</td><td>{target:g}</td>"
                   f"<td>± {tol:g} %</td><td>{shown}</td>{verdict}<td>{html.escape(t['source'])}</td></tr>")
    return "<h3>Spec targets</h3>" + "".join(out) + "</table>"


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
    if len(argv) != 5:
        sys.exit(__doc__)
    out_dir, defaults_path, source, page_file = argv[1], argv[2], argv[3], argv[4]
    with open(defaults_path) as f:
        defaults = json.load(f)
    with open(os.path.join(source, "docs", "targets.csv")) as f:
        targets = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    sections, toc, unreadable = [], [], []
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
        sections.append(f'<section id="{anchor}"><h2>{anchor}: ubsim {esc(doc["experiment"])}</h2>'
                        + targets_table(folder, rows, targets) + "<h3>Results</h3>" + table(rows)
                        + "".join(image(p) for p in pngs) + config_diff(doc, defaults) + provenance(doc)
                        + "</section>")
    # waveforms and timelines
    saves = save_files(source)
    waves = []
    for fst in sorted(glob.glob(os.path.join(base, "*.fst"))):
        name = os.path.basename(fst)
        gtkw = next((g for pattern, g in saves if name.endswith(pattern)), None)
        cmd = f"gtkwave {fst}" + (f" {os.path.join(source, gtkw)}" if gtkw else "")
        waves.append(f"<li><code>{esc(cmd)}</code></li>")
    timelines = [f"<li><code>{esc(p)}</code> (ui.perfetto.dev)</li>"
                 for p in sorted(glob.glob(os.path.join(base, "**", "*timeline*.json"), recursive=True))]
    bad = "".join(f"<li><code>{esc(p)}</code>: {esc(why)}</li>" for p, why in unreadable)
    area = ("<p>Area figures: see the <a href=\"#area\">area</a> section.</p>"
            if os.path.isdir(os.path.join(out_dir, "area"))
            else "<p>Area figures: absent (<code>scripts/reproduce --area</code> synthesizes the RTL blocks).</p>")
    page = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>ubsim report</title>
<style>
body {{ font-family: sans-serif; margin: 2em; max-width: 1400px; }}
table {{ border-collapse: collapse; font-size: 12px; margin: 0.5em 0; }}
td, th {{ border: 1px solid #ccc; padding: 2px 6px; text-align: right; }}
th {{ background: #f0f0f0; }}
.ok {{ background: #d8f5d8; }} .bad {{ background: #f8d0d0; }}
.scroll {{ overflow-x: auto; }} .note {{ color: #666; font-size: 12px; }}
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
<body><h1>ubsim report: {esc(os.path.abspath(out_dir))}</h1>
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
