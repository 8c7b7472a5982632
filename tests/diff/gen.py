#!/usr/bin/env python3
"""Seeded random scenario generator for the differential test.

gen(seed) returns a scenario dict in skewer's shorthand format; it is
written as JSON (valid YAML) for skewer and given unchanged to model.py.
Usage: gen.py SEED [OUT.yaml]
"""

import json
import os
import random
import sys

# DIFF_SCALE=k multiplies node, pod and step counts (stress runs only).
SCALE = int(os.environ.get("DIFF_SCALE", "1"))

HOST = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"

APPS = ["web", "db", "api"]
PRIORITIES = [0, 0, 10, 100, 100, 1000, -5]
PRIORITIES_HIGH = [10, 100, 1000, 1000, 2000]
TIERS = ["fe", "be"]
VERS = ["1", "2"]
NAMESPACES = ["default", "default", "default", "other"]

TAINTS = [
    {"key": "dedicated", "value": "infra", "effect": "NoSchedule"},
    {"key": "spot", "value": "true", "effect": "PreferNoSchedule"},
    {"key": "x", "value": "", "effect": "NoExecute"},
    {"key": "other", "value": "1", "effect": "PreferNoSchedule"},
    {"key": "node.kubernetes.io/unschedulable", "value": "", "effect": "NoSchedule"},
    {"key": "dedicated", "value": "gpu", "effect": "NoSchedule"},
]

