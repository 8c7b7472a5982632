#!/usr/bin/env python3
"""`skewer fix --json` checked by the independent model (model.py).

Usage: tests/diff/fixcheck.py [-n N] [-s START] [-v] [--file FILE]... [SEED...]

For each random scenario of gen.py with a pending pod, runs
`skewer fix --json --limit 100` and:
  1. applies every fix listed (podPatch with the contract's list rule,
     schedulerPatch, edits inserted just before the pending step; a
     retry's podPatch goes to the step that made its pod) to the
     scenario and runs model.run on it: the pod must be scheduled on `node`
     (for kind priority: pending, preemption nominating `node`);
  2. tries, with the model alone, every single-field change of the pending
     pod's own hard constraints (maxSkew m+1.., whenUnsatisfiable,
     nodeAffinityPolicy, nodeTaintsPolicy, removing it): each one that
     schedules the pod must be listed, maxSkew with its smallest value;
     for a pod without constraints of its own under List defaulting, the
     same for the scheduler's hard defaultConstraints, listed as a
     schedulerPatch (the whole list, changed; every step runs under it).
Exit status 1 on any mismatch.  (debugging contract section 3)
"""

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen as genmod      # noqa: E402
import model              # noqa: E402

SKEWER = os.environ.get("SKEWER") or os.path.join(HERE, "..", "..", "skewer")
MAX_SKEW_TRIED = 40
STATS = {"complete": 0, "sched": 0}


def flatten(scen):
    """The scenario with its pending input pods and replicas turned into
    explicit steps, in the order model.run (and skewer) queue them, so that
    step N of skewer is steps[N-1] here."""
    scen = copy.deepcopy(scen)
    cl = model.Cluster(scen)
    pending = [(i, raw) for i, raw in enumerate(scen.get("pods") or []) if not raw.get("nodeName")]

    def qkey(item):
        i, raw = item
        ts = raw.get("creationTimestamp")
        return (-cl.bound_priority(raw), 0 if ts else 1, ts or "", i)

    steps = [{"schedule": raw, "_input": True} for i, raw in sorted(pending, key=qkey)]
    for st in scen.get("steps") or []:
        if "schedule" in st and st.get("replicas"):
            for r in range(1, st["replicas"] + 1):
                raw = dict(st["schedule"])
                raw["name"] = "%s-%d" % (st["schedule"]["name"], r)
                s2 = dict(st)
                s2["schedule"] = raw
                del s2["replicas"]
                steps.append(s2)
        else:
            steps.append(st)
    scen["pods"] = [p for p in scen.get("pods") or [] if p.get("nodeName")]
    scen["steps"] = steps
    return scen


