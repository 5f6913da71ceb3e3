#!/usr/bin/env python3
"""Grouped bar chart of the phases benchmark: one panel per family (heat,
jacobi_stages, jacobi_checkpoints), groups = cases (N, BS, steps), bars =
implementation (and, for heat, the gtcc program form), y = median ms per run
(log scale), each bar labelled with its ratio to cuda_launch (one kernel
launch per phase) of the same case; FAIL rows are marked in red.

usage: plot_phases.py PHASES_CSV [-o OUT.png] [--linear]

The CSV is run.sh's (columns date, gpu, impl, program, family, N, BS, steps,
ms, us_per_step, ratio_to_launch, status). When a (impl, program, N, BS,
steps) row appears more than once, the last one wins. Needs matplotlib.
"""
import argparse
import csv
import math
import os
import sys


def bar_name(r):
    """cuda_launch, cuda_graph, gtcc (taskwait), gtcc (depend), cpu (taskwait), ..."""
    impl, prog, fam = r["impl"], r["program"], r["family"]
    return impl if prog == fam else "%s (%s)" % (impl, prog[len(fam) + 1:] if prog.startswith(fam + "_") else prog)


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
        from matplotlib.patches import Patch
    except ImportError:
        sys.exit("plot_phases.py: matplotlib is not installed (pip install matplotlib)")

    rows, fams, bars, first = {}, [], [], None
    cases = {}  # family -> [case]
    with open(a.csv, newline="") as f:
        for r in csv.DictReader(f):
            first = first or r
            fam, case, b = r["family"], (int(r["N"]), int(r["BS"]), int(r["steps"])), bar_name(r)
            if fam not in fams:
                fams.append(fam)
            cases.setdefault(fam, [])
            if case not in cases[fam]:
                cases[fam].append(case)
            if b not in bars:
                bars.append(b)
            rows[(fam, case, b)] = r
    if not rows:
        sys.exit("plot_phases.py: no results in " + a.csv)
    out = a.output or os.path.splitext(a.csv)[0] + ".png"

    cmap = plt.get_cmap("tab10" if len(bars) <= 10 else "tab20")
    color = {b: cmap(k % cmap.N) for k, b in enumerate(bars)}

    def hatch(b):
        return "//" if b.startswith("cuda") else ("xx" if b.startswith("cpu") else None)

    fig, axes = plt.subplots(1, len(fams), figsize=(max(6.5, 1.6 * max(len(c) for c in cases.values()) + 2) * len(fams), 5.5),
                             squeeze=False)
    for ax, fam in zip(axes[0], fams):
        fb = [b for b in bars if any((fam, c, b) in rows for c in cases[fam])]
        width = 0.8 / max(1, len(fb))
        ymin, fails = math.inf, []
        for k, b in enumerate(fb):
            xs, ys, ratios = [], [], []
            for g, c in enumerate(cases[fam]):
                r = rows.get((fam, c, b))
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
                ratios.append(r.get("ratio_to_launch", ""))
                ymin = min(ymin, ms)
            rects = ax.bar(xs, ys, width, color=color[b], hatch=hatch(b), edgecolor="black", linewidth=0.3)
            for rect, rt in zip(rects, ratios):
                if rt:
                    ax.annotate("%.2fx" % float(rt), (rect.get_x() + rect.get_width() / 2, rect.get_height()),
                                ha="center", va="bottom", fontsize=6, rotation=90)
        if not a.linear:
            ax.set_yscale("log")
        for x in fails:
            ax.annotate("FAIL", (x, ymin if math.isfinite(ymin) else 1.0), ha="center", va="top", fontsize=7,
                        color="red", rotation=90)
        ax.set_xticks(range(len(cases[fam])))
        ax.set_xticklabels(["N=%d\n%d blocks\n%d steps" % (n, (n + bs - 1) // bs, st) for n, bs, st in cases[fam]],
                           fontsize=7)
        ax.set_ylabel("ms per run (median)")
        ax.set_title(fam, fontsize=10)
        ax.grid(axis="y", which="both", alpha=0.3)
        ax.legend(handles=[Patch(facecolor=color[b], hatch=hatch(b), edgecolor="black", linewidth=0.3, label=b)
                           for b in fb], fontsize=7, loc="upper left")
    fig.suptitle("Phased task programs: gtcc (one megakernel per region) vs one CUDA launch per phase\n"
                 "labels: cuda_launch ms / this ms (> 1 = faster); %s, %s" % (first.get("gpu", "?"), first.get("date", "?")),
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    print(out)


if __name__ == "__main__":
    main()