TOLERATIONS = [
    {"key": "dedicated", "operator": "Equal", "value": "infra", "effect": "NoSchedule"},
    {"key": "dedicated", "operator": "Exists"},
    {"operator": "Exists"},
    {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"},
    {"key": "spot", "operator": "Equal", "value": "true", "effect": "PreferNoSchedule"},
    {"key": "spot", "operator": "Exists"},
    {"key": "x", "operator": "Exists", "effect": "NoExecute"},
    {"key": "other", "operator": "Equal", "value": "1"},
    {"key": "dedicated", "operator": "Equal", "value": "infra", "effect": "NoExecute"},
    {"key": "dedicated", "value": "infra"},
    {"key": "x"},
    {"key": "x", "effect": "NoExecute"},
    {"effect": "PreferNoSchedule", "operator": "Exists"},
    {"effect": "NoSchedule", "operator": "Exists"},
    {"key": "x", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30},
]


class G:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.zone_key = self.r.choice([ZONE, ZONE, "zone"])
        self.topo_keys = [self.zone_key, HOST, "rack"]
        self.pod_counter = 0
        self.node_counter = 0
        # Each seed gets a profile that boosts one feature family.
        self.profile = min(seed % 8, 6)     # 6 and 7: preemption
        profiles = [
            {},                                                            # 0 baseline
            {"gates": 0.9},                                                # 1 feature gates
            {"tsc": 0.2, "workloads": 1.0, "list": 0.3, "owner": 0.7},     # 2 default constraints
            {"tsc": 0.95, "onelabel": 0.8, "replicas": 0.3, "bound": 1.0},  # 3 spreading heavy
            {"ipa_pending": 0.6, "ipa_bound": 0.4},                        # 4 inter-pod affinity
            {"emptyzone": 0.4, "duphost": 0.3, "terminating": 0.3, "nolabels": 0.1,
             "policies": 0.6},                                             # 5 edges
            {"full": 0.8, "bound": 1.0, "bound_prio": 0.8, "start": 0.6, "prio": 0.8,
             "never": 0.15, "pdb": 0.7, "retry_after": 0.5, "nominated_in": 0.3,
             "tsc": 0.4, "taints": 0.08, "na": 0.05, "ipa_pending": 0.1, "small_req": 0.8, "hiprio": 0.7, "max_nodes": 5,
             "nopreempt": 0.08, "longres": 0.12, "wide": 0.04, "terminating": 0.2,
             "max_steps": 10, "retry_any": 0.15, "pdbheavy": 0.15,
             "classes": 0.35},                                                  # 6 preemption
        ]
        self.boost = dict(profiles[self.profile])
        if self.p(0.3):           # sometimes combine with a second family
            self.boost.update(profiles[self.r.randrange(len(profiles))])
        # PriorityClasses: pods name them for their priority and policy
        self.classes = []
        if self.pr("classes", 0.0):
            used = set()
            for i in range(self.r.randint(1, 4)):
                c = {"name": "pc%d" % i, "value": self.r.choice([-5, 0, 10, 100, 1000, 1000000])}
                if self.p(0.25) and not any(x.get("globalDefault") for x in self.classes):
                    c["globalDefault"] = True
                if self.p(0.25):
                    c["preemptionPolicy"] = self.r.choice(["Never", "PreemptLowerPriority"])
                self.classes.append(c)
        # long extended resource names make long messages (event truncation)
        self.longres = []
        if self.pr("longres", 0.0):
            self.longres = ["example.com/%s-%d" % ("x" * self.r.randint(40, 60), i)
                            for i in range(self.r.randint(3, 14))]

    def pr(self, key, default):
        return self.p(self.boost.get(key, default))

    def p(self, prob):
        return self.r.random() < prob

    # ---------------------------------------------------------------- nodes
    def node(self, existing):
        r = self.r
        self.node_counter += 1
        name = "n%d" % self.node_counter
        labels = {}
        x = r.random()
        dup = self.boost.get("duphost", 0.06)
        if x < 0.94 - dup:
            labels[HOST] = name
        elif x < 0.94 and existing:
            labels[HOST] = r.choice(existing)["name"]
        if self.p(0.85):
            labels[self.zone_key] = r.choice(["a", "b", "c", "a", "b", ""] if self.pr("emptyzone", 0.1) else ["a", "b", "c"])
        if self.p(0.7):
            labels["rack"] = r.choice(["r1", "r2"])
        if self.p(0.4):
            labels["disk"] = r.choice(["ssd", "hdd"])
        if self.p(0.3):
            labels["gen"] = r.choice(["1", "3", "5", "x"])
        if self.pr("nolabels", 0.03):
            labels = {}
        n = {"name": name, "labels": labels}
        if self.pr("taints", 0.25):
            n["taints"] = [dict(t) for t in r.sample(TAINTS, r.randint(1, 2))]
        if self.p(0.06):
            n["unschedulable"] = True
        if self.pr("full", 0.0):
            # small nodes that a few pods fill, so that pods go pending and preempt
            a = {}
            if self.p(0.6):
                a["cpu"] = r.choice(["1", "500m", "1500m", 1])
            if self.p(0.6) or not a:
                a["pods"] = r.choice([1, 2, 2, 3])
            if self.p(0.15):
                a["example.com/gpu"] = r.choice(["1", "2"])
            for res in self.longres:
                if self.p(0.4):
                    a[res] = r.choice(["1", "2"])
            n["allocatable"] = a
        elif self.p(0.35):
            a = {}
            if self.p(0.7):
                a["cpu"] = r.choice(["1", "2", "4", "500m", "1500m", 2, 1.5, "0.5", "2000m"])
            if self.p(0.7):
                a["memory"] = r.choice(["1Gi", "2Gi", "4Gi", "512Mi", "3G", 2147483648, "1e9", "1500Mi"])
            if self.p(0.4):
                a["pods"] = r.choice([1, 2, 3, 5, 110])
            if self.p(0.2):
                a["example.com/gpu"] = r.choice(["1", "2"])
            if self.p(0.1):
                a["ephemeral-storage"] = r.choice(["1Gi", "10Gi"])
            n["allocatable"] = a
        return n

    # ---------------------------------------------------------------- pods
    def labels(self):
        r = self.r
        l = {}
        if self.p(0.85):
            l["app"] = "web" if self.pr("onelabel", 0) else r.choice(APPS)
        if self.p(0.5):
            l["tier"] = r.choice(TIERS)
        if self.p(0.3):
            l["ver"] = r.choice(VERS)
        return l

    def label_selector(self, allow_nil=True, avoid=()):
        r = self.r
        x = r.random()
        if allow_nil and x < 0.08:
            return None
        if x < 0.14:
            return {}
        sel = {}
        keys = [k for k in ("app", "tier", "ver") if k not in avoid]
        if not keys:
            return {}
        if self.p(0.7):
            k = r.choice(keys)
            vals = {"app": APPS, "tier": TIERS, "ver": VERS}[k]
            sel["matchLabels"] = {k: r.choice(vals)}
        if self.p(0.4) or not sel:
            exprs = []
            for _ in range(r.randint(1, 2)):
                k = r.choice(keys)
                vals = {"app": APPS, "tier": TIERS, "ver": VERS}[k]
                op = r.choice(["In", "NotIn", "Exists", "DoesNotExist", "In"])
                e = {"key": k, "operator": op}
                if op in ("In", "NotIn"):
                    e["values"] = r.sample(vals, r.randint(1, 2))
                exprs.append(e)
            sel["matchExpressions"] = exprs
        return sel

    def sel_keys(self, sel):
        if not sel:
            return set()
        ks = set((sel.get("matchLabels") or {}).keys())
        ks |= set(e["key"] for e in sel.get("matchExpressions") or [])
        return ks

    def requests(self):
        r = self.r
        if self.pr("small_req", 0.0):
            # fits an empty small node: a full node is then a preemption candidate
            req = {"cpu": r.choice(["100m", "200m", "250m", "300m", "500m"])}
            if self.p(0.3):
                req["memory"] = r.choice(["128Mi", "256Mi"])
            if self.longres and self.p(0.5):
                k = len(self.longres) if self.p(0.5) else r.randint(1, len(self.longres))
                for res in r.sample(self.longres, k):
                    req[res] = "1"
            return "requests", req
        if self.p(0.1):
            conts = []
            for _ in range(r.randint(1, 2)):
                c = {}
                if self.p(0.7):
                    req = {}
                    if self.p(0.6):
                        req["cpu"] = r.choice(["100m", "250m", "500m", "1"])
                    if self.p(0.6):
                        req["memory"] = r.choice(["128Mi", "256Mi", "1Gi"])
                    c["resources"] = {"requests": req}
                    if self.p(0.2):
                        c["resources"]["limits"] = {"cpu": "2", "memory": "2Gi"}
                        c["resources"]["requests"].pop("cpu", None)
                        c["resources"]["requests"].pop("memory", None)
                conts.append(c)
            return "containers", conts
        if self.p(0.55):
            req = {}
            if self.p(0.8):
                req["cpu"] = r.choice(["100m", "250m", "500m", "1", "2", "0", 0.5, 1, "0.1", "333m"])
            if self.p(0.7):
                req["memory"] = r.choice(["128Mi", "256Mi", "1Gi", "2Gi", "500M", 268435456, "0.5Gi", "100k"])
            if self.p(0.08):
                req["example.com/gpu"] = "1"
            if self.p(0.05):
                req["ephemeral-storage"] = "2Gi"
            return "requests", req
        return None, None

    def affinity_term(self):
        r = self.r
        t = {"labelSelector": self.label_selector(allow_nil=False), "topologyKey": r.choice(self.topo_keys)}
        if self.p(0.05):
            del t["labelSelector"]          # nil selector: matches no pod
        x = r.random()
        if x < 0.08:
            t["namespaces"] = r.choice([["other"], ["default", "other"]])
        elif x < 0.16:
            t["namespaceSelector"] = {}
        elif x < 0.19:
            t["namespaceSelector"] = {"matchLabels": {"kubernetes.io/metadata.name": r.choice(["default", "other"])}}
        elif x < 0.21:
            t["namespaces"] = ["other"]
            t["namespaceSelector"] = {"matchExpressions": [{"key": "kubernetes.io/metadata.name",
                                                            "operator": "NotIn", "values": ["other"]}]}
        return t

    def pod_affinity(self, for_existing):
        r = self.r
        aff = {}
        if self.p(0.5):
            pa = {}
            if self.p(0.5):
                pa["requiredDuringSchedulingIgnoredDuringExecution"] = [self.affinity_term() for _ in range(r.randint(1, 2 if not for_existing else 1))]
            if self.p(0.6) or not pa:
                pa["preferredDuringSchedulingIgnoredDuringExecution"] = [
                    {"weight": r.randint(1, 100), "podAffinityTerm": self.affinity_term()} for _ in range(r.randint(1, 2))]
            aff["podAffinity"] = pa
        if self.p(0.6) or not aff:
            paa = {}
            if self.p(0.6):
                paa["requiredDuringSchedulingIgnoredDuringExecution"] = [self.affinity_term() for _ in range(r.randint(1, 2))]
            if self.p(0.5) or not paa:
                paa["preferredDuringSchedulingIgnoredDuringExecution"] = [
                    {"weight": r.randint(1, 100), "podAffinityTerm": self.affinity_term()} for _ in range(r.randint(1, 2))]
            aff["podAntiAffinity"] = paa
        return aff

    def node_selector_expr(self, nodes):
        r = self.r
        k = r.choice(["disk", "rack", self.zone_key, "gen", "disk"])
        if k == "gen":
            op = r.choice(["Gt", "Lt", "Exists"])
        else:
            op = r.choice(["In", "NotIn", "Exists", "DoesNotExist", "In"])
        e = {"key": k, "operator": op}
        vals = {"disk": ["ssd", "hdd"], "rack": ["r1", "r2"], self.zone_key: ["a", "b", "c"], "gen": ["2", "4"]}[k]
        if op in ("In", "NotIn"):
            e["values"] = r.sample(vals, r.randint(1, 2))
        elif op in ("Gt", "Lt"):
            e["values"] = [r.choice(vals)]
        return e

    def node_affinity(self, nodes):
        r = self.r
        na = {}
        if self.p(0.6):
            terms = []
            for _ in range(r.randint(1, 2)):
                t = {}
                if self.p(0.85) or not nodes:
                    t["matchExpressions"] = [self.node_selector_expr(nodes) for _ in range(r.randint(1, 2))]
                if self.p(0.15) and nodes:
                    names = [n["name"] for n in nodes] + ["ghost"]
                    mf = [{"key": "metadata.name", "operator": r.choice(["In", "In", "NotIn"]), "values": [r.choice(names)]}]
                    if self.p(0.2):
                        mf.append({"key": "metadata.name", "operator": "In", "values": [r.choice(names)]})
                    t["matchFields"] = mf
                if not t:
                    t["matchExpressions"] = [self.node_selector_expr(nodes)]
                terms.append(t)
            na["requiredDuringSchedulingIgnoredDuringExecution"] = {"nodeSelectorTerms": terms}
        if self.p(0.6) or not na:
            na["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {"weight": r.randint(1, 100), "preference": {"matchExpressions": [self.node_selector_expr(nodes)]}}
                for _ in range(r.randint(1, 3))]
            if nodes and self.p(0.15):
                na["preferredDuringSchedulingIgnoredDuringExecution"].append(
                    {"weight": r.randint(1, 100), "preference": {"matchFields": [
                        {"key": "metadata.name", "operator": r.choice(["In", "NotIn"]),
                         "values": [r.choice(nodes)["name"]]}]}})
        return na

    def tsc(self, pod_labels):
        r = self.r
        out = []
        used = set()
        for _ in range(r.choice([0, 1, 1, 1, 2, 2, 3])):
            key = r.choice(self.topo_keys + [self.zone_key, "missing"] if self.p(0.1) else self.topo_keys + [self.zone_key])
            when = r.choice(["DoNotSchedule", "DoNotSchedule", "ScheduleAnyway"])
            if (key, when) in used:
                continue
            used.add((key, when))
            c = {"maxSkew": r.choice([1, 1, 1, 2, 3]), "topologyKey": key, "whenUnsatisfiable": when}
            sel = self.label_selector()
            if sel is not None or self.p(0.7):
                c["labelSelector"] = sel
            if when == "DoNotSchedule" and self.p(0.25):
                c["minDomains"] = r.choice([1, 2, 3, 4])
            if self.pr("policies", 0.2):
                c["nodeAffinityPolicy"] = r.choice(["Honor", "Ignore"])
            if self.pr("policies", 0.25):
                c["nodeTaintsPolicy"] = r.choice(["Honor", "Ignore"])
            if c.get("labelSelector") is not None and self.p(0.2):
                avail = [k for k in ("app", "tier", "ver") if k not in self.sel_keys(c["labelSelector"])]
                if avail:
                    c["matchLabelKeys"] = r.sample(avail, r.randint(1, min(2, len(avail))))
            out.append(c)
        if out and self.p(0.05):
            # invalid on purpose [PTS §7.1]
            c = r.choice(out)
            kind = r.choice(["maxSkew", "minDomains0", "minDomainsSoft", "dup", "mlk", "when", "key",
                             "policy", "overlap", "overlap", "noValues"])
            if kind == "maxSkew":
                c["maxSkew"] = r.choice([0, -1])
            elif kind == "minDomains0":
                c["minDomains"] = r.choice([0, -2])
            elif kind == "minDomainsSoft":
                c["minDomains"] = r.choice([1, 2])
            elif kind == "dup":
                out.append(dict(c))
            elif kind == "mlk":
                c.pop("labelSelector", None)
                c["matchLabelKeys"] = ["app"]
            elif kind == "when":
                c["whenUnsatisfiable"] = r.choice(["Foo", ""])
            elif kind == "key":
                c["topologyKey"] = ""
            elif kind == "policy":
                c[r.choice(["nodeAffinityPolicy", "nodeTaintsPolicy"])] = "Maybe"
            elif kind == "overlap":
                k = r.choice(["app", "tier"])
                sel = c.get("labelSelector") or {}
                if self.p(0.5):
                    sel["matchLabels"] = dict(sel.get("matchLabels") or {}, **{k: "web"})
                else:
                    sel["matchExpressions"] = list(sel.get("matchExpressions") or []) + [
                        {"key": k, "operator": "Exists"}]
                c["labelSelector"] = sel
                c["matchLabelKeys"] = r.sample(["ver", k], 2) if self.p(0.5) else [k]
            else:
                c["labelSelector"] = {"matchExpressions": [{"key": "tier", "operator": "Exists"},
                                                           {"key": "app", "operator": r.choice(["In", "NotIn"])}]}
        return out

    def pod(self, nodes, workloads, bound_to=None, pending=False):
        r = self.r
        self.pod_counter += 1
        name = "p%d" % self.pod_counter
        p = {"name": name}
        ns = r.choice(NAMESPACES)
        if ns != "default" or self.p(0.1):
            p["namespace"] = ns
        lab = self.labels()
        if lab or self.p(0.5):
            p["labels"] = lab
        if bound_to is not None:
            p["nodeName"] = bound_to
            if self.pr("terminating", 0.1):
                p["terminating"] = True
        if workloads and self.pr("owner", 0.35):
            w = r.choice(workloads)
            o = {"kind": w["kind"], "name": w["name"]}
            if self.p(0.1):
                o["controller"] = r.choice([True, False])
            if self.p(0.1):
                o["apiVersion"] = r.choice(["v1", "apps/v1", "apps/v1beta2"])
            p["ownerReferences"] = [o]
        kind, req = self.requests()
        if kind:
            p[kind] = req
        if self.p(0.06):
            ics = []
            for _ in range(r.randint(1, 2)):
                ic = {"name": "i%d" % len(ics)}
                if self.p(0.8):
                    ic["resources"] = {"requests": {k: v for k, v in (("cpu", r.choice(["200m", "1", "3"])),
                                                                       ("memory", r.choice(["64Mi", "3Gi"])))
                                                    if self.p(0.6)}}
                if self.p(0.4):
                    ic["restartPolicy"] = "Always"
                ics.append(ic)
            p["initContainers"] = ics
        if self.p(0.04):
            p["overhead"] = {"cpu": "100m", "memory": "64Mi"}
        if pending and self.p(0.3):
            p["creationTimestamp"] = "2024-01-0%dT00:00:00Z" % r.randint(1, 3)
        if bound_to is not None:
            if self.pr("ipa_bound", 0.15):
                p["affinity"] = self.pod_affinity(True)
            if self.classes and self.p(0.4):
                # admission set spec.priority from the class when it was created
                p["priorityClassName"] = r.choice([c["name"] for c in self.classes] + ["system-cluster-critical"])
            elif self.pr("bound_prio", 0.15):
                p["priority"] = r.choice(PRIORITIES)
            if self.pr("start", 0.15):
                p["startTime"] = "2026-01-01T00:00:%02dZ" % r.randint(1, 5)
            return p
        # pending pod: scheduling-relevant fields
        if self.pr("na", 0.1):
            p["nodeSelector"] = r.choice([{"disk": "ssd"}, {"rack": "r1"}, {self.zone_key: "a"}])
        aff = {}
        if self.pr("na", 0.2):
            aff["nodeAffinity"] = self.node_affinity(nodes)
        if self.pr("ipa_pending", 0.2):
            aff.update(self.pod_affinity(False))
        if aff:
            p["affinity"] = aff
        if self.p(0.3):
            p["tolerations"] = [dict(t) for t in r.sample(TOLERATIONS, r.randint(1, 2))]
        if self.pr("tsc", 0.75):
            t = self.tsc(lab)
            if t or self.p(0.3):
                p["topologySpreadConstraints"] = t
        if pending and self.p(0.5):
            p["priority"] = r.choice([0, 10, 100])
        elif self.pr("prio", 0.2):
            p["priority"] = r.choice(PRIORITIES_HIGH if self.pr("hiprio", 0) else PRIORITIES)
        if self.pr("never", 0.03):
            p["preemptionPolicy"] = "Never"
        elif self.p(0.03):
            p["preemptionPolicy"] = "PreemptLowerPriority"
        if self.classes and self.p(0.5):
            self.pod_class(p, pending)
        if pending and self.pr("nominated_in", 0.02) and nodes:
            # status.nominatedNodeName from an earlier preemption (or a gone node)
            p["nominatedNodeName"] = r.choice([n["name"] for n in nodes] + ["ghost"])
        return p

    def pod_class(self, p, pending):
        """priorityClassName on a pod to be created; a step's pod may also
        carry a priority or policy that the class contradicts (Forbidden)."""
        r = self.r
        names = [c["name"] for c in self.classes] + ["system-node-critical"]
        if not pending and self.p(0.05):
            names = ["no-such-class"]
        p["priorityClassName"] = r.choice(names)
        cls = ([c for c in self.classes if c["name"] == p["priorityClassName"]] or [None])[0]
        value = cls["value"] if cls else 2000001000
        policy = (cls or {}).get("preemptionPolicy") or "PreemptLowerPriority"
        p.pop("priority", None)
        p.pop("preemptionPolicy", None)
        if self.p(0.3):
            p["priority"] = value if pending or self.p(0.7) else value + 1
        if self.p(0.2):
            p["preemptionPolicy"] = policy if pending or self.p(0.6) else \
                ("Never" if policy != "Never" else "PreemptLowerPriority")

    def workloads(self):
        r = self.r
        out = []
        for i in range(r.choice([1, 2, 3, 4] if self.pr("workloads", 0) else [0, 0, 1, 2, 3])):
            kind = r.choice(["Service", "ReplicaSet", "StatefulSet", "ReplicationController", "Service"])
            ns = r.choice(["default", "default", "other"])
            w = {"kind": kind, "name": "w%d" % i}
            if ns != "default" or self.p(0.2):
                w["namespace"] = ns
            app = r.choice(APPS)
            if kind in ("Service", "ReplicationController"):
                x = r.random()
                if x < 0.08:
                    w["selector"] = {}
                elif x < 0.12 and kind == "Service":
                    pass  # no selector
                else:
                    s = {"app": app}
                    if self.p(0.2):
                        s["tier"] = r.choice(TIERS)
                    w["selector"] = s
            else:
                x = r.random()
                if x < 0.2:
                    w["selector"] = {"app": app}
                elif x < 0.27:
                    w["selector"] = {}
                else:
                    sel = {"matchLabels": {"app": app}}
                    if self.p(0.3):
                        sel["matchExpressions"] = [{"key": "tier", "operator": r.choice(["Exists", "In", "NotIn"])}]
                        if sel["matchExpressions"][0]["operator"] != "Exists":
                            sel["matchExpressions"][0]["values"] = [r.choice(TIERS)]
                    w["selector"] = sel
            out.append(w)
        return out

    def scheduler(self):
        r = self.r
        s = {}
        x = r.random()
        if x < self.boost.get("list", 0.12):
            s["defaultingType"] = "List"
            dl = []
            if self.p(0.8):
                used = set()
                for _ in range(r.randint(1, 2)):
                    key = r.choice(self.topo_keys)
                    when = r.choice(["DoNotSchedule", "ScheduleAnyway"])
                    if (key, when) in used:
                        continue
                    used.add((key, when))
                    c = {"maxSkew": r.choice([1, 2]), "topologyKey": key, "whenUnsatisfiable": when}
                    if when == "DoNotSchedule" and self.p(0.2):
                        c["minDomains"] = r.choice([2, 3])
                    if self.p(0.2):
                        c["nodeTaintsPolicy"] = "Honor"
                    dl.append(c)
            s["defaultConstraints"] = dl
        elif x < 0.16:
            s["defaultingType"] = "System"
        if self.p(0.05):
            s["scoreWeights"] = {r.choice(["PodTopologySpread", "NodeResourcesFit", "TaintToleration",
                                            "InterPodAffinity", "NodeAffinity",
                                            "NodeResourcesBalancedAllocation"]): r.choice([0, 1, 5])}
        if self.pr("nopreempt", 0.01):
            s["preemption"] = False
        if self.pr("gates", 0.06):
            g = {}
            for gate in r.sample(["MinDomainsInPodTopologySpread", "NodeInclusionPolicyInPodTopologySpread",
                                  "MatchLabelKeysInPodTopologySpread",
                                  "MatchLabelKeysInPodTopologySpreadSelectorMerge"], r.randint(1, 2)):
                g[gate] = self.p(0.15)
            s["featureGates"] = g
        return s

    def pdb_scenario(self):
        """Full nodes of labelled priority-0/10 pods under overlapping
        PodDisruptionBudgets: the PDB split, the reprieve order and the
        fewest-violations pick decide the victims."""
        r = self.r
        nodes = [{"name": "n%d" % i, "labels": {HOST: "n%d" % i},
                  "allocatable": {"pods": r.randint(2, 4)}} for i in range(1, r.randint(2, 4) + 1)]
        pods = []
        for n in nodes:
            for _ in range(n["allocatable"]["pods"] - r.choice([0, 0, 0, 1])):
                self.pod_counter += 1
                p = {"name": "p%d" % self.pod_counter, "nodeName": n["name"],
                     "labels": {"app": r.choice(["web", "db", "api"])}}
                if self.p(0.4):
                    p["labels"]["tier"] = r.choice(TIERS)
                if self.p(0.4):
                    p["priority"] = r.choice([10, -5])
                if self.p(0.5):
                    p["startTime"] = "2026-01-01T00:00:%02dZ" % r.randint(1, 4)
                pods.append(p)
        pdbs = []
        for i in range(r.randint(1, 4)):
            x = r.random()
            if x < 0.4:
                sel = {"matchLabels": {"app": r.choice(["web", "db", "api"])}}
            elif x < 0.7:
                sel = {"matchExpressions": [{"key": "app", "operator": "In", "values": r.sample(["web", "db", "api"], 2)}]}
            elif x < 0.9:
                sel = {"matchLabels": {"tier": r.choice(TIERS)}}
            else:
                sel = {}
            b = {"name": "pdb%d" % i, "selector": sel}
            if self.p(0.7):
                b["disruptionsAllowed"] = r.choice([0, 0, 1, 1, 2])
            b["minAvailable" if self.p(0.5) else "maxUnavailable"] = r.choice([0, 1, 2, "50%", "100%"])
            pdbs.append(b)
        steps = []
        for i in range(r.randint(1, 3)):
            self.pod_counter += 1
            p = {"name": "p%d" % self.pod_counter, "priority": r.choice([100, 1000]),
                 "labels": {"app": r.choice(["web", "db", "api"])}}
            steps.append({"schedule": p})
            if self.p(0.5):
                steps.append({"retry": p["name"]})
        return {"name": "seed%d" % self.seed, "nodes": nodes, "pods": pods,
                "steps": steps, "disruptionBudgets": pdbs}

    def wide_scenario(self):
        """More than 100 full nodes, so that the dry run stops early: once it
        has max(10%, 100) candidates, one of them without PDB violations
        (offset 0 in skewer). Later nodes often hold cheaper victims, which
        a full scan would prefer."""
        r = self.r
        n = r.randint(101, 140)
        cut = r.randint(60, n)
        nodes, pods = [], []
        for i in range(1, n + 1):
            cap = r.choice([1, 1, 2])
            nodes.append({"name": "n%d" % i, "labels": {HOST: "n%d" % i}, "allocatable": {"pods": cap}})
            for _ in range(cap):
                self.pod_counter += 1
                p = {"name": "p%d" % self.pod_counter, "nodeName": "n%d" % i,
                     "labels": {"app": r.choice(APPS)},
                     "priority": r.choice([10, 10, 20]) if i <= cut else r.choice([0, 10])}
                if self.p(0.3):
                    p["startTime"] = "2026-01-01T00:00:%02dZ" % r.randint(1, 5)
                pods.append(p)
        for i in r.sample(range(len(nodes)), r.randint(0, 10)):
            nodes[i]["taints"] = [dict(TAINTS[0])]          # unresolvable: not dry run
        steps = []
        for _ in range(r.randint(1, 3)):
            self.pod_counter += 1
            steps.append({"schedule": {"name": "p%d" % self.pod_counter, "priority": r.choice([15, 100])}})
            if self.p(0.5):
                steps.append({"retry": "p%d" % self.pod_counter})
        scen = {"name": "seed%d" % self.seed, "nodes": nodes, "pods": pods, "steps": steps}
        if self.p(0.5):
            scen["disruptionBudgets"] = [{"name": "pdb0", "selector": {"matchLabels": {"app": r.choice(APPS)}},
                                          "maxUnavailable": 0, "disruptionsAllowed": 0}]
        return scen

    def scenario(self):
        r = self.r
        if self.pr("pdbheavy", 0.0):
            return self.pdb_scenario()
        if self.pr("wide", 0.0):
            return self.wide_scenario()
        nodes = []
        for _ in range(r.randint(2, self.boost.get("max_nodes", 8)) * SCALE):
            nodes.append(self.node(nodes))
        workloads = self.workloads()
        pods = []
        for _ in range((r.randint(6, 15) if self.pr("bound", 0) else r.randint(0, 15)) * SCALE):
            pods.append(self.pod(nodes, workloads, bound_to=r.choice(nodes)["name"]))
        if self.p(0.15):
            for _ in range(r.randint(1, 2)):
                pods.append(self.pod(nodes, workloads, pending=True))
        # steps: state tracking only for plausible names (errors are fine too)
        cur_nodes = [n["name"] for n in nodes]
        all_nodes = list(nodes)
        pod_refs = [(p.get("namespace", "default"), p["name"]) for p in pods]
        sched_refs = [(p.get("namespace", "default"), p["name"]) for p in pods if "nodeName" not in p]
        steps = []
        deleted = []
        for _ in range(r.randint(1, self.boost.get("max_steps", 6)) * SCALE):
            if sched_refs and self.pr("retry_any", 0.0):
                # any pod scheduled so far: a pending one may hold a nomination
                # that another preemption cleared
                ns, name = r.choice(sched_refs)
                steps.append({"retry": name if ns == "default" else "%s/%s" % (ns, name)})
            x = r.random()
            if x < 0.55 or not steps and x < 0.8:
                pod = self.pod(all_nodes, workloads)
                if deleted and self.p(0.3):
                    ns, name = r.choice(deleted)       # reuse a deleted name
                    pod["name"] = name
                    if ns != "default":
                        pod["namespace"] = ns
                    else:
                        pod.pop("namespace", None)
                elif pod_refs and self.p(0.04):
                    ns, name = r.choice(pod_refs)      # duplicate name: error step
                    pod["name"] = name
                    if ns != "default":
                        pod["namespace"] = ns
                    else:
                        pod.pop("namespace", None)
                st = {"schedule": pod}
                if self.pr("replicas", 0.08):
                    st["replicas"] = r.randint(2, 3)
                if self.p(0.08) and cur_nodes:
                    st["choose"] = r.choice(cur_nodes + ["ghost"])
                steps.append(st)
                ref = (pod.get("namespace", "default"), pod["name"])
                if "replicas" in st:
                    for i in range(1, st["replicas"] + 1):
                        pod_refs.append((ref[0], "%s-%d" % (ref[1], i)))
                        sched_refs.append((ref[0], "%s-%d" % (ref[1], i)))
                else:
                    pod_refs.append(ref)
                    sched_refs.append(ref)
                if self.pr("retry_after", 0.05):
                    # a pod that went pending (and maybe preempted) is retried,
                    # so that its nomination is evaluated first
                    last = sched_refs[-1]
                    if self.p(0.3) and cur_nodes:
                        steps.append(r.choice([{"delete": r.choice(pod_refs)[1]},
                                               {"uncordon": r.choice(cur_nodes)},
                                               {"cordon": r.choice(cur_nodes)}]))
                    steps.append({"retry": last[1] if last[0] == "default" else "%s/%s" % last})
            elif x < 0.63 and pod_refs:
                ns, name = r.choice(pod_refs)
                ref = name if ns == "default" and self.p(0.8) else "%s/%s" % (ns, name)
                if ns != "default" and self.p(0.3):
                    ref = name                         # bare name of a pod elsewhere
                steps.append({"delete": ref})
                deleted.append((ns, name))
            elif x < 0.70 and sched_refs:
                ns, name = r.choice(sched_refs)
                ref = name if ns == "default" or self.p(0.2) else "%s/%s" % (ns, name)
                st = {"retry": ref}
                if self.p(0.15) and cur_nodes:
                    st["choose"] = r.choice(cur_nodes + ["ghost"])
                steps.append(st)
            elif x < 0.75 and cur_nodes:
                steps.append({r.choice(["cordon", "cordon", "uncordon"]): r.choice(cur_nodes)})
            elif x < 0.81 and cur_nodes:
                t = dict(r.choice(TAINTS))
                t["node"] = r.choice(cur_nodes)
                steps.append({"taint": t})
            elif x < 0.84 and cur_nodes:
                t = r.choice(TAINTS)
                u = {"node": r.choice(cur_nodes), "key": t["key"]}
                if self.p(0.5):
                    u["effect"] = t["effect"]
                steps.append({"untaint": u})
            elif x < 0.90 and cur_nodes:
                key = r.choice([self.zone_key, "rack", "disk", HOST])
                val = None if self.p(0.25) else r.choice({"rack": ["r1", "r2"], "disk": ["ssd", "hdd"]}.get(key, ["a", "b", "c", "d"]))
                steps.append({"label": {"node": r.choice(cur_nodes), "key": key, "value": val}})
            elif x < 0.95:
                n = self.node(all_nodes)
                if self.p(0.05) and cur_nodes:
                    n["name"] = r.choice(cur_nodes)    # duplicate: error step
                else:
                    all_nodes.append(n)
                    cur_nodes.append(n["name"])
                steps.append({"addNode": n})
            elif cur_nodes:
                name = r.choice(cur_nodes)
                cur_nodes.remove(name)
                steps.append({"removeNode": name})
                if self.p(0.3):     # re-add a node under the removed name
                    n = self.node(all_nodes)
                    n["name"] = name
                    cur_nodes.append(name)
                    steps.append({"addNode": n})
        scen = {"name": "seed%d" % self.seed}
        sch = self.scheduler()
        if sch:
            scen["scheduler"] = sch
        scen["nodes"] = nodes
        if workloads:
            scen["workloads"] = workloads
        if pods:
            scen["pods"] = pods
        scen["steps"] = steps
        if self.pr("pdb", 0.08):
            scen["disruptionBudgets"] = self.budgets()
        if self.classes:
            scen["priorityClasses"] = self.classes
        return scen

    def budgets(self):
        """PodDisruptionBudgets, always with status.disruptionsAllowed given."""
        r = self.r
        out = []
        for i in range(r.randint(1, 3)):
            b = {"name": "pdb%d" % i}
            ns = r.choice(["default", "default", "other"])
            if ns != "default" or self.p(0.5):
                b["namespace"] = ns
            x = r.random()
            if x < 0.5:
                b["selector"] = {"matchLabels": {"app": r.choice(APPS)}}
            elif x < 0.65:
                # overlaps the others: a pod may count against two budgets
                b["selector"] = {"matchExpressions": [{"key": "app", "operator": "In",
                                                       "values": r.sample(APPS, 2)}]}
            elif x < 0.8:
                b["selector"] = self.label_selector(allow_nil=False)
            elif x < 0.9:
                b["selector"] = {}          # protects nothing in preemption
            # else: no selector
            if self.p(0.5):
                b["minAvailable"] = r.choice([0, 1, 2, "50%", "100%"])
            else:
                b["maxUnavailable"] = r.choice([0, 1, "25%"])
            if self.p(0.75):
                b["disruptionsAllowed"] = r.choice([0, 0, 1, 1, 2, 5])
            # else computed from the pods (docs/semantics.md)
            out.append(b)
        return out


def gen(seed):
    return G(seed).scenario()


# ---------------------------------------------------------------- rendering
# The model reads the shorthand; skewer gets the same data, partly written
# as Kubernetes objects and partly as separate YAML documents.

def node_object(n):
    o = {"kind": "Node", "apiVersion": "v1", "metadata": {"name": n["name"]}}
    if "labels" in n:
        o["metadata"]["labels"] = n["labels"]
    spec = {}
    if "taints" in n:
        spec["taints"] = n["taints"]
    if "unschedulable" in n:
        spec["unschedulable"] = n["unschedulable"]
    if spec:
        o["spec"] = spec
    if "allocatable" in n:
        key = "capacity" if len(n["name"]) % 2 else "allocatable"
        o["status"] = {key: n["allocatable"]}
    return o


POD_META = ("name", "namespace", "labels", "ownerReferences", "creationTimestamp")
POD_SPEC = ("nodeName", "priority", "priorityClassName", "preemptionPolicy", "nodeSelector", "affinity", "tolerations",
            "topologySpreadConstraints", "containers", "initContainers", "overhead")
POD_STATUS = ("startTime", "nominatedNodeName")


def pod_object(p):
    o = {"apiVersion": "v1", "kind": "Pod", "metadata": {}, "spec": {}}
    for k in POD_META:
        if k in p:
            o["metadata"][k] = p[k]
    if p.get("terminating"):
        o["metadata"]["deletionTimestamp"] = "2024-01-01T00:00:00Z"
    for k in POD_SPEC:
        if k in p:
            o["spec"][k] = p[k]
    if "requests" in p:
        res = {"requests": p["requests"]}
        # the API server wants a limit equal to the request of an extended
        # resource (which the shorthand's requests stand for)
        ext = {k: v for k, v in p["requests"].items() if "/" in k}
        if ext:
            res["limits"] = ext
        o["spec"]["containers"] = [{"name": "c", "resources": res}]
    elif "containers" in p:
        o["spec"]["containers"] = [dict(c, name="c%d" % i) for i, c in enumerate(p["containers"])]
    else:
        o["spec"]["containers"] = [{"name": "c"}]
    st = {k: p[k] for k in POD_STATUS if k in p}
    if st:
        o["status"] = st
    return o


def class_object(c):
    o = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": c["name"]},
         "value": c["value"]}
    for k in ("globalDefault", "preemptionPolicy"):
        if k in c:
            o[k] = c[k]
    return o


