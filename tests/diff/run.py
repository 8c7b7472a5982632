#!/usr/bin/env python3
"""Differential test: skewer explain --json versus model.py on random scenarios.

Usage: tests/diff/run.py [-n N] [-s START] [-v] [--keep DIR] [SEED...]
Exit status 1 if any seed mismatches.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen as genmod      # noqa: E402
import model              # noqa: E402

SKEWER = os.environ.get("SKEWER") or os.path.join(HERE, "..", "..", "skewer")
HOST = "kubernetes.io/hostname"

CONS_FIELDS = ["topologyKey", "whenUnsatisfiable", "maxSkew", "minDomains", "nodeAffinityPolicy",
               "nodeTaintsPolicy", "selector", "origin", "selfMatch", "globalMin"]


# Debugging contract v2 fields (shared/spec/debugging.md §1, §2).  skewer
# writes them since 935b34b, so a missing one is a mismatch; DIFF_V2_LENIENT=1
# skips and counts them instead (for a skewer older than that).
STRICT = os.environ.get("DIFF_V2_LENIENT") != "1"
SPREAD_FIELDS = ["constraint", "domain", "matchNum", "selfMatch", "globalMin", "skew", "ok"]
STATS = {}


COUNTING = [True]


def count(key, n=1):
    if COUNTING[0]:
        STATS[key] = STATS.get(key, 0) + n


def missing(out, where, field):
    if STRICT:
        out.append("%s: %s: not in skewer's output" % (where, field))
    else:
        count(field + " missing")


def blockers_view(bl):
    return [(b.get("plugin"), b.get("reason"), b.get("unresolvable")) for b in bl]


def spread_view(sp):
    return [{f: x.get(f) for f in SPREAD_FIELDS if f in x} for x in sp]


def compare_v2_node(tag, a, b, out):
    for f, view in (("blockers", blockers_view), ("spread", spread_view)):
        if f not in a:
            continue
        if f not in b:
            missing(out, "%s: node %s" % (tag, a["name"]), f)
            continue
        count(f)
        if view(a[f]) != view(b[f]):
            out.append("%s: node %s %s: model %r, skewer %r" % (tag, a["name"], f, view(a[f]), view(b[f])))


def compare_v2_step(tag, e, g, out):
    if e.get("outcome") != "pending":
        return
    if "event" in e:
        if "event" not in g:
            missing(out, tag, "event")
        else:
            count("event")
            if e["event"] != g["event"]:
                out.append("%s: event: model %r, skewer %r" % (tag, e["event"], g["event"]))
    ep, gp = e.get("preemption"), g.get("preemption")
    if ep is None:
        if gp is not None:
            out.append("%s: preemption: model none, skewer %r" % (tag, gp))
        return
    if gp is None:
        missing(out, tag, "preemption")
        return
    count("preemption")
    for f in ("message", "nominatedNode"):
        if f not in gp:
            missing(out, tag, "preemption." + f)
        elif ep[f] != gp[f]:
            out.append("%s: preemption.%s: model %r, skewer %r" % (tag, f, ep[f], gp[f]))
    if "victims" not in gp:
        missing(out, tag, "preemption.victims")
    else:
        if ep["victims"]:
            count("victims (non-empty)")
        if sorted(ep["victims"]) != sorted(gp["victims"] or []):
            out.append("%s: preemption.victims: model %r, skewer %r" % (tag, sorted(ep["victims"]),
                                                                      sorted(gp["victims"] or [])))
    if ep["nominatedNode"] is not None:
        count("nominated")


def compare(exp, got):
    """exp = model output, got = skewer output. Returns list of mismatch strings."""
    out = []
    es, gs = exp["steps"], got.get("steps", [])
    if len(es) != len(gs):
        out.append("step count: model %d, skewer %d" % (len(es), len(gs)))
    for e, g in zip(es, gs):
        tag = "step %d (%s %s)" % (e["index"], e["action"], e.get("pod") or "")
        for f in ("index", "action", "outcome"):
            if e.get(f) != g.get(f):
                out.append("%s: %s: model %r, skewer %r" % (tag, f, e.get(f), g.get(f)))
        if e.get("outcome") != g.get("outcome"):
            continue
        if e["action"] not in ("schedule", "retry") or e["outcome"] == "error" and "nodes" not in e:
            continue
        for f in ("pod", "node", "message"):
            if e.get(f) != g.get(f):
                out.append("%s: %s: model %r, skewer %r" % (tag, f, e.get(f), g.get(f)))
        compare_v2_step(tag, e, g, out)
        # A retry bound to its nominated node is not scored upstream [DBG §2];
        # skewer says so with the extra field nominatedFirst.
        via_nom = e.get("nominatedFirst", False)
        if via_nom:
            count("nominated node taken")
        if ("nominatedFirst" in g or via_nom) and "_choose" not in e:
            if bool(g.get("nominatedFirst")) != via_nom:
                out.append("%s: nominatedFirst: model %r, skewer %r" % (tag, via_nom, g.get("nominatedFirst")))
        ec, gc = e.get("constraints", []), g.get("constraints", [])
        if len(ec) != len(gc):
            out.append("%s: constraint count: model %d, skewer %d" % (tag, len(ec), len(gc)))
        for i, (a, b) in enumerate(zip(ec, gc)):
            for f in CONS_FIELDS:
                if a.get(f) != b.get(f):
                    out.append("%s: constraint %d %s: model %r, skewer %r" % (tag, i, f, a.get(f), b.get(f)))
            soft_host = a["whenUnsatisfiable"] == "ScheduleAnyway" and a["topologyKey"] == HOST
            if not soft_host:
                da = {d["value"]: d["matchNum"] for d in a["domains"]}
                db = {d["value"]: d["matchNum"] for d in b.get("domains", [])}
                if da != db:
                    out.append("%s: constraint %d (%s %s) domains: model %s, skewer %s" % (
                        tag, i, a["topologyKey"], a["whenUnsatisfiable"], da, db))
                elif [d["value"] for d in b.get("domains", [])] != sorted(db):
                    out.append("%s: constraint %d domains not sorted" % (tag, i))
        en, gn = e.get("nodes", []), g.get("nodes", [])
        ntag = tag + (" [PreFilter conflict]" if (e.get("message") or "").endswith(": pod affinity terms conflict.") else "")
        if [n["name"] for n in en] != [n["name"] for n in gn]:
            out.append("%s: node list: model %s, skewer %s" % (
                tag, [n["name"] for n in en], [n["name"] for n in gn]))
            continue
        for a, b in zip(en, gn):
            for f in ("feasible", "plugin", "reason") + (() if via_nom else ("scores", "total")):
                if a.get(f) != b.get(f):
                    out.append("%s: node %s %s: model %r, skewer %r" % (tag, a["name"], f, a.get(f), b.get(f)))
            compare_v2_node(ntag, a, b, out)
    return out


# Mismatches already traced to a skewer bug (see repro/) are reported apart,
# so that new classes stand out. A seed's mismatches belong to a known bug
# when the model, run again with that bug's behaviour (flags of model.py),
# agrees with skewer; or when a line matches the bug's predicate. Bugs that
# skewer has fixed stay listed, so that a regression is named at once.
# (repro, {model flag: value}, predicate on a mismatch line or None, status)
KNOWN = [
    ("repro/conflict-blockers-spread.yaml", {"CONFLICT_LATER_FILTERS": False},
     lambda m: "[PreFilter conflict]" in m and (" blockers: " in m or " spread: " in m), "fixed in d4ee248"),
    ("repro/preempt-terminating-spread-count.yaml", {"PTS_UPDATE_COUNTS_TERMINATING": False}, None,
     "fixed in d4ee248"),
    ("repro/nominated-empty-selector-addpod.yaml", {"PTS_UPDATE_EMPTY_SELECTOR_COUNTS": False}, None,
     "fixed in d4ee248"),
    ("repro/pdb-first-violated-stops.yaml", {"PDB_STOP_AT_FIRST_VIOLATED": False}, None, "fixed in ebc5fac"),
    ("repro/pending-input-pod-class.yaml", {"INPUT_PENDING_CLASS_RESOLVED": False}, None, "fixed in 8478b13"),
    ("repro/pending-input-pod-class-policy.yaml", {"INPUT_PENDING_CLASS_POLICY": False}, None, "open"),
    ("repro/choose-message-truncated.yaml", {},
     lambda m: ": message: model 'choose: node " in m and "is not feasible" in m, "fixed in d4ee248"),
]
STATUS = {name: status for name, flags, pred, status in KNOWN}


def known(m):
    for name, flags, pred, status in KNOWN:
        if pred is not None and pred(m):
            return name
    return None


def run_model(scen, flags=None):
    saved = {}
    for k, v in (flags or {}).items():
        saved[k] = getattr(model, k)
        setattr(model, k, v)
    try:
        return model.run(json.loads(json.dumps(scen)))
    finally:
        for k, v in saved.items():
            setattr(model, k, v)


def classify(scen, got, mm):
    """Returns {mismatch line: known repro name} for lines a known bug explains."""
    out = {m: known(m) for m in mm if known(m)}
    rest = [m for m in mm if m not in out]
    if not rest:
        return out
    variants = [([name], flags) for name, flags, pred, status in KNOWN if flags]
    allflags = {}
    for name, flags, pred, status in KNOWN:
        allflags.update(flags or {})
    variants.append(([name for name, flags, pred, status in KNOWN if flags], allflags))
    for names, flags in variants:
        COUNTING[0] = False
        try:
            alt = compare(run_model(scen, flags), got)
        finally:
            COUNTING[0] = True
        if all(known(m) for m in alt):
            for m in rest:
                out[m] = " + ".join(names) if len(names) < 3 else "several known bugs"
            return out
    return out


def run_seed(seed, keep=None):
    scen = genmod.gen(seed)
    txt = genmod.render(scen, seed)
    d = keep or tempfile.mkdtemp(prefix="skdiff")
    path = os.path.join(d, "seed%d.yaml" % seed)
    with open(path, "w") as f:
        f.write(txt)
    try:
        exp = run_model(scen)
    except Exception as ex:  # model crash is a model bug
        import traceback
        traceback.print_exc()
        return ["MODEL CRASH: %r" % ex], {}, path
    p = None
    for attempt in range(20):      # the binary may be mid-rebuild (others run make)
        try:
            p = subprocess.run([SKEWER, "explain", "--json", path], capture_output=True, text=True)
            break
        except OSError:
            time.sleep(3)
    if p is None:
        return ["cannot run %s" % SKEWER], {}, path
    if p.returncode != 0:
        return ["skewer exit %d: %s" % (p.returncode, p.stderr.strip()[:300])], {}, path
    try:
        got = json.loads(p.stdout)
    except ValueError as ex:
        return ["skewer bad json: %s" % ex], {}, path
    mm = compare(exp, got)
    kn = classify(scen, got, mm) if mm else {}
    if not keep and not mm:
        os.unlink(path)
        os.rmdir(d)
    return mm, kn, path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("-s", "--start", type=int, default=1)
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--keep")
    ap.add_argument("--max-lines", type=int, default=6)
    ap.add_argument("seeds", nargs="*", type=int)
    a = ap.parse_args()
    seeds = a.seeds or list(range(a.start, a.start + a.n))
    bad = 0
    known_seeds = {}
    for s in seeds:
        mm, kn, path = run_seed(s, a.keep)
        new = [m for m in mm if m not in kn]
        for m in mm:
            if m in kn:
                known_seeds.setdefault(kn[m], []).append(s)
        if new:
            bad += 1
            print("seed %d: %d mismatch(es) [%s]" % (s, len(new), path))
            for m in new[:a.max_lines if not a.v else None]:
                print("   " + m)
        elif a.v:
            print("seed %d: ok%s" % (s, " (known skewer bugs only)" if mm else ""))
    for name, ss in sorted(known_seeds.items()):
        ss = sorted(set(ss))
        st = STATUS.get(name, "open")
        what = "known skewer bug" if st == "open" else "REGRESSION of a skewer bug %s:" % st
        print("%s %s: %d seed(s), e.g. %s" % (what, name, len(ss), " ".join(map(str, ss[:5]))))
    print("compared: " + ", ".join("%s %d" % kv for kv in sorted(STATS.items()) if "missing" not in kv[0]))
    miss = [kv for kv in sorted(STATS.items()) if "missing" in kv[0]]
    if miss:
        print("not in skewer's output, skipped: " + ", ".join("%s %d" % kv for kv in miss))
    print("%d seeds, %d with unexplained mismatches" % (len(seeds), bad))
    return 1 if bad or known_seeds else 0


if __name__ == "__main__":
    sys.exit(main())
