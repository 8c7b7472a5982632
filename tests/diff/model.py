#!/usr/bin/env python3
"""Independent model of skewer's scheduling rules, for differential testing.

Written only from /work/shared/reference/{podtopologyspread,other-plugins,
conventions}.md and /work/shared/spec/*.md (section marks: [PTS §n],
[OTH §n], [CONV §n]).  Input: the scenario as a Python dict in skewer's
shorthand format (the same data the generator writes as JSON/YAML).
Output: a dict shaped like `skewer explain --json` (the contract fields).
Python 3, stdlib only.
"""

import datetime
import math
from fractions import Fraction

HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
UNSCHED_TAINT = "node.kubernetes.io/unschedulable"
MAXINT32 = 2147483647

R_PTS = "node(s) didn't match pod topology spread constraints"
R_PTS_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)"
R_UNSCHED = "node(s) were unschedulable"
R_NODENAME = "node(s) didn't match the requested node name"
R_TAINT = "node(s) had untolerated taint(s)"
R_NA = "node(s) didn't match Pod's node affinity/selector"
R_NA_PRE = "node(s) didn't satisfy plugin(s) [NodeAffinity]"
R_NA_CONFLICT = "pod affinity terms conflict"
R_IPA_AFF = "node(s) didn't match pod affinity rules"
R_IPA_ANTI = "node(s) didn't match pod anti-affinity rules"
R_IPA_EXIST = "node(s) didn't satisfy existing pods anti-affinity rules"

WEIGHTS = {
    "TaintToleration": 3,
    "NodeAffinity": 2,
    "NodeResourcesFit": 1,
    "PodTopologySpread": 2,
    "InterPodAffinity": 2,
    "NodeResourcesBalancedAllocation": 1,
}

DEFAULT_CPU_MILLI = 100            # [OTH §6.3] non-zero defaults
DEFAULT_MEM = 200 * 1024 * 1024


# --------------------------------------------------------------------------
# Quantities [OTH §10]

_SUFFIX = {
    "n": Fraction(1, 10**9), "u": Fraction(1, 10**6), "m": Fraction(1, 1000), "": Fraction(1),
    "k": Fraction(10**3), "M": Fraction(10**6), "G": Fraction(10**9), "T": Fraction(10**12),
    "P": Fraction(10**15), "E": Fraction(10**18),
    "Ki": Fraction(2**10), "Mi": Fraction(2**20), "Gi": Fraction(2**30), "Ti": Fraction(2**40),
    "Pi": Fraction(2**50), "Ei": Fraction(2**60),
}


def parse_quantity(q):
    if isinstance(q, bool):
        raise ValueError("bool quantity")
    if isinstance(q, int):
        return Fraction(q)
    if isinstance(q, float):
        return Fraction(repr(q))
    s = str(q)
    i = 0
    if s[:1] in "+-":
        i = 1
    j = i
    while j < len(s) and (s[j].isdigit() or s[j] == "."):
        j += 1
    num = s[:j]
    rest = s[j:]
    if num in ("", "+", "-", ".", "+.", "-."):
        raise ValueError("bad quantity %r" % s)
    val = Fraction(num)
    if rest in _SUFFIX:
        return val * _SUFFIX[rest]
    if rest[:1] in ("e", "E") and len(rest) > 1:
        return val * Fraction(10) ** int(rest[1:])
    raise ValueError("bad quantity %r" % s)