def pdb_object(b):
    o = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": b["name"]},
         "spec": {}}
    if "disruptionsAllowed" in b:
        o["status"] = {"disruptionsAllowed": b["disruptionsAllowed"]}
    if "namespace" in b:
        o["metadata"]["namespace"] = b["namespace"]
    for k in ("selector", "minAvailable", "maxUnavailable"):
        if k in b:
            o["spec"][k] = b[k]
    return o


def workload_object(w):
    o = {"kind": w["kind"], "metadata": {"name": w["name"]}, "spec": {}}
    o["apiVersion"] = "v1" if w["kind"] in ("Service", "ReplicationController") else "apps/v1"
    if "namespace" in w:
        o["metadata"]["namespace"] = w["namespace"]
    if w["kind"] == "ReplicationController" and w.get("selector"):
        o["spec"]["template"] = {"metadata": {"labels": w["selector"]}}
        if len(w["name"]) % 2 == 0:
            return o
    if "selector" in w:
        sel = w["selector"]
        if w["kind"] in ("ReplicaSet", "StatefulSet") and not ("matchLabels" in sel or "matchExpressions" in sel):
            sel = {"matchLabels": sel}
        o["spec"]["selector"] = sel
    return o


def needs_object(p):
    return "initContainers" in p or "overhead" in p