def merge(target, patch, listrule=("topologySpreadConstraints", "tolerations")):
    """RFC 7386 merge patch, with the contract's rule for the two lists."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        elif k in listrule and isinstance(v, list):
            cur = list(out.get(k) or [])
            res = []
            for i in range(max(len(cur), len(v))):
                if i >= len(v):
                    res.append(cur[i])
                elif v[i] is None:
                    continue
                elif i < len(cur):
                    res.append(merge(cur[i], v[i], ()))
                else:
                    res.append(merge({}, v[i], ()))
            out[k] = res
        else:
            out[k] = merge(out.get(k), v, ())
    return out


def pod_ref(raw):
    return "%s/%s" % (raw.get("namespace") or "default", raw["name"])


def entry_of(flat, step):
    """The 0-based index of the step whose pod step `step` works on: the
    step itself, or for a retry the schedule step that made its pod (where
    the podPatch goes)."""
    st = flat["steps"][step - 1]
    if "retry" not in st:
        return step - 1
    ref = st["retry"] if "/" in st["retry"] else "default/" + st["retry"]
    for e in range(step - 1):
        if "schedule" in flat["steps"][e] and pod_ref(flat["steps"][e]["schedule"]) == ref:
            return e
    return None


def run_changed(flat, step, pod_patch=None, sched_patch=None, edits=()):
    """model.run on flat with step `step` (1-based) changed; returns the
    model's record of that pending step (shifted by the edits). A retry's
    podPatch goes to the pod's entry; when the pod is then bound before
    the retry, the record returned is the step that bound it."""
    sc = copy.deepcopy(flat)
    e = entry_of(sc, step)
    if pod_patch:
        st = sc["steps"][e]
        st["schedule"] = merge(st["schedule"], pod_patch)
    if sched_patch:
        sc["scheduler"] = merge(sc.get("scheduler") or {}, sched_patch, ())
    sc["steps"] = sc["steps"][:step - 1] + [copy.deepcopy(e) for e in edits] + sc["steps"][step - 1:]
    out = model.run(sc)
    rec = out["steps"][step - 1 + len(edits)]
    if pod_patch and e != step - 1 and rec.get("outcome") != "scheduled":
        ref = pod_ref(sc["steps"][e]["schedule"])
        for r in out["steps"][e:step - 1 + len(edits)]:
            if r.get("pod") == ref and r.get("outcome") == "scheduled":
                rec = r
    return rec, out["steps"][step - 1:step - 1 + len(edits)]


def lands(rec, node, nominated):
    if nominated:
        pre = rec.get("preemption") or {}
        return rec.get("outcome") == "pending" and pre.get("nominatedNode") == node
    return rec.get("outcome") == "scheduled" and rec.get("node") == node


def own_hard(pod):
    return [(i, c) for i, c in enumerate(pod.get("topologySpreadConstraints") or [])
            if (c.get("whenUnsatisfiable") or "DoNotSchedule") == "DoNotSchedule"]


def completeness(flat, step, fixes, out, tag):
    """Every single-field change of the pod's own hard constraints that the
    model schedules must be listed (maxSkew: its smallest value)."""
    pod = flat["steps"][entry_of(flat, step)]["schedule"]
    listed = {}
    for f in fixes:
        tscs = (f.get("podPatch") or {}).get("topologySpreadConstraints")
        if tscs is None:
            continue
        idx = len(tscs) - 1
        listed.setdefault((f["kind"], idx), []).append(f)
    for i, c in own_hard(pod):
        pre = [{}] * i
        tries = []
        m = int(c.get("maxSkew") or 1)
        for v in range(m + 1, m + MAX_SKEW_TRIED):
            rec, _ = run_changed(flat, step, {"topologySpreadConstraints": pre + [{"maxSkew": v}]})
            if rec.get("outcome") == "scheduled":
                tries.append(("maxSkew", {"maxSkew": v}, rec))
                break
        tries.append(("whenUnsatisfiable", {"whenUnsatisfiable": "ScheduleAnyway", "minDomains": None}, None))
        aff = c.get("nodeAffinityPolicy") or "Honor"
        tries.append(("nodeAffinityPolicy", {"nodeAffinityPolicy": "Ignore" if aff == "Honor" else "Honor"}, None))
        tnt = c.get("nodeTaintsPolicy") or "Ignore"
        tries.append(("nodeTaintsPolicy", {"nodeTaintsPolicy": "Ignore" if tnt == "Honor" else "Honor"}, None))
        tries.append(("removeConstraint", None, None))
        for kind, patch, rec in tries:
            if rec is None:
                rec, _ = run_changed(flat, step, {"topologySpreadConstraints": pre + [patch]})
            if rec.get("outcome") != "scheduled":
                continue
            STATS["complete"] += 1
            got = listed.get((kind, i), [])
            if not got:
                out.append("%s: constraint %d: %s %r schedules the pod (on %s) but is not listed" %
                           (tag, i, kind, patch, rec.get("node")))
            elif kind == "maxSkew":
                vals = [f["podPatch"]["topologySpreadConstraints"][i].get("maxSkew") for f in got]
                if patch["maxSkew"] not in vals:
                    out.append("%s: constraint %d: the smallest maxSkew is %d, skewer lists %r" %
                               (tag, i, patch["maxSkew"], vals))


def default_completeness(flat, step, fixes, out, tag):
    """The same for a pod without constraints of its own under List
    defaulting: every single-field change of a hard default constraint
    that the model schedules must be listed as a schedulerPatch (the whole
    list, changed), maxSkew with its smallest value. The changed scheduler
    runs every step, the earlier ones too."""
    sch = flat.get("scheduler") or {}
    if (sch.get("defaultingType") or "System") != "List":
        return
    dl = sch.get("defaultConstraints") or []
    listed = {}
    for f in fixes:
        sp = f.get("schedulerPatch")
        if sp is None:
            continue
        STATS["sched"] += 1
        new = sp.get("defaultConstraints")
        if f["kind"] == "removeConstraint":
            idx = next((i for i in range(len(dl)) if dl[:i] + dl[i + 1:] == new), -1)
        else:
            idx = next((i for i in range(len(dl)) if i < len(new) and new[i] != dl[i]), -1)
        listed.setdefault((f["kind"], idx), []).append(new[idx].get("maxSkew") if f["kind"] == "maxSkew" else 0)

    def with_change(i, patch):
        new = [dict(c) for c in dl]
        if patch is None:
            del new[i]
        else:
            for k, v in patch.items():
                if v is None:
                    new[i].pop(k, None)
                else:
                    new[i][k] = v
        return {"defaultConstraints": new}

    for i, c in enumerate(dl):
        if (c.get("whenUnsatisfiable") or "DoNotSchedule") != "DoNotSchedule":
            continue
        tries = []
        m = int(c.get("maxSkew") or 1)
        for v in range(m + 1, m + MAX_SKEW_TRIED):
            rec, _ = run_changed(flat, step, None, with_change(i, {"maxSkew": v}))
            if rec.get("outcome") == "scheduled":
                tries.append(("maxSkew", {"maxSkew": v}, rec))
                break
        tries.append(("whenUnsatisfiable", {"whenUnsatisfiable": "ScheduleAnyway", "minDomains": None}, None))
        aff = c.get("nodeAffinityPolicy") or "Honor"
        tries.append(("nodeAffinityPolicy", {"nodeAffinityPolicy": "Ignore" if aff == "Honor" else "Honor"}, None))
        tnt = c.get("nodeTaintsPolicy") or "Ignore"
        tries.append(("nodeTaintsPolicy", {"nodeTaintsPolicy": "Ignore" if tnt == "Honor" else "Honor"}, None))
        tries.append(("removeConstraint", None, None))
        for kind, patch, rec in tries:
            if rec is None:
                rec, _ = run_changed(flat, step, None, with_change(i, patch))
            if rec.get("outcome") != "scheduled":
                continue
            STATS["complete"] += 1
            got = listed.get((kind, i), [])
            if not got:
                out.append("%s: default constraint %d: %s %r schedules the pod (on %s) but is not listed" %
                           (tag, i, kind, patch, rec.get("node")))
            elif kind == "maxSkew" and patch["maxSkew"] not in got:
                out.append("%s: default constraint %d: the smallest maxSkew is %d, skewer lists %r" %
                           (tag, i, patch["maxSkew"], got))


def check_seed(seed, verbose=False):
    scen = genmod.gen(seed)
    txt = genmod.render(scen, seed)
    d = tempfile.mkdtemp(prefix="skfix")
    path = os.path.join(d, "seed%d.yaml" % seed)
    with open(path, "w") as f:
        f.write(txt)
    out, nrep, nfix = check_scen(scen, path, "seed %d" % seed)
    if not out:
        os.unlink(path)
        os.rmdir(d)
    return out, nrep, nfix, path


def check_file(path):
    """A hand-written scenario (shorthand YAML, as check_one.py reads)."""
    import yaml
    with open(path) as f:
        scen = yaml.safe_load(f)
    return check_scen(scen, path, os.path.basename(path))


def check_scen(scen, path, name):
    flat = flatten(scen)
    p = subprocess.run([SKEWER, "fix", "--json", "--limit", "100", path], capture_output=True, text=True)
    out = []
    nfix = 0
    if p.returncode != 0:
        return ["skewer fix exit %d: %s" % (p.returncode, p.stderr.strip()[:300])], 0, 0
    doc = json.loads(p.stdout)
    base = model.run(copy.deepcopy(flat))["steps"]
    for rep in doc["fixes"]:
        step = rep["step"]
        tag = "%s step %d (%s)" % (name, step, rep["pod"])
        if base[step - 1].get("outcome") != "pending":
            out.append("%s: the model does not leave it pending (%s)" % (tag, base[step - 1].get("outcome")))
            continue
        for f in rep["fixes"]:
            nfix += 1
            rec, erecs = run_changed(flat, step, f.get("podPatch"), f.get("schedulerPatch"), f.get("edits") or [])
            if any(e.get("outcome") != "applied" for e in erecs):
                out.append("%s: %s: an edit is not applied by the model: %r" % (tag, f["summary"], erecs))
            elif not lands(rec, f["node"], f.get("nominated")):
                out.append("%s: %s: skewer says %s, the model gives %s %s" % (
                    tag, f["summary"], f["node"], rec.get("outcome"),
                    rec.get("node") or (rec.get("preemption") or {}).get("nominatedNode")))
        e = entry_of(flat, step)
        if e is not None:
            completeness(flat, step, rep["fixes"], out, tag)
            if not flat["steps"][e]["schedule"].get("topologySpreadConstraints"):
                default_completeness(flat, step, rep["fixes"], out, tag)
    return out, len(doc["fixes"]), nfix


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("-s", "--start", type=int, default=1)
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--file", action="append", default=[], help="a hand-written scenario (repeatable)")
    ap.add_argument("seeds", nargs="*", type=int)
    a = ap.parse_args()
    seeds = a.seeds or ([] if a.file else list(range(a.start, a.start + a.n)))
    bad = npend = nfix = 0
    for path in a.file:
        mm, np_, nf = check_file(path)
        npend += np_
        nfix += nf
        if mm:
            bad += 1
            print("%s: %d mismatch(es)" % (path, len(mm)))
            for m in mm:
                print("   " + m)
    for s in seeds:
        mm, np_, nf, path = check_seed(s, a.v)
        npend += np_
        nfix += nf
        if mm:
            bad += 1
            print("seed %d: %d mismatch(es) [%s]" % (s, len(mm), path))
            for m in mm[:None if a.v else 6]:
                print("   " + m)
    print("fixcheck: %d seeds and files, %d pending steps, %d fixes applied by the model (%d schedulerPatch), "
          "%d single-field changes of the pods' own (or default) constraints found by the model, "
          "%d seeds with mismatches" % (len(seeds) + len(a.file), npend, nfix, STATS["sched"], STATS["complete"], bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
