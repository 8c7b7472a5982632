#!/usr/bin/env python3
"""Differential test of the ReplicaSet scale-down order: skewer versus an
independent Python model, on random pods.

The model is written from kubernetes/kubernetes v1.37
pkg/controller/controller_utils.go (ActivePodsWithRanks.Less,
podPhaseToOrdinal, podReadyTime, afterOrZero, logarithmicRankDiff,
maxContainerRestarts, compareMaxContainerRestarts), pkg/apis/core/helper
GetDeletionCostFromPodAnnotations and pkg/controller/replicaset/
replica_set.go (getPodsToDelete, getPodsRankedByRelatedPodsOnSameNode),
and the contract shared/spec/controllers.md (the clock `now`, defaults of
input pods), not from skewer's C code.

Each seed makes one scenario: a ReplicaSet (standalone, so every rank is
0, or a Deployment's, so ranks count the set's active pods per node) with
2 to 24 pods given as Kubernetes objects with random phases, Ready
conditions and times, restarts (sidecar ones too), deletion costs (valid
and invalid texts), UIDs, creation times and a few terminating ones; and
one `scale` step down. It compares the set of pods deleted (explain
--json `deleted`) with the model's. Up to 12 pods the model sorts as Go's
sort.Sort does there (insertion sort); above, with a stable sort, and the
seed is only compared when Less is a strict weak order on its pods (else
upstream's pdqsort order is not determined by Less alone; such seeds are
counted as skipped).

Usage: tests/diff/ctl_rank.py [-n N] [-s START] [-v] [SEED...]
"""

import argparse
import functools
import json
import math
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SKEWER = os.environ.get("SKEWER") or os.path.join(HERE, "..", "..", "skewer")
NOW = 1782864000  # 2026-07-01T00:00:00Z
NS = 10 ** 9
COST_KEY = "controller.kubernetes.io/pod-deletion-cost"


def rfc3339(t):
    import datetime
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---- the model ----

def phase_ordinal(phase):
    # podPhaseToOrdinal: a map; a phase not in it reads 0
    return {"Pending": 0, "Unknown": 1, "Running": 2}.get(phase, 0)


def deletion_cost(annotations):
    # GetDeletionCostFromPodAnnotations: validFirstDigit, then ParseInt(v, 10, 32)
    v = annotations.get(COST_KEY)
    if v is None:
        return 0
    if not v or not (v[0] == "-" or v == "0" or "1" <= v[0] <= "9"):
        return 0
    body = v[1:] if v[0] in "+-" else v
    if not body or not body.isdigit():
        return 0
    n = int(v)
    if n < -2 ** 31 or n > 2 ** 31 - 1:
        return 0
    return n


def go_log2(x):
    # math.Log2: frexp, exact powers of two, else Log(frac)*(1/Ln2) + exp
    frac, exp = math.frexp(x)
    if frac == 0.5:
        return float(exp - 1)
    return math.log(frac) * (1 / math.log(2)) + exp


def log_rank(t, now):
    d = (now - t) * NS  # Go: now.Sub(t), nanoseconds
    if d <= 0:
        return -1
    return int(go_log2(float(d)))


def after_or_zero(t1, t2):
    # None is the zero time
    if t1 is None or t2 is None:
        return t1 is None
    return t1 > t2


def time_less(a, b, t1, t2):
    """rules 6 and 8: None when the times are equal (not decided)"""
    if t1 == t2:
        return None
    if t1 is None or t2 is None:
        return after_or_zero(t1, t2)
    diff = log_rank(t1, NOW) - log_rank(t2, NOW)
    if diff == 0:
        return a["uid"].encode() < b["uid"].encode()
    return diff < 0


def less(a, ra, b, rb):
    if a["node"] != b["node"] and (a["node"] == "" or b["node"] == ""):
        return a["node"] == ""
    pa, pb = phase_ordinal(a["phase"]), phase_ordinal(b["phase"])
    if pa != pb:
        return pa < pb
    if a["ready"] != b["ready"]:
        return not a["ready"]
    ca, cb = deletion_cost(a["annotations"]), deletion_cost(b["annotations"])
    if ca != cb:
        return ca < cb
    if ra != rb:
        return ra > rb
    if a["ready"] and b["ready"]:
        r = time_less(a, b, a["readyTime"], b["readyTime"])
        if r is not None:
            return r
    if a["restarts"] != b["restarts"]:
        return a["restarts"] > b["restarts"]
    if a["sidecar"] != b["sidecar"]:
        return a["sidecar"] > b["sidecar"]
    r = time_less(a, b, a["created"], b["created"])
    return bool(r)