def render(scen, seed):
    r = random.Random(seed * 7919 + 1)
    objmode = r.random() < 0.35
    main = {}
    extra = []
    for k, v in scen.items():
        if k not in ("nodes", "pods", "workloads", "steps", "disruptionBudgets", "priorityClasses"):
            main[k] = v
    nodes = scen.get("nodes", [])
    # trailing nodes may go into separate documents (order is kept)
    ntail = r.randint(0, len(nodes)) if objmode and r.random() < 0.5 else 0
    main["nodes"] = [node_object(n) if objmode and r.random() < 0.5 else n for n in nodes[:len(nodes) - ntail]]
    tail_nodes = [node_object(n) for n in nodes[len(nodes) - ntail:]]
    if tail_nodes:
        if r.random() < 0.5:
            extra.append({"apiVersion": "v1", "kind": "List", "items": tail_nodes})
        else:
            extra.extend(tail_nodes)
    pods = []
    moved = []
    for p in scen.get("pods", []):
        if needs_object(p) or objmode and r.random() < 0.5:
            o = pod_object(p)
            if "nodeName" in p and objmode and r.random() < 0.4:
                extra.append(o)      # a bound pod in a document of its own
                moved.append(p)
                continue
            pods.append(o)
        else:
            pods.append(p)
    if pods:
        main["pods"] = pods
    # The order of bound pods is each node's pod order, which preemption's
    # ties follow: the model gets the pods in the order skewer reads them.
    if moved:
        scen["pods"] = [p for p in scen["pods"] if not any(p is m for m in moved)] + moved
    pdbs = []
    pdb_moved = []
    for b in scen.get("disruptionBudgets", []):
        if objmode and r.random() < 0.5:
            extra.append(pdb_object(b))
            pdb_moved.append(b)
        else:
            pdbs.append(b)
    if pdbs:
        main["disruptionBudgets"] = pdbs
    if pdb_moved:
        scen["disruptionBudgets"] = pdbs + pdb_moved
    classes = []
    for c in scen.get("priorityClasses", []):
        if objmode and r.random() < 0.5:
            extra.append(class_object(c))
        else:
            classes.append(c)
    if classes:
        main["priorityClasses"] = classes
    wl = []
    for w in scen.get("workloads", []):
        if objmode and r.random() < 0.5:
            o = workload_object(w)
            if r.random() < 0.5:
                extra.append(o)
                continue
            wl.append(o)
        else:
            wl.append(w)
    if wl:
        main["workloads"] = wl
    steps = []
    for st in scen.get("steps", []):
        st = dict(st)
        if "schedule" in st and (needs_object(st["schedule"]) or objmode and r.random() < 0.4):
            st["schedule"] = pod_object(st["schedule"])
        if "addNode" in st and objmode and r.random() < 0.4:
            st["addNode"] = node_object(st["addNode"])
        steps.append(st)
    main["steps"] = steps
    docs = [main] + extra
    return "\n---\n".join(json.dumps(d, indent=1) for d in docs) + "\n"


if __name__ == "__main__":
    s = gen(int(sys.argv[1]))
    txt = render(s, int(sys.argv[1]))
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as f:
            f.write(txt + "\n")
    else:
        print(txt)
