#!/usr/bin/env python3
"""Grouped bar chart of bench_spmv results: effective GB/s per matrix (groups)
and variant (bars), log scale, with the device-to-device copy bandwidth as a
line when known.

usage: plot_spmv.py SPMV_CSV [--copy GBPS | --copy-csv COPY_BW_CSV] [-o OUT.png]

The CSV is bench_spmv's (columns date, gpu, matrix, rows, nnz, max_row,
variant, ms, GBps, ratio_to_best_cusparse, ...). When a (matrix, variant)
pair appears more than once, the last row wins. Without --copy/--copy-csv,
copy_bw.csv next to the CSV is used if present. Needs matplotlib (only here:
the GPU machine writes the CSV, any machine draws it).
"""
import argparse
import csv
import math
import os
import sys


def read_results(path):
    rows = {}
    matrices, variants, meta = [], [], {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            m, v = r["matrix"], r["variant"]
            if m not in matrices:
                matrices.append(m)
            if v not in variants:
                variants.append(v)
            rows[(m, v)] = r
            meta[m] = r
    return rows, matrices, variants, meta


def read_copy(path):
    with open(path, newline="") as f:
        for r in csv.reader(f):
            if r and r[0] == "d2d_copy":
                return float(r[4])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--copy", type=float, help="copy bandwidth in GB/s (drawn as a line)")
    ap.add_argument("--copy-csv", help="copy_bw output to take the copy bandwidth from")
    ap.add_argument("-o", "--output", help="PNG to write (default: CSV name with .png)")
    ap.add_argument("--linear", action="store_true", help="linear y axis (default: log)")
    a = ap.parse_args()

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_spmv.py: matplotlib is not installed (pip install matplotlib)")

    rows, matrices, variants, meta = read_results(a.csv)
    if not rows:
        sys.exit("plot_spmv.py: no results in " + a.csv)
    copy = a.copy
    if copy is None:
        cpath = a.copy_csv or os.path.join(os.path.dirname(os.path.abspath(a.csv)), "copy_bw.csv")
        if os.path.exists(cpath):
            copy = read_copy(cpath)
    out = a.output or os.path.splitext(a.csv)[0] + ".png"

    nv = len(variants)
    width = 0.8 / nv
    fig, ax = plt.subplots(figsize=(max(8, 1.6 * len(matrices) * max(1, nv / 6)), 5.5))
    cmap = plt.get_cmap("tab10" if nv <= 10 else "tab20")
    for k, v in enumerate(variants):
        xs, ys, bad = [], [], []
        for i, m in enumerate(matrices):
            r = rows.get((m, v))
            if r is None:
                continue
            try:
                g = float(r["GBps"])
            except ValueError:
                continue
            if not math.isfinite(g) or g <= 0:
                continue
            xs.append(i - 0.4 + width * (k + 0.5))
            ys.append(g)
            bad.append(r.get("ok", "1") not in ("1", ""))
        hatch_style = "//" if v.startswith("cusparse") else None
        bars = ax.bar(xs, ys, width, label=v, color=cmap(k % cmap.N), hatch=hatch_style, edgecolor="black", linewidth=0.3)
        for b, is_bad in zip(bars, bad):
            if is_bad:
                ax.annotate("FAIL", (b.get_x() + b.get_width() / 2, b.get_height()), ha="center", va="bottom",
                            fontsize=7, color="red", rotation=90)
    if copy:
        ax.axhline(copy, color="black", linestyle="--", linewidth=1)
        ax.annotate("device-to-device copy %.0f GB/s" % copy, (-0.45, copy), ha="left", va="bottom", fontsize=8)
    labels = []
    for m in matrices:
        r = meta[m]
        labels.append("%s\n%s rows, %s nnz\nmax row %s" % (m, human(r["rows"]), human(r["nnz"]), r["max_row"]))
    ax.set_xticks(range(len(matrices)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylabel("effective GB/s  (12 nnz + 4(n+1) + 16 n bytes)")
    if not a.linear:
        ax.set_yscale("log")
    first = next(iter(rows.values()))
    ax.set_title("SpMV (fp64 CSR): gtcc CollectiveDP vs cuSPARSE and hand-written kernels\n%s, %s"
                 % (first.get("gpu", "?"), first.get("date", "?")), fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    print(out)


def human(s):
    try:
        x = float(s)
    except ValueError:
        return s
    for unit, d in (("G", 1e9), ("M", 1e6), ("K", 1e3)):
        if x >= d:
            return "%.3g%s" % (x / d, unit)
    return "%d" % x


if __name__ == "__main__":
    main()