def strict_weak(items):
    """Less is irreflexive and asymmetric by construction; check that
    incomparability and Less are transitive."""
    n = len(items)
    L = [[less(items[i][0], items[i][1], items[j][0], items[j][1]) for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(n):
            for k in range(n):
                if L[i][j] and L[j][k] and not L[i][k]:
                    return False
                inc_ij = not L[i][j] and not L[j][i]
                inc_jk = not L[j][k] and not L[k][j]
                inc_ik = not L[i][k] and not L[k][i]
                if inc_ij and inc_jk and not inc_ik:
                    return False
    return True


def model_deleted(pods, owned_by_deployment, replicas):
    """replica_set.go manageReplicas / getPodsToDelete; None: not determined"""
    active = [p for p in pods if not p["terminating"]]
    diff = len(active) - replicas
    if diff <= 0:
        return set(), True
    if diff >= len(active):
        return {p["name"] for p in active}, True
    on_node = {}
    if owned_by_deployment:
        # related pods: every pod the set's selector matches (the set is
        # its controller's only ReplicaSet), counted when active
        for p in active:
            on_node[p["node"]] = on_node.get(p["node"], 0) + 1
    items = [(p, on_node.get(p["node"], 0)) for p in active]
    if len(items) <= 12:
        # Go's sort.Sort below 13 elements: insertion sort
        for i in range(1, len(items)):
            j = i
            while j > 0 and less(items[j][0], items[j][1], items[j - 1][0], items[j - 1][1]):
                items[j], items[j - 1] = items[j - 1], items[j]
                j -= 1
        exact = True
    else:
        exact = strict_weak(items)

        def cmp(x, y):
            if less(x[0], x[1], y[0], y[1]):
                return -1
            if less(y[0], y[1], x[0], x[1]):
                return 1
            return 0
        items.sort(key=functools.cmp_to_key(cmp))
    return {p["name"] for p, _ in items[:diff]}, exact


# ---- the generator ----

TIMES = [0, 1, 7, 100, 3600, 7200, 18000, 28800, 86400, 30 * 86400, 400 * 86400, -10]
COSTS = [None, None, None, "0", "5", "-3", "100", "+5", "05", "-005", "2147483648", "abc", ""]


def gen(seed):
    rnd = random.Random(seed)
    nnodes = rnd.randint(1, 4)
    nodes = ["n%d" % (i + 1) for i in range(nnodes)]
    deploy = rnd.random() < 0.5
    npods = rnd.choice([rnd.randint(2, 12), rnd.randint(2, 12), rnd.randint(13, 24)])
    hexd = "0123456789abcdef"
    pods = []
    for i in range(npods):
        unassigned = rnd.random() < 0.1
        node = "" if unassigned else rnd.choice(nodes)
        if unassigned:
            phase = rnd.choice(["Pending", "Pending", None])
        else:
            phase = rnd.choice(["Running", "Running", "Running", "Pending", "Unknown", None])
        no_status = phase is None and not unassigned and rnd.random() < 0.5
        created = None if rnd.random() < 0.1 else NOW - rnd.choice(TIMES)
        ready = False
        ready_time = None
        if phase is None and not unassigned:
            # contract: a bound input pod without a phase is Running and
            # Ready since its creation
            ready, ready_time, eff_phase = True, created, "Running"
        else:
            eff_phase = phase or "Pending"
            ready = rnd.random() < 0.7 and not unassigned
            if ready and rnd.random() < 0.9:
                ready_time = NOW - rnd.choice(TIMES)
        uid = "" if rnd.random() < 0.15 else "".join(rnd.choice(hexd[:3]) for _ in range(2)) + "-%d" % i
        restarts = rnd.choice([0, 0, 0, 1, 2, 5])
        sidecar = rnd.choice([0, 0, 1, 3])
        plain_init = rnd.choice([0, 0, 9])
        cost = rnd.choice(COSTS)
        pods.append({
            "name": "p%02d" % i, "node": node, "phase": eff_phase, "given_phase": phase,
            "no_status": no_status, "ready": ready, "readyTime": ready_time, "created": created,
            "uid": uid, "restarts": restarts if not no_status else 0, "sidecar": sidecar if not no_status else 0,
            "plain_init": plain_init, "annotations": {} if cost is None else {COST_KEY: cost},
            "terminating": rnd.random() < 0.08, "unassigned": unassigned,
        })
    nactive = sum(1 for p in pods if not p["terminating"])
    replicas = rnd.randint(0, max(0, nactive - 1))
    return nodes, deploy, pods, nactive, replicas


def pod_object(p, rs):
    meta = {"name": p["name"], "namespace": "default", "labels": {"app": "web", "pod-template-hash": "h"},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": rs, "controller": True}]}
    if p["uid"]:
        meta["uid"] = p["uid"]
    if p["created"] is not None:
        meta["creationTimestamp"] = rfc3339(p["created"])
    if p["annotations"]:
        meta["annotations"] = p["annotations"]
    if p["terminating"]:
        meta["deletionTimestamp"] = rfc3339(NOW - 5)
    spec = {"containers": [{"name": "app", "image": "app"}],
            "initContainers": [{"name": "sidecar", "image": "proxy", "restartPolicy": "Always"},
                               {"name": "setup", "image": "busybox"}]}
    if p["node"]:
        spec["nodeName"] = p["node"]
    else:
        spec["nodeSelector"] = {"nowhere": "x"}
    obj = {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
    if p["no_status"]:
        return obj
    status = {}
    if p["given_phase"]:
        status["phase"] = p["given_phase"]
    if p["given_phase"]:
        cond = {"type": "Ready", "status": "True" if p["ready"] else "False"}
        if p["ready"] and p["readyTime"] is not None:
            cond["lastTransitionTime"] = rfc3339(p["readyTime"])
        status["conditions"] = [cond]
    status["containerStatuses"] = [{"name": "app", "restartCount": p["restarts"]}]
    status["initContainerStatuses"] = [{"name": "sidecar", "restartCount": p["sidecar"]},
                                       {"name": "setup", "restartCount": p["plain_init"]}]
    obj["status"] = status
    return obj


def render(seed, nodes, deploy, pods, nactive, replicas):
    doc = {"name": "ctl-rank-%d" % seed, "now": rfc3339(NOW),
           "nodes": [{"name": n, "labels": {"kubernetes.io/hostname": n}} for n in nodes]}
    rs = {"kind": "ReplicaSet", "name": "web-h", "selector": {"app": "web", "pod-template-hash": "h"},
          "replicas": nactive, "template": {"labels": {"app": "web", "pod-template-hash": "h"}}}
    wl = [rs]
    if deploy:
        rs["owner"] = "Deployment/web"
        wl.insert(0, {"kind": "Deployment", "name": "web", "selector": {"app": "web"}, "replicas": nactive,
                      "template": {"labels": {"app": "web"}}})
    doc["workloads"] = wl
    doc["pods"] = [pod_object(p, "web-h") for p in pods]
    doc["steps"] = [{"scale": {"kind": "Deployment" if deploy else "ReplicaSet", "name": "web" if deploy else "web-h",
                               "namespace": "default", "replicas": replicas}}]
    return json.dumps(doc, indent=1)


def skewer_deleted(path):
    out = subprocess.run([SKEWER, "explain", "--json", path], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        raise RuntimeError("skewer exit %d: %s" % (out.returncode, out.stderr.strip()))
    doc = json.loads(out.stdout)
    steps = [s for s in doc["steps"] if s.get("description", "").startswith("scale ")]
    if len(steps) != 1:
        raise RuntimeError("no scale step in skewer's output")
    st = steps[0]
    if st.get("outcome") != "applied":
        raise RuntimeError("scale step: %s %s" % (st.get("outcome"), st.get("message")))
    # the sub-steps follow it with its index as parent
    subs = [s for s in doc["steps"] if s.get("parent") == st["index"]]
    got = {d.split("/", 1)[1] for d in st["deleted"]}
    if {s["pod"].split("/", 1)[1] for s in subs if s["action"] == "delete"} != got:
        raise RuntimeError("the sub-steps do not match `deleted`")
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("-s", type=int, default=1)
    ap.add_argument("-v", action="store_true")
    ap.add_argument("seeds", nargs="*", type=int)
    a = ap.parse_args()
    seeds = a.seeds or list(range(a.s, a.s + a.n))
    bad = skipped = compared = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            nodes, deploy, pods, nactive, replicas = gen(seed)
            want, exact = model_deleted(pods, deploy, replicas)
            if not exact:
                skipped += 1
                continue
            path = os.path.join(tmp, "s%d.yaml" % seed)
            with open(path, "w") as f:
                f.write(render(seed, nodes, deploy, pods, nactive, replicas))
            try:
                got = skewer_deleted(path)
            except (RuntimeError, ValueError, KeyError) as e:
                bad += 1
                print("seed %d: %s" % (seed, e))
                continue
            compared += 1
            if got != want:
                bad += 1
                print("seed %d: deleted: model %s, skewer %s" % (seed, sorted(want), sorted(got)))
                if a.v:
                    print(render(seed, nodes, deploy, pods, nactive, replicas))
    print("%d seeds compared, %d skipped (Less not a strict weak order above 12 pods), %d mismatched"
          % (compared, skipped, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
