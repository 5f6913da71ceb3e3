#!/usr/bin/env python3
"""Grouped bar chart of the wavefront benchmark: one panel per body (nw, noop),
groups = N, bars = implementations, y = median ms (log scale), each bar
labelled with its ratio to the CUDA graph of the same body and N; FAIL rows
are marked in red at the bottom of their slot.

usage: plot_wavefront.py WAVEFRONT_CSV [-o OUT.png] [--linear]

The CSV is run.sh's (columns date, gpu, impl, body, N, ms, tasks_per_s,
ratio_to_graph, status). When an (impl, body, N) triple appears more than
once, the last row wins. Needs matplotlib (only here: the GPU machine writes
the CSV, any machine draws it).
"""
import argparse
import csv
import math
import os
import sys


def read_rows(path):
    rows, impls, bodies, sizes = {}, [], [], []
    first = None
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            first = first or r
            i, b, n = r["impl"], r["body"], int(r["N"])
            for lst, v in ((impls, i), (bodies, b), (sizes, n)):
                if v not in lst:
                    lst.append(v)
            rows[(i, b, n)] = r
    return rows, impls, bodies, sorted(sizes), first


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv")
    ap.add_argument("-o", "--output", help="PNG to write (default: CSV name with .png)")
    ap.add_argument("--linear", action="store_true", help="linear y axis (default: log)")
    a = ap.parse_args()

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_wavefront.py: matplotlib is not installed (pip install matplotlib)")

    rows, impls, bodies, sizes, first = read_rows(a.csv)
    if not rows:
        sys.exit("plot_wavefront.py: no results in " + a.csv)
    out = a.output or os.path.splitext(a.csv)[0] + ".png"

    ni = len(impls)
    width = 0.8 / ni
    cmap = plt.get_cmap("tab10" if ni <= 10 else "tab20")
    fig, axes = plt.subplots(1, len(bodies), figsize=(max(7, 0.45 * ni * len(sizes)) * len(bodies), 5.5),
                             squeeze=False)
    def hatch_of(impl):
        return "//" if impl.startswith("cuda") else ("xx" if impl == "cpu" else None)

    for ax, body in zip(axes[0], bodies):
        ymin = math.inf
        fails = []
        for k, impl in enumerate(impls):
            xs, ys, ratios = [], [], []
            for g, n in enumerate(sizes):
                r = rows.get((impl, body, n))
                if r is None:
                    continue
                x = g - 0.4 + width * (k + 0.5)
                try:
                    ms = float(r["ms"])
                except ValueError:
                    fails.append(x)
                    continue
                if not math.isfinite(ms) or ms <= 0:
                    continue
                xs.append(x)
                ys.append(ms)
                ratios.append(r.get("ratio_to_graph", ""))
                ymin = min(ymin, ms)
            bars = ax.bar(xs, ys, width, color=cmap(k % cmap.N), hatch=hatch_of(impl), edgecolor="black",
                          linewidth=0.3)
            for b, rt in zip(bars, ratios):
                if rt:
                    ax.annotate("%.2fx" % float(rt), (b.get_x() + b.get_width() / 2, b.get_height()), ha="center",
                                va="bottom", fontsize=6, rotation=90)
        if not a.linear:
            ax.set_yscale("log")
        for x in fails:
            y = ymin if math.isfinite(ymin) else 1.0
            ax.annotate("FAIL", (x, y), ha="center", va="top", fontsize=7, color="red", rotation=90)
        ax.set_xticks(range(len(sizes)))
        ax.set_xticklabels(["N = %d\n%.3g M cells" % (n, n * n / 1e6) for n in sizes], fontsize=8)
        ax.set_ylabel("ms per sweep (median)")
        ax.set_title("body: %s" % body, fontsize=10)
        ax.grid(axis="y", which="both", alpha=0.3)
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=cmap(k % cmap.N), hatch=hatch_of(impl), edgecolor="black", linewidth=0.3, label=impl)
               for k, impl in enumerate(impls)]
    axes[0][-1].legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.suptitle("Wavefront (Needleman-Wunsch, one task per cell): gtcc vs CUDA per-diagonal launches and graph\n"
                 "labels: ratio to cuda_graph (> 1 = faster); %s, %s" % (first.get("gpu", "?"), first.get("date", "?")),
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    print(out)


if __name__ == "__main__":
    main()