def ceil_frac(f):
    return -((-f.numerator) // f.denominator)


def qty_value(name, q):
    f = parse_quantity(q)
    if name == "cpu":
        return ceil_frac(f * 1000)
    return ceil_frac(f)


# --------------------------------------------------------------------------
# Label selectors [PTS §1]

NOTHING = "NOTHING"


def convert_selector(ls):
    """metav1.LabelSelectorAsSelector: None -> NOTHING, {} -> [] (everything),
    otherwise a list of (key, op, values) sorted (stably) by key."""
    if ls is None:
        return NOTHING
    reqs = []
    for k in sorted((ls.get("matchLabels") or {}).keys()):
        reqs.append((k, "=", [str(ls["matchLabels"][k])]))
    for e in ls.get("matchExpressions") or []:
        op = e.get("operator")
        vals = [str(v) for v in (e.get("values") or [])]
        m = {"In": "in", "NotIn": "notin", "Exists": "exists", "DoesNotExist": "!"}
        reqs.append((e["key"], m[op], vals))
    return sel_sorted(reqs)


def sel_sorted(reqs):
    # internalSelector.Add sorts by key; Go's insertion sort (n <= 12) is stable.
    return sorted(reqs, key=lambda r: r[0])


def sel_add(sel, reqs):
    if sel == NOTHING:
        return NOTHING
    return sel_sorted(list(sel) + list(reqs))


def sel_from_set(m):
    return sel_sorted([(k, "=", [str(m[k])]) for k in sorted(m)])


def req_matches(r, labels):
    k, op, vals = r
    if op == "=":
        return k in labels and labels[k] == vals[0]
    if op == "in":
        return k in labels and labels[k] in vals
    if op == "notin":
        return k not in labels or labels[k] not in vals
    if op == "exists":
        return k in labels
    if op == "!":
        return k not in labels
    raise ValueError(op)


def sel_matches(sel, labels):
    if sel == NOTHING:
        return False
    labels = labels or {}
    return all(req_matches(r, labels) for r in sel)


def sel_empty(sel):
    return sel != NOTHING and len(sel) == 0


def sel_string(sel):
    if sel == NOTHING:
        return ""
    out = []
    for k, op, vals in sel:
        if op == "=":
            out.append("%s=%s" % (k, vals[0]))
        elif op in ("in", "notin"):
            out.append("%s %s (%s)" % (k, op, ",".join(sorted(vals))))
        elif op == "exists":
            out.append(k)
        elif op == "!":
            out.append("!" + k)
    return ",".join(out)


# --------------------------------------------------------------------------
# Tolerations [OTH §4.1]

def tol_tolerates(t, taint):
    eff = t.get("effect") or ""
    if eff and eff != taint.get("effect"):
        return False
    key = t.get("key") or ""
    if key and key != taint.get("key"):
        return False
    op = t.get("operator") or "Equal"
    if op == "Equal":
        return (t.get("value") or "") == (taint.get("value") or "")
    if op == "Exists":
        return True
    return False


def tolerated(tols, taint):
    return any(tol_tolerates(t, taint) for t in tols)


def has_untolerated_noschedule(node, tols):
    for taint in node["taints"]:
        if taint.get("effect") in ("NoSchedule", "NoExecute") and not tolerated(tols, taint):
            return True
    return False


# --------------------------------------------------------------------------
# Node affinity [OTH §5.1]

def _int_or_none(s):
    s = str(s)
    t = s[1:] if s[:1] in "+-" else s
    if t == "" or not t.isdigit():
        return None
    return int(s)


def node_req_matches(expr, labels):
    k = expr["key"]
    op = expr["operator"]
    vals = [str(v) for v in (expr.get("values") or [])]
    if op == "In":
        return k in labels and labels[k] in vals
    if op == "NotIn":
        return k not in labels or labels[k] not in vals
    if op == "Exists":
        return k in labels
    if op == "DoesNotExist":
        return k not in labels
    if op in ("Gt", "Lt"):
        if k not in labels or len(vals) != 1:
            return False
        a = _int_or_none(labels[k])
        b = _int_or_none(vals[0])
        if a is None or b is None:
            return False
        return a > b if op == "Gt" else a < b
    return False


def field_req_matches(expr, name):
    if expr["key"] != "metadata.name":
        return False
    vals = [str(v) for v in (expr.get("values") or [])]
    if expr["operator"] == "In":
        return name in vals
    if expr["operator"] == "NotIn":
        return name not in vals
    return False


def node_term_matches(term, node):
    me = term.get("matchExpressions") or []
    mf = term.get("matchFields") or []
    if not me and not mf:
        return False
    for e in me:
        if not node_req_matches(e, node["labels"]):
            return False
    for e in mf:
        if not field_req_matches(e, node["name"]):
            return False
    return True


def required_node_affinity_matches(pod, node):
    for k, v in (pod["nodeSelector"] or {}).items():
        if node["labels"].get(k) != str(v):
            return False
    req = pod["naRequired"]
    if req is not None:
        terms = req.get("nodeSelectorTerms") or []
        if not any(node_term_matches(t, node) for t in terms):
            return False
    return True


# --------------------------------------------------------------------------
# Pods

def pod_key(p):
    return "%s/%s" % (p["namespace"], p["name"])


def make_affinity_term(term, owner_ns):
    """fwk.AffinityTerm: selector, namespaces, namespaceSelector, key [OTH §8.1]."""
    sel = convert_selector(term.get("labelSelector"))
    nss = term.get("namespaces") or []
    nssel_raw = term.get("namespaceSelector")
    if not nss and nssel_raw is None:
        namespaces = {owner_ns}
    else:
        namespaces = set(nss)
    nssel = convert_selector(nssel_raw)
    return {"sel": sel, "ns": namespaces, "nssel": nssel, "key": term.get("topologyKey")}


def term_matches(t, pod, ns_labels):
    if not (pod["namespace"] in t["ns"] or sel_matches(t["nssel"], ns_labels or {})):
        return False
    return sel_matches(t["sel"], pod["labels"])


def ns_labels(ns):
    # [CONV §2.16] namespaces exist implicitly with only this label
    return {"kubernetes.io/metadata.name": ns}


def build_pod(raw):
    """Shorthand pod entry -> internal pod."""
    p = {}
    p["raw"] = raw
    p["name"] = raw["name"]
    p["namespace"] = raw.get("namespace") or "default"
    p["labels"] = {k: str(v) for k, v in (raw.get("labels") or {}).items()}
    p["nodeName"] = raw.get("nodeName")
    p["terminating"] = bool(raw.get("terminating"))
    p["nodeSelector"] = {k: str(v) for k, v in (raw.get("nodeSelector") or {}).items()}
    p["tolerations"] = raw.get("tolerations") or []
    p["tsc"] = raw.get("topologySpreadConstraints") or []
    p["ownerReferences"] = raw.get("ownerReferences") or []
    aff = raw.get("affinity") or {}
    na = aff.get("nodeAffinity") or {}
    p["naRequired"] = na.get("requiredDuringSchedulingIgnoredDuringExecution")
    p["naPreferred"] = na.get("preferredDuringSchedulingIgnoredDuringExecution") or []
    pa = aff.get("podAffinity") or {}
    paa = aff.get("podAntiAffinity") or {}
    ns = p["namespace"]
    p["reqAff"] = [make_affinity_term(t, ns) for t in (pa.get("requiredDuringSchedulingIgnoredDuringExecution") or [])]
    p["reqAnti"] = [make_affinity_term(t, ns) for t in (paa.get("requiredDuringSchedulingIgnoredDuringExecution") or [])]
    p["prefAff"] = [(wt.get("weight", 0), make_affinity_term(wt["podAffinityTerm"], ns))
                    for wt in (pa.get("preferredDuringSchedulingIgnoredDuringExecution") or [])]
    p["prefAnti"] = [(wt.get("weight", 0), make_affinity_term(wt["podAffinityTerm"], ns))
                     for wt in (paa.get("preferredDuringSchedulingIgnoredDuringExecution") or [])]
    # Requests [OTH §6.1, §6.3], [CONV §2.17]
    def creq(c):
        res = c.get("resources") or {}
        req = dict(res.get("requests") or {})
        for k, v in (res.get("limits") or {}).items():
            if k not in req:
                req[k] = v
        return {k: qty_value(k, v) for k, v in req.items()}

    if raw.get("containers") is not None:
        conts = [creq(c) for c in raw["containers"]]
    elif raw.get("requests") is not None:
        conts = [{k: qty_value(k, v) for k, v in raw["requests"].items()}]
    else:
        conts = []
    if not conts:
        conts = [{}]
    inits = [(creq(c), c.get("restartPolicy") == "Always") for c in raw.get("initContainers") or []]
    overhead = {k: qty_value(k, v) for k, v in (raw.get("overhead") or {}).items()}

    def aggregate(nonmissing):
        def fix(r):
            r = dict(r)
            if nonmissing:
                r.setdefault("cpu", DEFAULT_CPU_MILLI)
                r.setdefault("memory", DEFAULT_MEM)
            return r

        def addto(a, b):
            for k, v in b.items():
                a[k] = a.get(k, 0) + v

        reqs = {}
        for c in conts:
            addto(reqs, fix(c))
        side = {}
        initmax = {}
        for c, always in inits:
            c = fix(c)
            if always:
                addto(reqs, c)
                addto(side, c)
                cr = dict(side)
            else:
                cr = dict(c)
                addto(cr, side)
            for k, v in cr.items():
                initmax[k] = max(initmax.get(k, 0), v)
        for k, v in initmax.items():
            reqs[k] = max(reqs.get(k, 0), v)
        addto(reqs, overhead)
        return reqs

    p["req"] = aggregate(False)
    nz = aggregate(True)
    p["nzcpu"] = nz.get("cpu", 0)
    p["nzmem"] = nz.get("memory", 0)
    p["bound"] = None       # node name when bound
    # Preemption inputs [DBG §2]: spec.priority (0 when absent), status.startTime,
    # spec.preemptionPolicy; status.nominatedNodeName is state kept by run().
    p["priority"] = int(raw.get("priority") or 0)
    p["startTime"] = raw.get("startTime")
    p["preemptionPolicy"] = raw.get("preemptionPolicy") or "PreemptLowerPriority"
    p["nominated"] = raw.get("nominatedNodeName") or None
    p["bindseq"] = None     # order of binding: a node's pods are listed in it
    return p


def build_node(raw):
    n = {"name": raw["name"]}
    n["labels"] = {k: str(v) for k, v in (raw.get("labels") or {}).items()}
    n["taints"] = [dict(key=t.get("key"), value=str(t.get("value") or ""), effect=t.get("effect"))
                   for t in (raw.get("taints") or [])]
    n["unschedulable"] = bool(raw.get("unschedulable"))
    alloc = raw.get("allocatable") or {}
    a = {}
    for k, v in alloc.items():
        a[k] = qty_value(k, v)
    # [CONV §2.12] defaults filled one by one
    a.setdefault("cpu", 4000)
    a.setdefault("memory", 16 * 2**30)
    a.setdefault("pods", 110)
    n["alloc"] = a
    return n


# --------------------------------------------------------------------------
# Cluster

class Cluster:
    def __init__(self, scen):
        sch = scen.get("scheduler") or {}
        self.defaulting = sch.get("defaultingType") or "System"
        self.default_list = sch.get("defaultConstraints") or []
        gates = sch.get("featureGates") or {}
        self.g_mindomains = gates.get("MinDomainsInPodTopologySpread", True)
        self.g_nip = gates.get("NodeInclusionPolicyInPodTopologySpread", True)
        self.g_mlk = gates.get("MatchLabelKeysInPodTopologySpread", True)
        self.g_mlk_merge = gates.get("MatchLabelKeysInPodTopologySpreadSelectorMerge", True)
        self.weights = dict(WEIGHTS)
        for k, v in (sch.get("scoreWeights") or {}).items():
            self.weights[k] = v
        self.nodes = [build_node(n) for n in scen.get("nodes") or []]
        self.pods = []          # all pods (bound + pending) in insertion order
        self.workloads = scen.get("workloads") or []
        self.bindseq = 0
        # PodDisruptionBudgets as the scheduler reads them [NOTES §5]: namespace,
        # selector (nil or empty matches nothing), status.disruptionsAllowed.
        self.pdbs = []
        for b in scen.get("disruptionBudgets") or []:
            self.pdbs.append({"namespace": b.get("namespace") or "default",
                              "raw": b, "sel": convert_selector(b.get("selector")),
                              "allowed": b.get("disruptionsAllowed")})
        self.preemption = sch.get("preemption", True) is not False
        # PriorityClasses [DBG §2 table]; the two built-in classes always exist.
        self.classes = {"system-cluster-critical": {"value": 2000000000},
                        "system-node-critical": {"value": 2000001000}}
        self.default_class = None
        for c in scen.get("priorityClasses") or []:
            self.classes[c["name"]] = c
            if c.get("globalDefault") and (self.default_class is None
                                           or c["value"] < self.default_class["value"]):
                self.default_class = c

    def bound_priority(self, raw):
        """The spec.priority of a pod of the input (bound or pending: admitted
        when it was created): its own, else its class's, else the
        globalDefault class's, else 0."""
        if raw.get("priority") is not None:
            return int(raw["priority"])
        cls = self.classes.get(raw.get("priorityClassName") or "") or self.default_class
        return int(cls["value"]) if cls else 0

    def input_policy(self, raw):
        """... and its spec.preemptionPolicy: its own, else its class's."""
        if raw.get("preemptionPolicy") is not None:
            return raw["preemptionPolicy"]
        cls = self.classes.get(raw.get("priorityClassName") or "") or self.default_class
        return (cls or {}).get("preemptionPolicy") or "PreemptLowerPriority"

    def admit_priority(self, raw):
        """The Priority admission plugin's admitPod [NOTES §11]: returns
        (priority, preemptionPolicy, None) or (None, None, forbidden message).
        A pod with neither a class nor a globalDefault class keeps its own
        priority (the scenario's `priority`, skewer's rule)."""
        name = raw.get("priorityClassName") or ""
        forbidden = 'pods "%s" is forbidden: ' % raw["name"]
        if name:
            cls = self.classes.get(name)
            if cls is None:
                return None, None, forbidden + "no PriorityClass with name %s was found" % name
        else:
            cls = self.default_class
        policy = raw.get("preemptionPolicy")
        if cls is None:
            return int(raw.get("priority") or 0), policy, None
        value = int(cls["value"])
        if raw.get("priority") is not None and int(raw["priority"]) != value:
            return None, None, forbidden + (
                "the integer value of priority (%d) must not be provided in pod spec; priority admission "
                "controller computed %d from the given PriorityClass name" % (int(raw["priority"]), value))
        cpol = cls.get("preemptionPolicy") or "PreemptLowerPriority"
        if policy is not None and policy != cpol:
            return None, None, forbidden + (
                "the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority "
                "admission controller computed %s from the given PriorityClass name" % (policy, cpol))
        return value, cpol, None

    def bind(self, pod, node_name):
        self.bindseq += 1
        pod["bound"] = node_name
        pod["bindseq"] = self.bindseq
        pod["nominated"] = None

    def node(self, name):
        for n in self.nodes:
            if n["name"] == name:
                return n
        return None

    def pods_on(self, node):
        # in the order the pods were bound (input order for bound pods)
        return sorted((p for p in self.pods if p["bound"] == node["name"]), key=lambda p: p["bindseq"])

    def bound_pods(self):
        return [p for p in self.pods if p["bound"] is not None]

    def find_pod(self, ref):
        if "/" in ref:
            ns, name = ref.split("/", 1)
            for p in self.pods:
                if p["namespace"] == ns and p["name"] == name:
                    return p
            return None
        for p in self.pods:
            if p["namespace"] == "default" and p["name"] == ref:
                return p
        cands = [p for p in self.pods if p["name"] == ref]
        if len(cands) == 1:
            return cands[0]
        return None

    # ---------------- admission [PTS §2.4 (a)], [CONV §2.19]
    def admit(self, pod):
        tscs = []
        for c in pod["tsc"]:
            c = dict(c)
            if not self.g_mindomains:
                c.pop("minDomains", None)
            if not self.g_nip:
                c.pop("nodeAffinityPolicy", None)
                c.pop("nodeTaintsPolicy", None)
            if not self.g_mlk:
                c.pop("matchLabelKeys", None)
            if self.g_mlk and self.g_mlk_merge and c.get("matchLabelKeys") and c.get("labelSelector") is not None:
                ls = dict(c["labelSelector"])
                exprs = list(ls.get("matchExpressions") or [])
                for k in c["matchLabelKeys"]:
                    if k in pod["labels"]:
                        exprs.append({"key": k, "operator": "In", "values": [pod["labels"][k]]})
                ls["matchExpressions"] = exprs
                c["labelSelector"] = ls
            tscs.append(c)
        pod["tsc"] = tscs

    # ---------------- constraints [PTS §2, §6]
    def normalize(self, c, pod, origin):
        sel = convert_selector(c.get("labelSelector"))
        if self.g_mlk and c.get("matchLabelKeys"):
            ml = {}
            for k in c["matchLabelKeys"]:
                if k in pod["labels"]:
                    ml[k] = pod["labels"][k]
            if ml and sel != NOTHING:
                # mergeLabelSetWithSelector: equality reqs first, then Add(each)
                merged = sel_from_set(ml)
                for r in sel:
                    merged = sel_add(merged, [r])
                sel = merged
        md = 1
        if self.g_mindomains and c.get("minDomains") is not None:
            md = c["minDomains"]
        nap = "Honor"
        ntp = "Ignore"
        if self.g_nip:
            if c.get("nodeAffinityPolicy") is not None:
                nap = c["nodeAffinityPolicy"]
            if c.get("nodeTaintsPolicy") is not None:
                ntp = c["nodeTaintsPolicy"]
        return {
            "topologyKey": c["topologyKey"], "whenUnsatisfiable": c["whenUnsatisfiable"],
            "maxSkew": c["maxSkew"], "minDomains": md, "nodeAffinityPolicy": nap,
            "nodeTaintsPolicy": ntp, "sel": sel, "origin": origin,
        }

    def default_selector(self, pod):
        """helper/spread.go DefaultSelector [PTS §6.2]; returns list of reqs."""
        label_set = {}
        for w in self.workloads:
            if w.get("kind") != "Service":
                continue
            if (w.get("namespace") or "default") != pod["namespace"]:
                continue
            s = w.get("selector")
            if s is None:
                continue
            s = {k: str(v) for k, v in s.items()}
            if all(pod["labels"].get(k) == v and k in pod["labels"] for k, v in s.items()):
                label_set.update(s)
        selector = sel_from_set(label_set) if label_set else []
        owner = None
        for o in pod["ownerReferences"]:
            if "controller" not in o or o.get("controller") is True:
                owner = o
                break
        if owner is None:
            return selector
        kind = owner.get("kind")
        api = owner.get("apiVersion")
        if api is None:
            api = "v1" if kind == "ReplicationController" else "apps/v1"
        target = None
        for w in self.workloads:
            if w.get("kind") == kind and w.get("name") == owner.get("name") and \
                    (w.get("namespace") or "default") == pod["namespace"]:
                target = w
                break
        if target is None:
            return selector
        if kind == "ReplicationController" and api == "v1":
            s = target.get("selector")
            if s is not None:
                label_set.update({k: str(v) for k, v in s.items()})
            selector = sel_from_set(label_set)
        elif kind in ("ReplicaSet", "StatefulSet") and api == "apps/v1":
            s = target.get("selector")
            if s is not None and not ("matchLabels" in s or "matchExpressions" in s):
                s = {"matchLabels": s}        # [CONV §2.15]
            other = convert_selector(s)
            if other != NOTHING:
                selector = sel_add(selector, other)
        return selector

    def constraints_for(self, pod):
        if pod["tsc"]:
            return [self.normalize(c, pod, "pod") for c in pod["tsc"]], True
        if self.defaulting == "System":
            dl = [
                {"topologyKey": HOSTNAME, "whenUnsatisfiable": "ScheduleAnyway", "maxSkew": 3},
                {"topologyKey": ZONE, "whenUnsatisfiable": "ScheduleAnyway", "maxSkew": 5},
            ]
        else:
            dl = self.default_list
        if not dl:
            return [], False
        sel = self.default_selector(pod)
        if len(sel) == 0:
            return [], False
        out = []
        for c in dl:
            n = self.normalize(c, pod, "default")
            n["sel"] = sel
            out.append(n)
        return out, False

    # ---------------- helpers
    def eligible(self, c, pod, node):
        """matchNodeInclusionPolicies [PTS §3.3.b]."""
        if not self.g_nip:
            return True  # handled by caller
        if c["nodeAffinityPolicy"] == "Honor" and not required_node_affinity_matches(pod, node):
            return False
        if c["nodeTaintsPolicy"] == "Honor" and has_untolerated_noschedule(node, pod["tolerations"]):
            return False
        return True

    def count_matching(self, node, sel, ns):
        if sel_empty(sel):
            return 0          # 1.37 empty-selector quirk [PTS §3.3.c]
        n = 0
        for q in self.pods_on(node):
            if q["terminating"] or q["namespace"] != ns:
                continue
            if sel_matches(sel, q["labels"]):
                n += 1
        return n


# --------------------------------------------------------------------------
# Scheduling one pod

def pts_prefilter(cl, pod, hard):
    doms = [dict() for _ in hard]
    for node in cl.nodes:
        if not cl.g_nip and not required_node_affinity_matches(pod, node):
            continue
        if any(c["topologyKey"] not in node["labels"] for c in hard):
            continue
        for i, c in enumerate(hard):
            if not cl.eligible(c, pod, node):
                continue
            v = node["labels"][c["topologyKey"]]
            doms[i][v] = doms[i].get(v, 0) + cl.count_matching(node, c["sel"], pod["namespace"])
    gmins = []
    for i, c in enumerate(hard):
        d = doms[i]
        mn = min(d.values()) if d else MAXINT32
        if len(d) < c["minDomains"]:
            mn = 0
        gmins.append(mn)
    return doms, gmins


def pts_filter(cl, pod, hard, doms, gmins, node):
    for i, c in enumerate(hard):
        k = c["topologyKey"]
        if k not in node["labels"]:
            return R_PTS_LABEL
        self_match = 1 if sel_matches(c["sel"], pod["labels"]) else 0
        match_num = doms[i].get(node["labels"][k], 0)
        skew = match_num + self_match - gmins[i]
        if skew > c["maxSkew"]:
            return R_PTS
    return None


def node_affinity_prefilter(cl, pod):
    """Returns None (all nodes), a set of names, or 'conflict' [OTH §5.2]."""
    req = pod["naRequired"]
    if req is None:
        return None
    terms = req.get("nodeSelectorTerms") or []
    if not terms:
        return None
    names = None
    for t in terms:
        tn = None
        for r in t.get("matchFields") or []:
            if r.get("key") == "metadata.name" and r.get("operator") == "In":
                s = set(str(v) for v in (r.get("values") or []))
                tn = s if tn is None else (tn & s)
        if tn is None:
            return None
        names = tn if names is None else (names | tn)
    if names is not None and len(names) == 0:
        return "conflict"
    return names


def ipa_prefilter(cl, pod):
    aff_counts = {}
    anti_counts = {}
    exist_counts = {}
    req_aff = pod["reqAff"]
    req_anti = pod["reqAnti"]
    by_node = {}
    for q in cl.pods:
        if q["bound"] is not None:
            by_node.setdefault(q["bound"], []).append(q)
    for node in cl.nodes:
        for q in by_node.get(node["name"], ()):
            # The incoming pod's namespaceSelector is resolved against the
            # existing namespaces [OTH §8.1]; every namespace holding a pod
            # exists, so matching it against q's namespace labels is the same.
            qns = ns_labels(q["namespace"])
            if req_aff and all(term_matches(t, q, qns) for t in req_aff):
                for t in req_aff:
                    if t["key"] in node["labels"]:
                        pr = (t["key"], node["labels"][t["key"]])
                        aff_counts[pr] = aff_counts.get(pr, 0) + 1
            for t in req_anti:
                if term_matches(t, q, qns):
                    if t["key"] in node["labels"]:
                        pr = (t["key"], node["labels"][t["key"]])
                        anti_counts[pr] = anti_counts.get(pr, 0) + 1
            for t in q["reqAnti"]:
                if term_matches(t, pod, ns_labels(pod["namespace"])):
                    if t["key"] in node["labels"]:
                        pr = (t["key"], node["labels"][t["key"]])
                        exist_counts[pr] = exist_counts.get(pr, 0) + 1
    return aff_counts, anti_counts, exist_counts


def ipa_filter(pod, st, node):
    aff_counts, anti_counts, exist_counts = st
    labels = node["labels"]
    # 1. required affinity
    pods_exist = True
    ok = True
    for t in pod["reqAff"]:
        if t["key"] in labels:
            if aff_counts.get((t["key"], labels[t["key"]]), 0) <= 0:
                pods_exist = False
        else:
            ok = False
            break
    if not ok:
        return R_IPA_AFF
    if not pods_exist:
        if not (len(aff_counts) == 0 and all(term_matches(t, pod, ns_labels(pod["namespace"])) for t in pod["reqAff"])):
            return R_IPA_AFF
    # 2. required anti-affinity
    for t in pod["reqAnti"]:
        if t["key"] in labels and anti_counts.get((t["key"], labels[t["key"]]), 0) > 0:
            return R_IPA_ANTI
    # 3. existing pods' anti-affinity
    for k, v in labels.items():
        if exist_counts.get((k, v), 0) > 0:
            return R_IPA_EXIST
    return None


def fit_filter(cl, pod, node, unresolvable=None):
    """Reasons in the plugin's order [OTH §6.2].  When `unresolvable` is a list,
    appends whether the status is UnschedulableAndUnresolvable: some insufficient
    resource (not the pod count) is requested beyond the node's whole allocatable."""
    reasons = []
    unres = False
    on = cl.pods_on(node)
    if len(on) + 1 > node["alloc"].get("pods", 0):
        reasons.append("Too many pods")
    req = pod["req"]
    if not all(v == 0 for v in req.values()):
        used = {}
        for q in on:
            for k, v in q["req"].items():
                used[k] = used.get(k, 0) + v
        rest = sorted(k for k in req if k not in ("cpu", "memory", "ephemeral-storage", "pods"))
        for r in ["cpu", "memory", "ephemeral-storage"] + rest:
            want = req.get(r, 0)
            alloc = node["alloc"].get(r, 0)
            if want > 0 and want > alloc - used.get(r, 0):
                reasons.append("Insufficient " + r)
                if want > alloc:
                    unres = True
    if unresolvable is not None:
        unresolvable.append(unres)
    return reasons


def pts_filter_status(cl, pod, pts_state, node):
    """(reason, unresolvable) of PodTopologySpread's Filter, or None [PTS §4]."""
    if pts_state is None:
        return None
    hard, doms, gmins = pts_state
    r = pts_filter(cl, pod, hard, doms, gmins, node)
    if r is None:
        return None
    return r, r == R_PTS_LABEL


def all_filters(cl, pod, node, pts_state, ipa_state, first_only=False):
    """Every failing Filter plugin on the node, in filter order [DBG §1]:
    a list of (plugin, [reasons], unresolvable).  The scheduler itself stops
    at the first one (first_only)."""
    out = []

    def add(plugin, reasons, unres):
        out.append((plugin, reasons, unres))
        return first_only

    unsched_taint = {"key": UNSCHED_TAINT, "value": "", "effect": "NoSchedule"}
    if node["unschedulable"] and not tolerated(pod["tolerations"], unsched_taint):
        if add("NodeUnschedulable", [R_UNSCHED], True):
            return out
    nn = pod["raw"].get("nodeName")
    if nn and nn != node["name"]:
        if add("NodeName", [R_NODENAME], True):
            return out
    if has_untolerated_noschedule(node, pod["tolerations"]):
        if add("TaintToleration", [R_TAINT], True):
            return out
    if not required_node_affinity_matches(pod, node):
        if add("NodeAffinity", [R_NA], True):
            return out
    unres = []
    rs = fit_filter(cl, pod, node, unres)
    if rs:
        if add("NodeResourcesFit", rs, unres[0]):
            return out
    st = pts_filter_status(cl, pod, pts_state, node)
    if st:
        if add("PodTopologySpread", [st[0]], st[1]):
            return out
    r = ipa_filter(pod, ipa_state, node)
    if r:
        add("InterPodAffinity", [r], r == R_IPA_AFF)
    return out


def run_filters(cl, pod, node, pts_state, ipa_state):
    """Returns (plugin, [reasons]) or (None, [])."""
    b = all_filters(cl, pod, node, pts_state, ipa_state, first_only=True)
    if not b:
        return None, []
    return b[0][0], b[0][1]


def nominated_on(cl, pod, node):
    """Pods nominated to the node that RunFilterPluginsWithNominatedPods adds:
    other pending pods of at least the pod's priority [NOTES §1]."""
    return [q for q in cl.pods if q is not pod and q["bound"] is None
            and q["nominated"] == node["name"] and q["priority"] >= pod["priority"]]


def filters_with_nominated(cl, pod, node, pts_state, ipa_state=None, first_only=False):
    """RunFilterPluginsWithNominatedPods [NOTES §1]: with the nominated pods
    bound to the node first (PodTopologySpread's AddPod on the cycle state,
    InterPodAffinity's state recomputed, which is the same as its AddPod);
    if that passes, again without them.  Returns the failing filters of the
    deciding pass (ipa_state None: computed from the cluster as it is)."""
    noms = nominated_on(cl, pod, node)
    if noms:
        for q in noms:
            q["bound"] = node["name"]
            q["bindseq"] = float("inf")
        try:
            st0 = None
            if pts_state is not None:
                hard = pts_state[0]
                doms = [dict(d) for d in pts_state[1]]
                for q in noms:
                    pts_update(cl, pod, hard, doms, q, node, +1)
                st0 = (hard, doms, gmins_of(hard, doms))
            b = all_filters(cl, pod, node, st0, ipa_prefilter(cl, pod), first_only)
        finally:
            for q in noms:
                q["bound"] = None
                q["bindseq"] = None
        if b:
            return b
    if ipa_state is None:
        ipa_state = ipa_prefilter(cl, pod)
    return all_filters(cl, pod, node, pts_state, ipa_state, first_only)


FILTER_ORDER = ["NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
                "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity"]


# ---------------- scores

def score_taint(cl, pod, feas):
    tols = [t for t in pod["tolerations"] if (t.get("effect") or "") in ("", "PreferNoSchedule")]
    raw = {}
    for n in feas:
        raw[n["name"]] = sum(1 for t in n["taints"]
                             if t.get("effect") == "PreferNoSchedule" and not tolerated(tols, t))
    mx = max(raw.values())
    out = {}
    for n in feas:
        if mx == 0:
            out[n["name"]] = 100
        else:
            out[n["name"]] = 100 - (100 * raw[n["name"]] // mx)
    return out


def score_node_affinity(cl, pod, feas):
    terms = pod["naPreferred"]
    if not terms:
        return None
    raw = {}
    for n in feas:
        s = 0
        for t in terms:
            w = t.get("weight", 0)
            pref = t.get("preference") or {}
            if w == 0:
                continue
            if not (pref.get("matchExpressions") or pref.get("matchFields")):
                continue
            if node_term_matches(pref, n):
                s += w
        raw[n["name"]] = s
    mx = max(raw.values())
    return {k: (0 if mx == 0 else 100 * v // mx) for k, v in raw.items()}


def score_fit(cl, pod, feas):
    out = {}
    for n in feas:
        on = cl.pods_on(n)
        req_cpu = sum(q["nzcpu"] for q in on) + pod["nzcpu"]
        req_mem = sum(q["nzmem"] for q in on) + pod["nzmem"]
        tot = 0
        cnt = 0
        for req, alloc in ((req_cpu, n["alloc"].get("cpu", 0)), (req_mem, n["alloc"].get("memory", 0))):
            if alloc == 0:
                continue
            s = 0 if req > alloc else (alloc - req) * 100 // alloc
            tot += s
            cnt += 1
        out[n["name"]] = tot // cnt if cnt else 0
    return out


def _balance(fracs):
    if len(fracs) == 2:
        std = abs((fracs[0] - fracs[1]) / 2)
    elif len(fracs) > 2:
        mean = sum(fracs) / len(fracs)
        std = math.sqrt(sum((f - mean) ** 2 for f in fracs) / len(fracs))
    else:
        std = 0.0
    return int((1 - std) * 100)


def score_balanced(cl, pod, feas):
    pc = pod["req"].get("cpu", 0)
    pm = pod["req"].get("memory", 0)
    if pc == 0 and pm == 0:
        return None
    out = {}
    for n in feas:
        on = cl.pods_on(n)
        uc = sum(q["req"].get("cpu", 0) for q in on)
        um = sum(q["req"].get("memory", 0) for q in on)
        fw, fwo = [], []
        for used, p, alloc in ((uc, pc, n["alloc"].get("cpu", 0)), (um, pm, n["alloc"].get("memory", 0))):
            if alloc == 0:
                continue
            fw.append(min(1.0, float(used + p) / float(alloc)))
            fwo.append(min(1.0, float(used) / float(alloc)))
        w = _balance(fw)
        wo = _balance(fwo)
        v = 50 + w - wo
        out[n["name"]] = 50 + (int(v / 2) if v >= 0 else -((-v) // 2))
    return out


def pts_prescore(cl, pod, soft, own, feas):
    """Returns (counts per constraint, weights, ignored set) [PTS §5.1]."""
    require_all = own or cl.defaulting != "System"
    ignored = set()
    counts = [dict() for _ in soft]
    size = [0] * len(soft)
    for n in feas:
        if require_all and any(c["topologyKey"] not in n["labels"] for c in soft):
            ignored.add(n["name"])
            continue
        for i, c in enumerate(soft):
            if c["topologyKey"] == HOSTNAME:
                continue
            v = n["labels"].get(c["topologyKey"], "")
            if v not in counts[i]:
                counts[i][v] = 0
                size[i] += 1
    weights = []
    for i, c in enumerate(soft):
        sz = size[i]
        if c["topologyKey"] == HOSTNAME:
            sz = len(feas) - len(ignored)
        weights.append(math.log(sz + 2))
    for n in cl.nodes:
        if not cl.g_nip and not required_node_affinity_matches(pod, n):
            continue
        if require_all and any(c["topologyKey"] not in n["labels"] for c in soft):
            continue
        for i, c in enumerate(soft):
            if not cl.eligible(c, pod, n):
                continue
            v = n["labels"].get(c["topologyKey"], "")
            if c["topologyKey"] == HOSTNAME or v not in counts[i]:
                continue
            counts[i][v] += cl.count_matching(n, c["sel"], pod["namespace"])
    return counts, weights, ignored


def go_round(x):
    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


def score_pts(cl, pod, soft, own, feas):
    counts, weights, ignored = pts_prescore(cl, pod, soft, own, feas)
    raw = {}
    for n in feas:
        if n["name"] in ignored:
            raw[n["name"]] = 0
            continue
        s = 0.0
        for i, c in enumerate(soft):
            k = c["topologyKey"]
            if k in n["labels"]:
                if k == HOSTNAME:
                    cnt = cl.count_matching(n, c["sel"], pod["namespace"])
                else:
                    cnt = counts[i][n["labels"][k]]
                s += float(cnt) * weights[i] + float(c["maxSkew"] - 1)
        raw[n["name"]] = go_round(s)
    mn = None
    mx = 0
    for n in feas:
        if n["name"] in ignored:
            continue
        r = raw[n["name"]]
        mn = r if mn is None or r < mn else mn
        mx = max(mx, r)
    out = {}
    for n in feas:
        if n["name"] in ignored:
            out[n["name"]] = 0
        elif mx == 0:
            out[n["name"]] = 100
        else:
            out[n["name"]] = 100 * (mx + mn - raw[n["name"]]) // mx
    return out, counts


def score_ipa(cl, pod, feas):
    has_pref = bool(pod["prefAff"] or pod["prefAnti"])
    topo = {}
    nsl = ns_labels(pod["namespace"])

    def add(key, node, val):
        if key in node["labels"]:
            d = topo.setdefault(key, {})
            v = node["labels"][key]
            d[v] = d.get(v, 0) + val

    for node in cl.nodes:
        for q in cl.pods_on(node):
            if not has_pref and not (q["reqAff"] or q["reqAnti"] or q["prefAff"] or q["prefAnti"]):
                continue
            if len(node["labels"]) == 0:
                continue
            qns = ns_labels(q["namespace"])
            for w, t in pod["prefAff"]:
                if term_matches(t, q, qns):
                    add(t["key"], node, w)
            for w, t in pod["prefAnti"]:
                if term_matches(t, q, qns):
                    add(t["key"], node, -w)
            for t in q["reqAff"]:
                if term_matches(t, pod, nsl):
                    add(t["key"], node, 1)
            for w, t in q["prefAff"]:
                if term_matches(t, pod, nsl):
                    add(t["key"], node, w)
            for w, t in q["prefAnti"]:
                if term_matches(t, pod, nsl):
                    add(t["key"], node, -w)
    if not topo:
        return None
    raw = {}
    for n in feas:
        s = 0
        for k, vals in topo.items():
            if k in n["labels"]:
                s += vals.get(n["labels"][k], 0)
        raw[n["name"]] = s
    mn = min(raw.values())
    mx = max(raw.values())
    out = {}
    for k, v in raw.items():
        f = 0.0
        if mx - mn > 0:
            f = 100.0 * (float(v - mn) / float(mx - mn))
        out[k] = int(f)
    return out


def fit_message(n_nodes, statuses):
    hist = {}
    for plugin, reasons in statuses:
        for r in reasons:
            hist[r] = hist.get(r, 0) + 1
    parts = sorted("%d %s" % (c, r) for r, c in hist.items())
    return "0/%d nodes are available: %s." % (n_nodes, ", ".join(parts))


# --------------------------------------------------------------------------
# Preemption: DefaultPreemption's PostFilter [DBG §2], from /work/notes/preemption.md
# ([NOTES §n]) only.

R_NO_VICTIMS = "No preemption victims found for incoming pod"
R_NOT_HELPFUL = "Preemption is not helpful for scheduling"
EVENT_LIMIT = 1024

# Choices where the contract or upstream leaves room, kept switchable:
# - v1.37's FilterVictimsWithPDBViolation stops at the first PDB that goes
#   negative for a pod (older releases decrement every matching PDB) [NOTES §5].
PDB_STOP_AT_FIRST_VIOLATED = True
# - prepareCandidate clears the nomination of lower-priority pods nominated to
#   the chosen node [NOTES §9].
CLEAR_LOWER_NOMINATED = True
# - "skewer also runs the later filters on that node" [DBG §1] taken literally
#   for the NodeAffinity PreFilter rejection (pod affinity terms conflict).
CONFLICT_LATER_FILTERS = True
# - PodTopologySpread's AddPod/RemovePod count terminating pods, as upstream's
#   updateWithPod does (only the PreFilter count skips them) [PTS §3.1].
PTS_UPDATE_COUNTS_TERMINATING = True
# - ... and count for a labelSelector {} constraint: the v1.37 shortcut that
#   counts no pods is in the PreFilter count only [PTS §3.3.c, §3.1].
PTS_UPDATE_EMPTY_SELECTOR_COUNTS = True
# - A pending pod of the input takes its priority and preemptionPolicy from
#   its PriorityClass (or the globalDefault one) in its cycles, not only in
#   the queue order [DBG §2 table].
INPUT_PENDING_CLASS_RESOLVED = True
INPUT_PENDING_CLASS_POLICY = True
# - The dry run stops once it has max(10%, 100) candidates (capped at the
#   potential nodes), one of them without PDB violations [NOTES §4].
DRY_RUN_EARLY_STOP = True


def start_key(p):
    """GetPodStartTime: a pod without status.startTime counts as started now,
    i.e. later than any time a scenario gives [DBG §2]."""
    t = p["startTime"]
    if t is None:
        return (1, None)
    return (0, datetime.datetime.fromisoformat(str(t).replace("Z", "+00:00")))


def importance(p):
    """MoreImportantPod as a sort key (smaller = more important): higher priority,
    then earlier start.  Python's sort is stable: equal pods keep the node's order."""
    return (-p["priority"], start_key(p))


def pts_update(cl, pod, hard, doms, q, node, delta):
    """PodTopologySpread AddPod/RemovePod on the cycle state [PTS §3.1]: no
    deletionTimestamp check and no empty-selector shortcut here."""
    if q["namespace"] != pod["namespace"]:
        return
    if q["terminating"] and not PTS_UPDATE_COUNTS_TERMINATING:
        return
    if any(c["topologyKey"] not in node["labels"] for c in hard):
        return
    if not cl.g_nip and not required_node_affinity_matches(pod, node):
        return
    for i, c in enumerate(hard):
        if not sel_matches(c["sel"], q["labels"]):
            continue
        if sel_empty(c["sel"]) and not PTS_UPDATE_EMPTY_SELECTOR_COUNTS:
            continue
        if not cl.eligible(c, pod, node):
            continue
        v = node["labels"][c["topologyKey"]]
        doms[i][v] = doms[i].get(v, 0) + delta


def gmins_of(hard, doms):
    out = []
    for i, c in enumerate(hard):
        d = doms[i]
        mn = min(d.values()) if d else MAXINT32
        if len(d) < c["minDomains"]:
            mn = 0
        out.append(mn)
    return out


def _int_or_percent(v, total):
    """GetScaledValueFromIntOrPercent, rounding up."""
    if isinstance(v, str) and v.endswith("%"):
        return -((-int(v[:-1]) * total) // 100)
    return int(v)


def pdb_allowed(cl, pod):
    """status.disruptionsAllowed of each budget, read once per cycle: as given,
    else computed from the pods as they are when the cycle runs, as skewer
    documents it (docs/semantics.md, after disruption.go): the matching pods
    of the budget's namespace, pending ones and this pod included, are
    expected; the bound, non-terminating ones are healthy."""
    pods = list(cl.pods)
    if not any(q is pod for q in pods):
        pods.append(pod)
    out = []
    for b in cl.pdbs:
        if b["allowed"] is not None:
            out.append(b["allowed"])
            continue
        raw = b["raw"]
        sel = b["sel"]                  # the controller: {} selects every pod
        match = [q for q in pods if q["namespace"] == b["namespace"] and sel_matches(sel, q["labels"])]
        expected = len(match)
        healthy = sum(1 for q in match if q["bound"] is not None and not q["terminating"])
        if raw.get("minAvailable") is not None:
            desired = _int_or_percent(raw["minAvailable"], expected)
        elif raw.get("maxUnavailable") is not None:
            desired = max(0, expected - _int_or_percent(raw["maxUnavailable"], expected))
        else:
            expected = 0            # the controller's expected count stays 0
            desired = 0
        allowed = healthy - desired
        out.append(allowed if expected > 0 and allowed > 0 else 0)
    return out


def pdb_split(cl, pods, allowed):
    """filterPodsWithPDBViolation over pods in importance order [NOTES §5];
    `allowed` is each budget's disruptionsAllowed, copied per node."""
    allowed = list(allowed)
    violating, non = [], []
    for q in pods:
        viol = False
        if q["labels"]:
            for i, b in enumerate(cl.pdbs):
                if b["namespace"] != q["namespace"]:
                    continue
                if b["sel"] == NOTHING or sel_empty(b["sel"]) or not sel_matches(b["sel"], q["labels"]):
                    continue
                allowed[i] -= 1
                if allowed[i] < 0:
                    viol = True
                    if PDB_STOP_AT_FIRST_VIOLATED:
                        break
        (violating if viol else non).append(q)
    return violating, non


def select_victims(cl, pod, node, pts_state, allowed):
    """SelectVictimsOnNode [NOTES §5]: (victims, numPDBViolations, None) or
    (None, 0, status).  Leaves the cluster as it found it."""
    potential = [q for q in cl.pods_on(node) if q["priority"] < pod["priority"]]
    if not potential:
        return None, 0, ("DefaultPreemption", [R_NO_VICTIMS], True)
    if pts_state is not None:
        hard = pts_state[0]
        doms = [dict(d) for d in pts_state[1]]

    def remove(q):
        q["bound"] = None
        if pts_state is not None:
            pts_update(cl, pod, hard, doms, q, node, -1)

    def add(q):
        q["bound"] = node["name"]
        if pts_state is not None:
            pts_update(cl, pod, hard, doms, q, node, +1)

    def status():
        st = (hard, doms, gmins_of(hard, doms)) if pts_state is not None else None
        b = filters_with_nominated(cl, pod, node, st, None, first_only=True)
        return b[0] if b else None

    try:
        for q in potential:
            remove(q)
        st = status()
        if st is not None:
            return None, 0, st
        potential.sort(key=importance)
        violating, non = pdb_split(cl, potential, allowed)
        victims = []
        nviol = 0
        for group, counts in ((violating, True), (non, False)):
            for q in group:
                add(q)
                if status() is not None:
                    remove(q)
                    victims.append(q)
                    if counts:
                        nviol += 1
        if violating and non:
            victims.sort(key=importance)
        return victims, nviol, None
    finally:
        for q in potential:
            q["bound"] = node["name"]


def pick_candidate(cl, cands):
    """pickOneNodeForPreemption [NOTES §6]; the last tie goes to the first
    candidate in node order (skewer's documented choice)."""
    order = {n["name"]: i for i, n in enumerate(cl.nodes)}
    cands = sorted(cands, key=lambda c: order[c["node"]])
    if len(cands) == 1:
        return cands[0]

    def latest_start(c):
        top = max(q["priority"] for q in c["victims"])
        return min(start_key(q) for q in c["victims"] if q["priority"] == top)

    crits = [
        lambda c: -c["nviol"],
        lambda c: -max(q["priority"] for q in c["victims"]),
        lambda c: -sum(q["priority"] + 2**31 for q in c["victims"]),
        lambda c: -len(c["victims"]),
        latest_start,
    ]
    for f in crits:
        best = max(f(c) for c in cands)
        cands = [c for c in cands if f(c) == best]
        if len(cands) == 1:
            break
    return cands[0]


def truncate_event(msg):
    b = msg.encode()
    if len(b) <= EVENT_LIMIT:
        return msg
    return b[:EVENT_LIMIT - 4].decode(errors="replace") + " ..."


def postfilter(cl, pod, res, statuses, pts_state):
    """Runs DefaultPreemption for a pending cycle: fills res["preemption"] and
    res["event"], deletes the victims and sets or clears the nomination."""
    if not cl.preemption:
        # scheduler.preemption: false, no PostFilter plugin: the FitError alone,
        # and the nomination is cleared [NOTES §1]; no PostFilter message.
        pod["nominated"] = None
        res["preemption"] = {"message": None, "nominatedNode": None, "victims": []}
        res["event"] = truncate_event(res["message"])
        return
    pre = {"message": None, "nominatedNode": None, "victims": []}
    res["preemption"] = pre
    if pod["preemptionPolicy"] == "Never":
        # The pod keeps its nomination; this cycle nominates nothing, and
        # `nominatedNode` is what this cycle's preemption nominated.
        pre["message"] = "preemption: not eligible due to preemptionPolicy=Never."
    else:
        # Eligible: a nominated node's terminating pods block only when they are
        # terminating by preemption (DisruptionTarget), which no scenario has.
        potential = [n for n in cl.nodes if not statuses[n["name"]][2]]
        allowed = pdb_allowed(cl, pod)
        n_cand = min(max(len(potential) * 10 // 100, 100), len(potential))
        dry = {}
        nonviol, viol = [], []
        for n in potential:                              # offset 0
            victims, nv, st = select_victims(cl, pod, n, pts_state, allowed)
            if st is not None:
                dry[n["name"]] = st
                continue
            assert victims, "expected at least one victim pod on node %s" % n["name"]
            (nonviol if nv == 0 else viol).append({"node": n["name"], "victims": victims, "nviol": nv})
            if DRY_RUN_EARLY_STOP and nonviol and len(nonviol) + len(viol) >= n_cand:
                break
        cands = nonviol + viol
        if not cands:
            st = [(p, r) for p, r, u in dry.values()]
            st += [("", [R_NOT_HELPFUL])] * (len(cl.nodes) - len(dry))
            pre["message"] = "preemption: " + fit_message(len(cl.nodes), st)
            pod["nominated"] = None
        else:
            best = pick_candidate(cl, cands)
            for q in best["victims"]:
                cl.pods.remove(q)
            if CLEAR_LOWER_NOMINATED:
                for q in cl.pods:
                    if q is not pod and q["bound"] is None and q["nominated"] == best["node"] \
                            and q["priority"] < pod["priority"]:
                        q["nominated"] = None
            pod["nominated"] = best["node"]
            pre["nominatedNode"] = best["node"]
            pre["victims"] = [pod_key(q) for q in best["victims"]]
            pre["message"] = "preemption: found a potential placement for pod on node %s, preempting %d victims" % (
                best["node"], len(best["victims"]))
    res["event"] = truncate_event(res["message"] + " " + pre["message"])


def schedule_pod(cl, pod, choose=None):
    """Runs one scheduling cycle; returns a step dict (without index/action)."""
    cons, own = cl.constraints_for(pod)
    hard = [c for c in cons if c["whenUnsatisfiable"] == "DoNotSchedule"]
    soft = [c for c in cons if c["whenUnsatisfiable"] == "ScheduleAnyway"]
    doms, gmins = pts_prefilter(cl, pod, hard)
    res = {"pod": pod_key(pod), "node": None, "message": None}
    if choose is not None:
        res["_choose"] = choose     # not compared: tells run.py that `choose` decided

    def cons_out(soft_counts):
        out = []
        hi = si = 0
        for c in cons:
            d = {k: c[k] for k in ("topologyKey", "whenUnsatisfiable", "maxSkew", "minDomains",
                                   "nodeAffinityPolicy", "nodeTaintsPolicy", "origin")}
            d["selector"] = sel_string(c["sel"])
            d["selfMatch"] = sel_matches(c["sel"], pod["labels"])
            if c["whenUnsatisfiable"] == "DoNotSchedule":
                d["globalMin"] = gmins[hi]
                dm = doms[hi]
                hi += 1
            else:
                d["globalMin"] = None
                dm = soft_counts[si] if soft_counts is not None else {}
                si += 1
            d["domains"] = [{"value": v, "matchNum": dm[v]} for v in sorted(dm)]
            out.append(d)
        return out

    if not cl.nodes:
        # ErrNoNodesAvailable: no PostFilter; the nomination is cleared [NOTES §1]
        res["outcome"] = "pending"
        res["message"] = "no nodes available to schedule pods"
        res["event"] = res["message"]
        res["constraints"] = cons_out(None)
        res["nodes"] = []
        if choose is not None:
            res["outcome"] = "error"
            res["message"] = "choose: no node %s" % choose
            del res["event"]
        else:
            pod["nominated"] = None
        return res, None

    ipa_state = ipa_prefilter(cl, pod)
    pts_state = (hard, doms, gmins) if hard else None

    def spread_of(n):
        """[DBG §1] one entry per hard constraint, `constraint` = index in cons."""
        out = []
        hi = 0
        for i, c in enumerate(cons):
            if c["whenUnsatisfiable"] != "DoNotSchedule":
                continue
            k = c["topologyKey"]
            if k not in n["labels"]:
                out.append({"constraint": i, "domain": None, "ok": False})
            else:
                v = n["labels"][k]
                m = doms[hi].get(v, 0)
                sm = 1 if sel_matches(c["sel"], pod["labels"]) else 0
                skew = m + sm - gmins[hi]
                out.append({"constraint": i, "domain": v, "matchNum": m, "selfMatch": sm,
                            "globalMin": gmins[hi], "skew": skew, "ok": skew <= c["maxSkew"]})
            hi += 1
        return out

    def blockers_of(n, first):
        """The scheduler's verdict `first` (plugin, reasons, unresolvable), then
        every later failing filter in filter order [DBG §1]."""
        later = filters_with_nominated(cl, pod, n, pts_state, ipa_state)
        pos = FILTER_ORDER.index(first[0])
        return [first] + [b for b in later if FILTER_ORDER.index(b[0]) > pos]

    def blockers_json(bl):
        return [{"plugin": p, "reason": ", ".join(r), "unresolvable": u} for p, r, u in bl]

    na_pre = node_affinity_prefilter(cl, pod)
    if na_pre == "conflict":
        # PreFilter rejects every node [CONV §7]; preemption helps nowhere
        res["outcome"] = "pending"
        res["message"] = "0/%d nodes are available: %s." % (len(cl.nodes), R_NA_CONFLICT)
        res["constraints"] = cons_out(None)
        res["nodes"] = []
        for n in cl.nodes:
            first = ("NodeAffinity", [R_NA_CONFLICT], True)
            res["nodes"].append({"name": n["name"], "feasible": False, "plugin": "NodeAffinity",
                                 "reason": R_NA_CONFLICT,
                                 "blockers": blockers_json(blockers_of(n, first) if CONFLICT_LATER_FILTERS else [first]),
                                 "spread": spread_of(n) if CONFLICT_LATER_FILTERS else []})
        if choose is not None:
            res["outcome"] = "error"
            if cl.node(choose) is None:
                res["message"] = "choose: no node %s" % choose
            else:
                res["message"] = "choose: node %s is not feasible: NodeAffinity: %s" % (choose, R_NA_CONFLICT)
            return res, None
        statuses = {n["name"]: ("NodeAffinity", [R_NA_CONFLICT], True) for n in cl.nodes}
        postfilter(cl, pod, res, statuses, pts_state)
        return res, None

    nodes_out = []
    statuses = {}           # node name -> the scheduler's status (plugin, reasons, unresolvable)
    feas = []
    for n in cl.nodes:
        if na_pre is not None and n["name"] not in na_pre:
            first = ("NodeAffinity", [R_NA_PRE], True)
        else:
            b = filters_with_nominated(cl, pod, n, pts_state, ipa_state, first_only=True)
            first = b[0] if b else None
        if first is None:
            feas.append(n)
            nodes_out.append({"name": n["name"], "feasible": True, "plugin": None, "reason": None,
                              "blockers": [], "spread": spread_of(n)})
        else:
            statuses[n["name"]] = first
            nodes_out.append({"name": n["name"], "feasible": False, "plugin": first[0],
                              "reason": ", ".join(first[1]),
                              "blockers": blockers_json(blockers_of(n, first)),
                              "spread": spread_of(n)})
    # A nominated node is evaluated first and taken, unscored, if it passes
    # every filter [NOTES §1 evaluateNominatedNode]; `choose` overrides it.
    via_nomination = None
    if pod["nominated"] is not None and choose is None:
        nn = cl.node(pod["nominated"])
        if nn is not None and not filters_with_nominated(cl, pod, nn, pts_state, ipa_state, first_only=True):
            via_nomination = nn["name"]
    soft_counts = None
    if feas:
        scores = {}
        w = cl.weights
        s = score_taint(cl, pod, feas)
        if w.get("TaintToleration", 0):
            scores["TaintToleration"] = s
        s = score_node_affinity(cl, pod, feas)
        if s is not None and w.get("NodeAffinity", 0):
            scores["NodeAffinity"] = s
        s = score_fit(cl, pod, feas)
        if w.get("NodeResourcesFit", 0):
            scores["NodeResourcesFit"] = s
        if soft:
            s, soft_counts = score_pts(cl, pod, soft, own, feas)
            if w.get("PodTopologySpread", 0):
                scores["PodTopologySpread"] = s
        s = score_ipa(cl, pod, feas)
        if s is not None and w.get("InterPodAffinity", 0):
            scores["InterPodAffinity"] = s
        s = score_balanced(cl, pod, feas)
        if s is not None and w.get("NodeResourcesBalancedAllocation", 0):
            scores["NodeResourcesBalancedAllocation"] = s
        totals = {}
        for no in nodes_out:
            if no["feasible"]:
                sc = {p: scores[p][no["name"]] for p in scores}
                no["scores"] = sc
                no["total"] = sum(w[p] * v for p, v in sc.items())
                totals[no["name"]] = no["total"]
        best = None
        for n in feas:
            if best is None or totals[n["name"]] > totals[best]:
                best = n["name"]
        res["constraints"] = cons_out(soft_counts)
        res["nodes"] = nodes_out
        if choose is not None:
            chosen = cl.node(choose)
            if chosen is None:
                res["outcome"] = "error"
                res["message"] = "choose: no node %s" % choose
                return res, None
            if chosen["name"] not in totals:
                no = [x for x in nodes_out if x["name"] == choose][0]
                res["outcome"] = "error"
                res["message"] = "choose: node %s is not feasible: %s: %s" % (choose, no["plugin"], no["reason"])
                return res, None
            best = choose
        if via_nomination is not None:
            best = via_nomination
            res["nominatedFirst"] = True
        res["outcome"] = "scheduled"
        res["node"] = best
        return res, best
    assert via_nomination is None
    res["constraints"] = cons_out(None)
    res["nodes"] = nodes_out
    if choose is not None:
        chosen = cl.node(choose)
        res["outcome"] = "error"
        if chosen is None:
            res["message"] = "choose: no node %s" % choose
        else:
            no = [x for x in nodes_out if x["name"] == choose][0]
            res["message"] = "choose: node %s is not feasible: %s: %s" % (choose, no["plugin"], no["reason"])
        return res, None
    res["outcome"] = "pending"
    res["message"] = fit_message(len(cl.nodes), [(p, r) for p, r, u in statuses.values()])
    postfilter(cl, pod, res, statuses, pts_state)
    return res, None


# --------------------------------------------------------------------------
# Validation (only the subset the generator can produce) [PTS §7.1]

def validate(cl, pod):
    """API validation of topologySpreadConstraints, after admission [PTS §7.1-7.2],
    [CONV §1 matchLabelKeys].  Order per constraint as in validation.go."""
    errs = []
    tsc = pod["tsc"]
    for i, c in enumerate(tsc):
        p = "spec.topologySpreadConstraints[%d]" % i
        if c.get("maxSkew", 0) <= 0:
            errs.append("%s.maxSkew: Invalid value: %d: must be greater than zero" % (p, c.get("maxSkew", 0)))
        if c.get("topologyKey", "") == "":
            errs.append("%s.topologyKey: Required value: can not be empty" % p)
        w = c.get("whenUnsatisfiable")
        if w not in ("DoNotSchedule", "ScheduleAnyway"):
            errs.append('%s.whenUnsatisfiable: Unsupported value: "%s": supported values: '
                        '"DoNotSchedule", "ScheduleAnyway"' % (p, w or ""))
        for d in tsc[i + 1:]:
            if d.get("topologyKey") == c.get("topologyKey") and d.get("whenUnsatisfiable") == w:
                errs.append('%s.{topologyKey, whenUnsatisfiable}: Duplicate value: "{%s, %s}"' % (
                    p, c.get("topologyKey"), w))
                break
        if c.get("minDomains") is not None:
            if c["minDomains"] <= 0:
                errs.append("%s.minDomains: Invalid value: %d: must be greater than zero" % (p, c["minDomains"]))
            if w != "DoNotSchedule":
                errs.append("%s.minDomains: Invalid value: %d: can only use minDomains if "
                            "whenUnsatisfiable=DoNotSchedule, not %s" % (p, c["minDomains"], w))
        for pol in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
            if c.get(pol) is not None and c[pol] not in ("Honor", "Ignore"):
                errs.append('%s.%s: Unsupported value: "%s": supported values: "Honor", "Ignore"' % (p, pol, c[pol]))
        mlk = c.get("matchLabelKeys") or []
        ls = c.get("labelSelector")
        if mlk and ls is None:
            errs.append("%s.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set" % p)
        elif mlk and cl.g_mlk_merge:
            # 1.34+ rule, run after the API-server merge; the index is the
            # key's position in matchLabelKeys (validateMatchLabelKeysAndMismatchLabelKeys)
            idx = {}
            for j, k in enumerate(mlk):
                idx[k] = j
            seen = set((ls.get("matchLabels") or {}).keys())
            for e in ls.get("matchExpressions") or []:
                if e["key"] in idx and e["key"] in seen:
                    errs.append('%s[%d]: Invalid value: "%s": exists in both matchLabelKeys and labelSelector'
                                % (p, idx[e["key"]], e["key"]))
                seen.add(e["key"])
        elif mlk:
            keys = set((ls.get("matchLabels") or {}).keys()) | set(e["key"] for e in ls.get("matchExpressions") or [])
            for j, k in enumerate(mlk):
                if k in keys:
                    errs.append('%s.matchLabelKeys[%d]: Invalid value: "%s": exists in both matchLabelKeys and '
                                'labelSelector' % (p, j, k))
        if ls is not None:
            for j, e in enumerate(ls.get("matchExpressions") or []):
                if e.get("operator") in ("In", "NotIn") and not e.get("values"):
                    errs.append("%s.labelSelector.matchExpressions[%d].values: Required value: must be specified "
                                "when `operator` is 'In' or 'NotIn'" % (p, j))
    return errs


# --------------------------------------------------------------------------
# Steps

def run(scen):
    cl = Cluster(scen)
    steps_in = []
    pending = []
    for i, raw in enumerate(scen.get("pods") or []):
        if raw.get("nodeName"):
            p = build_pod(raw)
            p["priority"] = cl.bound_priority(raw)
            p["preemptionPolicy"] = cl.input_policy(raw)
            cl.bind(p, raw["nodeName"])
            cl.pods.append(p)
        else:
            pending.append((i, raw))

    def qkey(item):
        i, raw = item
        ts = raw.get("creationTimestamp")
        return (-cl.bound_priority(raw), 0 if ts else 1, ts or "", i)

    for i, raw in sorted(pending, key=qkey):
        steps_in.append({"schedule": raw, "_input": True})
    for st in scen.get("steps") or []:
        if "schedule" in st and st.get("replicas"):
            for r in range(1, st["replicas"] + 1):
                raw = dict(st["schedule"])
                raw["name"] = "%s-%d" % (st["schedule"]["name"], r)
                s2 = dict(st)
                s2["schedule"] = raw
                del s2["replicas"]
                steps_in.append(s2)
        else:
            steps_in.append(st)

    out_steps = []
    for idx, st in enumerate(steps_in, 1):
        action = [k for k in st if k not in ("note", "replicas", "choose", "expect", "_input")][0]
        o = {"index": idx, "action": action}
        val = st[action]
        if action == "schedule":
            pod = build_pod(val)
            # Priority admission (mutating) comes before validation; a pending
            # pod of the input was admitted when it was created.
            if st.get("_input"):
                prio = cl.bound_priority(val) if INPUT_PENDING_CLASS_RESOLVED else int(val.get("priority") or 0)
                policy = cl.input_policy(val) if INPUT_PENDING_CLASS_POLICY else val.get("preemptionPolicy")
                forbidden = None
            else:
                prio, policy, forbidden = cl.admit_priority(val)
            if forbidden:
                o.update({"pod": pod_key(pod), "outcome": "invalid", "node": None, "message": forbidden,
                          "constraints": [], "nodes": []})
                out_steps.append(o)
                continue
            pod["priority"] = prio
            pod["preemptionPolicy"] = policy or "PreemptLowerPriority"
            cl.admit(pod)
            errs = []
            for e in validate(cl, pod):
                if e not in errs:         # ErrorList.ToAggregate drops repeated messages
                    errs.append(e)
            if errs:
                msg = 'Pod "%s" is invalid: ' % pod["name"]
                msg += errs[0] if len(errs) == 1 else "[" + ", ".join(errs) + "]"
                o.update({"pod": pod_key(pod), "outcome": "invalid", "node": None, "message": msg,
                          "constraints": [], "nodes": []})
                out_steps.append(o)
                continue
            # Validation comes first, as in the API server (create: admission,
            # validation, then AlreadyExists from storage) [CONV §2.10].
            if any(q["namespace"] == pod["namespace"] and q["name"] == pod["name"] for q in cl.pods):
                o.update({"pod": pod_key(pod), "outcome": "error", "node": None})
                out_steps.append(o)
                continue
            res, chosen = schedule_pod(cl, pod, st.get("choose"))
            o.update(res)
            if chosen is not None:
                cl.bind(pod, chosen)
                cl.pods.append(pod)
            elif res["outcome"] == "pending":
                cl.pods.append(pod)
            # [CONV §2.9] a choose error is an error step: the pod is not
            # bound and (like every error step) leaves the cluster unchanged.
        elif action == "retry":
            pod = cl.find_pod(val)
            if pod is None or pod["bound"] is not None:
                o.update({"outcome": "error", "node": None})
                out_steps.append(o)
                continue
            res, chosen = schedule_pod(cl, pod, st.get("choose"))
            o.update(res)
            if chosen is not None:
                cl.bind(pod, chosen)
        elif action == "delete":
            pod = cl.find_pod(val)
            if pod is None:
                o.update({"outcome": "error"})
            else:
                cl.pods.remove(pod)
                o.update({"outcome": "applied"})
        elif action in ("cordon", "uncordon"):
            n = cl.node(val)
            if n is None:
                o.update({"outcome": "error"})
            else:
                n["taints"] = [t for t in n["taints"]
                               if not (t["key"] == UNSCHED_TAINT and t["effect"] == "NoSchedule")]
                if action == "cordon":
                    n["unschedulable"] = True
                    n["taints"].append({"key": UNSCHED_TAINT, "value": "", "effect": "NoSchedule"})
                else:
                    n["unschedulable"] = False
                o.update({"outcome": "applied"})
        elif action == "addNode":
            if cl.node(val["name"]) is not None:
                o.update({"outcome": "error"})
            else:
                cl.nodes.append(build_node(val))
                o.update({"outcome": "applied"})
        elif action == "removeNode":
            n = cl.node(val)
            if n is None:
                o.update({"outcome": "error"})
            else:
                cl.nodes.remove(n)
                cl.pods = [p for p in cl.pods if p["bound"] != n["name"]]
                o.update({"outcome": "applied"})
        elif action == "taint":
            n = cl.node(val["node"])
            if n is None:
                o.update({"outcome": "error"})
            else:
                t = {"key": val["key"], "value": str(val.get("value") or ""), "effect": val["effect"]}
                for j, x in enumerate(n["taints"]):
                    if x["key"] == t["key"] and x["effect"] == t["effect"]:
                        n["taints"][j] = t
                        break
                else:
                    n["taints"].append(t)
                o.update({"outcome": "applied"})
        elif action == "untaint":
            n = cl.node(val["node"])
            if n is None:
                o.update({"outcome": "error"})
            else:
                before = len(n["taints"])
                n["taints"] = [x for x in n["taints"] if not (
                    x["key"] == val["key"] and (not val.get("effect") or x["effect"] == val["effect"]))]
                o.update({"outcome": "applied" if len(n["taints"]) < before else "error"})
        elif action == "label":
            n = cl.node(val["node"])
            if n is None:
                o.update({"outcome": "error"})
            else:
                if val.get("value") is None:
                    n["labels"].pop(val["key"], None)
                else:
                    n["labels"][val["key"]] = str(val["value"])
                o.update({"outcome": "applied"})
        else:
            o.update({"outcome": "error"})
        out_steps.append(o)
    return {"steps": out_steps}


if __name__ == "__main__":
    import json
    import sys
    print(json.dumps(run(json.load(open(sys.argv[1]))), indent=2))
