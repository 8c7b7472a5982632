#!/usr/bin/env python3
"""gen-dump.py - writes what `kubectl get nodes,pods,services,replicasets,
statefulsets -A -o yaml` (or -o json) prints for a made-up cluster, with
everything a real dump carries: managedFields, annotations, status with
conditions and images, ownerReferences, DaemonSet pods pinned with
matchFields, static pods owned by their Node, init containers, sidecars,
pod overhead, Succeeded/Failed and terminating pods, pending pods with
priorities and creation times.

  gen-dump.py --profile kind  [--format yaml|json] [-o FILE]
  gen-dump.py --profile cloud [--nodes N] [--pods-per-node P] [--pending K]
              [--namespaces M] [--seed S] [--format yaml|json] [-o FILE]

The output is streamed (a 1 GB dump needs no memory here). Used once to
write the committed dumps of tests/realistic/ and by hand to measure
skewer's peak RSS on a large dump (docs/limits.md); `make test` does not
run it, so python3 is not needed there.
"""
import argparse
import json
import random
import re
import sys

PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./:-]*$")
RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def ystr(s):
    """A YAML scalar for a string, quoted the way kubectl (go-yaml) does
    when needed; otherwise plain."""
    if s == "" or s.lower() in RESERVED or not PLAIN.match(s) or s[-1] == ":" \
            or re.match(r"^[0-9.+-]", s):
        return json.dumps(s)  # a JSON string is a valid double-quoted YAML scalar
    return s


def yval(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if v is None:
        return "null"
    return ystr(v)


def emit_yaml(out, v, indent, in_seq=False):
    """Block-style YAML as kubectl writes it (sequences not indented)."""
    pad = " " * indent
    if isinstance(v, dict):
        if not v:
            out.write(" {}\n")
            return
        first = True
        for k, x in v.items():
            lead = "" if (first and in_seq) else pad
            if not first or not in_seq:
                pass
            first = False
            key = ystr(k)
            if isinstance(x, dict) and x:
                out.write("%s%s:\n" % (lead, key))
                emit_yaml(out, x, indent + 2)
            elif isinstance(x, list) and x:
                out.write("%s%s:\n" % (lead, key))
                emit_yaml(out, x, indent)
            elif isinstance(x, dict):
                out.write("%s%s: {}\n" % (lead, key))
            elif isinstance(x, list):
                out.write("%s%s: []\n" % (lead, key))
            else:
                out.write("%s%s: %s\n" % (lead, key, yval(x)))
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, dict) and x:
                out.write("%s- " % pad)
                emit_yaml(out, x, indent + 2, in_seq=True)
            elif isinstance(x, list) and x:
                out.write("%s-\n" % pad)
                emit_yaml(out, x, indent + 2)
            else:
                out.write("%s- %s\n" % (pad, yval(x) if not isinstance(x, (dict, list)) else ("{}" if isinstance(x, dict) else "[]")))


class Gen:
    def __init__(self, a):
        self.a = a
        self.r = random.Random(a.seed)
        self.t0 = 1714550400  # 2024-05-01T08:00:00Z
        self.uid_n = 0

    def uid(self):
        self.uid_n += 1
        x = self.r.getrandbits(128) ^ self.uid_n
        h = "%032x" % x
        return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])

    def ts(self, off):
        import time
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.t0 + off))

    def rv(self):
        return str(self.r.randint(100000, 99999999))

    def managed(self, manager, fields, op="Update", sub=None):
        m = {"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": fields,
             "manager": manager, "operation": op, "time": self.ts(self.r.randint(0, 9000))}
        if sub:
            m["subresource"] = sub
        return m

    # ---- nodes ----
    def node(self, name, zone, region, pool, taints, control_plane=False):
        a = self.a
        labels = {
            "beta.kubernetes.io/arch": "amd64",
            "beta.kubernetes.io/os": "linux",
            "kubernetes.io/arch": "amd64",
            "kubernetes.io/hostname": name,
            "kubernetes.io/os": "linux",
        }
        if a.profile == "cloud":
            itype = "m6i.xlarge" if pool != "gpu" else "g5.2xlarge"
            labels.update({
                "beta.kubernetes.io/instance-type": itype,
                "failure-domain.beta.kubernetes.io/region": region,
                "failure-domain.beta.kubernetes.io/zone": zone,
                "node.kubernetes.io/instance-type": itype,
                "topology.kubernetes.io/region": region,
                "topology.kubernetes.io/zone": zone,
                "topology.ebs.csi.aws.com/zone": zone,
                "eks.amazonaws.com/capacityType": "ON_DEMAND",
                "eks.amazonaws.com/nodegroup": "ng-" + pool,
                "eks.amazonaws.com/nodegroup-image": "ami-0c1e2f3a4b5c6d7e8",
                "eks.amazonaws.com/sourceLaunchTemplateId": "lt-0123456789abcdef0",
                "eks.amazonaws.com/sourceLaunchTemplateVersion": "7",
                "k8s.io/cloud-provider-aws": "%032x" % self.r.getrandbits(128),
                "pool": pool,
            })
        if control_plane:
            labels["node-role.kubernetes.io/control-plane"] = ""
            labels["node.kubernetes.io/exclude-from-external-load-balancers"] = ""
        ann = {
            "alpha.kubernetes.io/provided-node-ip": "10.0.%d.%d" % (self.r.randint(0, 255), self.r.randint(1, 254)),
            "csi.volume.kubernetes.io/nodeid": json.dumps({"ebs.csi.aws.com": "i-%017x" % self.r.getrandbits(68)}),
            "node.alpha.kubernetes.io/ttl": "0",
            "volumes.kubernetes.io/controller-managed-attach-detach": "true",
        }
        if a.profile == "kind":
            ann = {"kubeadm.alpha.kubernetes.io/cri-socket": "unix:///run/containerd/containerd.sock",
                   "node.alpha.kubernetes.io/ttl": "0",
                   "volumes.kubernetes.io/controller-managed-attach-detach": "true"}
        fl = {"f:metadata": {"f:annotations": {"." : {}, **{"f:" + k: {} for k in ann}},
                             "f:labels": {".": {}, **{"f:" + k: {} for k in labels}}},
              "f:spec": {"f:podCIDR": {}, "f:podCIDRs": {".": {}, 'v:"10.244.0.0/24"': {}},
                         "f:providerID": {}}}
        st = {"f:status": {"f:conditions": {'k:{"type":"%s"}' % t: {".": {}, "f:lastHeartbeatTime": {},
                                                                   "f:lastTransitionTime": {}, "f:message": {},
                                                                   "f:reason": {}, "f:status": {}, "f:type": {}}
                                            for t in ("DiskPressure", "MemoryPressure", "PIDPressure", "Ready")},
                           "f:images": {}, "f:nodeInfo": {"f:bootID": {}, "f:kernelVersion": {}}}}
        cpu, mem, pods = ("7910m", "31482820Ki", "58") if pool == "gpu" else ("3920m", "15269612Ki", "58")
        if a.profile == "kind":
            cpu, mem, pods = ("8", "32793068Ki", "110")
        images = []
        for i in range(self.r.randint(8, 30) if a.profile == "cloud" else 10):
            repo = "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/img%d" % i
            images.append({"names": ["%s@sha256:%064x" % (repo, self.r.getrandbits(256)), "%s:v1.%d.0" % (repo, i)],
                           "sizeBytes": self.r.randint(10 ** 6, 10 ** 9)})
        node = {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {
                "annotations": ann,
                "creationTimestamp": self.ts(-86400 * 30),
                "labels": labels,
                "managedFields": [self.managed("kubelet", fl), self.managed("kube-controller-manager", st, sub="status")],
                "name": name,
                "resourceVersion": self.rv(),
                "uid": self.uid(),
            },
            "spec": {
                "podCIDR": "10.244.%d.0/24" % self.r.randint(0, 255),
                "podCIDRs": ["10.244.0.0/24"],
                "providerID": ("kind://docker/kind/" + name) if a.profile == "kind" else "aws:///%s/i-%017x" % (zone, self.r.getrandbits(68)),
            },
            "status": {
                "addresses": [{"address": "10.0.1.%d" % self.r.randint(1, 254), "type": "InternalIP"},
                              {"address": name, "type": "Hostname"}],
                "allocatable": {"cpu": cpu, "ephemeral-storage": "95551679124", "hugepages-1Gi": "0",
                                "hugepages-2Mi": "0", "memory": mem, "pods": pods},
                "capacity": {"cpu": "4", "ephemeral-storage": "104845292Ki", "hugepages-1Gi": "0",
                             "hugepages-2Mi": "0", "memory": "16093420Ki", "pods": pods},
                "conditions": [{"lastHeartbeatTime": self.ts(9000), "lastTransitionTime": self.ts(-86400),
                                "message": "kubelet has sufficient memory available", "reason": "KubeletHasSufficientMemory",
                                "status": "False", "type": "MemoryPressure"},
                               {"lastHeartbeatTime": self.ts(9000), "lastTransitionTime": self.ts(-86400),
                                "message": "kubelet is posting ready status", "reason": "KubeletReady",
                                "status": "True", "type": "Ready"}],
                "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
                "images": images,
                "nodeInfo": {"architecture": "amd64", "bootID": self.uid(), "containerRuntimeVersion": "containerd://1.7.11",
                             "kernelVersion": "6.1.66", "kubeProxyVersion": "v1.37.0", "kubeletVersion": "v1.37.0",
                             "machineID": "%032x" % self.r.getrandbits(128), "operatingSystem": "linux",
                             "osImage": "Amazon Linux 2023", "systemUUID": self.uid()},
            },
        }
        if taints:
            node["spec"]["taints"] = taints
        return node

    # ---- pods ----
    def container(self, name, cpu, mem, limits=True, sidecar=False):
        c = {
            "env": [{"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
                    {"name": "LOG_LEVEL", "value": "info"}],
            "image": "registry.example.com/%s:1.%d.%d" % (name, self.r.randint(0, 9), self.r.randint(0, 30)),
            "imagePullPolicy": "IfNotPresent",
            "livenessProbe": {"failureThreshold": 3, "httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"},
                              "periodSeconds": 10, "successThreshold": 1, "timeoutSeconds": 1},
            "name": name,
            "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
            "resources": {},
            "terminationMessagePath": "/dev/termination-log",
            "terminationMessagePolicy": "File",
            "volumeMounts": [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                              "name": "kube-api-access-abcde", "readOnly": True}],
        }
        if cpu or mem:
            req = {}
            if cpu:
                req["cpu"] = cpu
            if mem:
                req["memory"] = mem
            c["resources"]["requests"] = req
            if limits and mem:
                c["resources"]["limits"] = {"memory": mem}
        if sidecar:
            c["restartPolicy"] = "Always"
        return c

    def pod(self, ns, name, labels, owner, node, phase="Running", created=0, priority=0, prio_class=None,
            ds_node=None, tsc=None, init=None, sidecar=None, overhead=None, tolerations=None, terminating=False,
            cpu="100m", mem="128Mi", extra_containers=0, node_selector=None):
        meta = {
            "annotations": {"kubectl.kubernetes.io/restartedAt": self.ts(created - 100),
                            "prometheus.io/scrape": "true",
                            "checksum/config": "%064x" % self.r.getrandbits(256)},
            "creationTimestamp": self.ts(created),
            "labels": labels,
            "managedFields": [self.managed("kube-controller-manager", {"f:metadata": {"f:labels": {".": {}, **{"f:" + k: {} for k in labels}}, "f:ownerReferences": {}}, "f:spec": {"f:containers": {'k:{"name":"app"}': {".": {}, "f:image": {}, "f:resources": {"f:requests": {"f:cpu": {}}}}}}}),
                              self.managed("kubelet", {"f:status": {"f:conditions": {}, "f:containerStatuses": {}, "f:podIP": {}}}, sub="status")],
            "name": name,
            "namespace": ns,
            "resourceVersion": self.rv(),
            "uid": self.uid(),
        }
        if owner:
            kind, oname = owner
            meta["generateName"] = oname + "-"
            meta["ownerReferences"] = [{"apiVersion": "v1" if kind == "Node" else "apps/v1", "blockOwnerDeletion": True,
                                        "controller": True, "kind": kind, "name": oname, "uid": self.uid()}]
        if terminating:
            meta["deletionGracePeriodSeconds"] = 30
            meta["deletionTimestamp"] = self.ts(created + 5000)
            meta["finalizers"] = ["example.com/cleanup"]
        containers = [self.container("app", cpu, mem)]
        for i in range(extra_containers):
            containers.append(self.container("helper%d" % i, "50m", "64Mi"))
        spec = {
            "containers": containers,
            "dnsPolicy": "ClusterFirst",
            "enableServiceLinks": True,
            "preemptionPolicy": "PreemptLowerPriority",
            "priority": priority,
            "restartPolicy": "Always" if phase in ("Running", "Pending") else "Never",
            "schedulerName": "default-scheduler",
            "securityContext": {"fsGroup": 2000, "runAsNonRoot": True},
            "serviceAccount": "default",
            "serviceAccountName": "default",
            "terminationGracePeriodSeconds": 30,
            "tolerations": [{"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists",
                             "tolerationSeconds": 300},
                            {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists",
                             "tolerationSeconds": 300}],
            "volumes": [{"name": "kube-api-access-abcde", "projected": {"defaultMode": 420, "sources": [
                {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
                {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}, "path": "namespace"}]}}]}}],
        }
        if prio_class:
            spec["priorityClassName"] = prio_class
        if node:
            spec["nodeName"] = node
        if node_selector:
            spec["nodeSelector"] = node_selector
        if ds_node:
            # the DaemonSet controller pins each pod to its node (matchFields)
            spec["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchFields": [{"key": "metadata.name", "operator": "In", "values": [ds_node]}]}]}}}
            spec["tolerations"] = [{"operator": "Exists"}] + [
                {"effect": e, "key": k, "operator": "Exists"} for k, e in (
                    ("node.kubernetes.io/not-ready", "NoExecute"), ("node.kubernetes.io/unreachable", "NoExecute"),
                    ("node.kubernetes.io/disk-pressure", "NoSchedule"), ("node.kubernetes.io/memory-pressure", "NoSchedule"),
                    ("node.kubernetes.io/pid-pressure", "NoSchedule"), ("node.kubernetes.io/unschedulable", "NoSchedule"))]
        if tolerations:
            spec["tolerations"] = spec["tolerations"] + tolerations
        if tsc:
            spec["topologySpreadConstraints"] = tsc
        inits = []
        if init:
            inits.append(self.container("init-db", init[0], init[1], limits=False))
        if sidecar:
            inits.append(self.container("mesh-proxy", sidecar[0], sidecar[1], sidecar=True))
        if inits:
            spec["initContainers"] = inits
        if overhead:
            spec["overhead"] = overhead
            spec["runtimeClassName"] = "kata"
        status = {"phase": phase, "qosClass": "Burstable"}
        if phase == "Pending" and not node:
            status["conditions"] = [{"lastProbeTime": None, "lastTransitionTime": self.ts(created + 1),
                                     "message": "0/%d nodes are available: 1 Insufficient cpu." % self.a.nodes,
                                     "reason": "Unschedulable", "status": "False", "type": "PodScheduled"}]
        else:
            status.update({
                "conditions": [{"lastProbeTime": None, "lastTransitionTime": self.ts(created + 3), "status": "True", "type": t}
                               for t in ("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled")],
                "containerStatuses": [{"containerID": "containerd://%064x" % self.r.getrandbits(256),
                                       "image": c["image"], "imageID": "sha256:%064x" % self.r.getrandbits(256),
                                       "lastState": {}, "name": c["name"], "ready": phase == "Running",
                                       "restartCount": self.r.randint(0, 3), "started": phase == "Running",
                                       "state": {"running": {"startedAt": self.ts(created + 4)}} if phase == "Running" else
                                       {"terminated": {"exitCode": 0 if phase == "Succeeded" else 1, "reason": "Completed" if phase == "Succeeded" else "Error",
                                                       "finishedAt": self.ts(created + 60), "startedAt": self.ts(created + 4),
                                                       "containerID": "containerd://%064x" % self.r.getrandbits(256)}}}
                                      for c in containers],
                "hostIP": "10.0.1.%d" % self.r.randint(1, 254),
                "podIP": "10.244.%d.%d" % (self.r.randint(0, 255), self.r.randint(1, 254)),
                "podIPs": [{"ip": "10.244.0.5"}],
                "startTime": self.ts(created + 2),
            })
        return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}

    def template(self, labels):
        return {"metadata": {"creationTimestamp": None, "labels": labels},
                "spec": {"containers": [self.container("app", "100m", "128Mi")], "dnsPolicy": "ClusterFirst",
                         "restartPolicy": "Always", "schedulerName": "default-scheduler",
                         "terminationGracePeriodSeconds": 30}}

    def rs(self, ns, name, labels, replicas, deploy):
        return {"apiVersion": "apps/v1", "kind": "ReplicaSet",
                "metadata": {"annotations": {"deployment.kubernetes.io/desired-replicas": str(replicas),
                                             "deployment.kubernetes.io/max-replicas": str(replicas + 1),
                                             "deployment.kubernetes.io/revision": "3"},
                             "creationTimestamp": self.ts(-3600), "generation": 3, "labels": labels,
                             "managedFields": [self.managed("kube-controller-manager", {"f:spec": {"f:replicas": {}}}, op="Update")],
                             "name": name, "namespace": ns,
                             "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": True, "controller": True,
                                                  "kind": "Deployment", "name": deploy, "uid": self.uid()}],
                             "resourceVersion": self.rv(), "uid": self.uid()},
                "spec": {"replicas": replicas, "selector": {"matchLabels": labels}, "template": self.template(labels)},
                "status": {"availableReplicas": replicas, "fullyLabeledReplicas": replicas, "observedGeneration": 3,
                           "readyReplicas": replicas, "replicas": replicas}}

    def sts(self, ns, name, labels, replicas):
        return {"apiVersion": "apps/v1", "kind": "StatefulSet",
                "metadata": {"creationTimestamp": self.ts(-7200), "generation": 1, "labels": labels,
                             "managedFields": [self.managed("helm", {"f:spec": {"f:serviceName": {}}}, op="Apply")],
                             "name": name, "namespace": ns, "resourceVersion": self.rv(), "uid": self.uid()},
                "spec": {"persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"},
                         "podManagementPolicy": "OrderedReady", "replicas": replicas, "revisionHistoryLimit": 10,
                         "selector": {"matchLabels": labels}, "serviceName": name, "template": self.template(labels),
                         "updateStrategy": {"rollingUpdate": {"partition": 0}, "type": "RollingUpdate"},
                         "volumeClaimTemplates": [{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                                                   "metadata": {"creationTimestamp": None, "name": "data"},
                                                   "spec": {"accessModes": ["ReadWriteOnce"],
                                                            "resources": {"requests": {"storage": "10Gi"}}},
                                                   "status": {"phase": "Pending"}}]},
                "status": {"availableReplicas": replicas, "currentReplicas": replicas, "readyReplicas": replicas,
                           "replicas": replicas}}

    def svc(self, ns, name, selector):
        s = {"apiVersion": "v1", "kind": "Service",
             "metadata": {"annotations": {"meta.helm.sh/release-name": name}, "creationTimestamp": self.ts(-7200),
                          "labels": {"app.kubernetes.io/managed-by": "Helm"},
                          "managedFields": [self.managed("helm", {"f:spec": {"f:ports": {}}}, op="Update")],
                          "name": name, "namespace": ns, "resourceVersion": self.rv(), "uid": self.uid()},
             "spec": {"clusterIP": "10.96.%d.%d" % (self.r.randint(0, 255), self.r.randint(1, 254)),
                      "clusterIPs": ["10.96.0.10"], "internalTrafficPolicy": "Cluster", "ipFamilies": ["IPv4"],
                      "ipFamilyPolicy": "SingleStack",
                      "ports": [{"name": "http", "port": 80, "protocol": "TCP", "targetPort": 8080}],
                      "sessionAffinity": "None", "type": "ClusterIP"},
             "status": {"loadBalancer": {}}}
        if selector is not None:
            s["spec"]["selector"] = selector
        return s


def cloud(g):
    a = g.a
    zones = ["us-east-1a", "us-east-1b", "us-east-1c"]
    nodes, pods, svcs, rss, stss = [], [], [], [], []
    names = []
    for i in range(a.nodes):
        z = zones[i % len(zones)]
        pool = "gpu" if i % 10 == 9 else "general"
        taints = [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "value": "present"}] if pool == "gpu" else None
        name = "ip-10-0-%d-%d.ec2.internal" % (i // 250, i % 250 + 1)
        names.append((name, z))
        nodes.append(g.node(name, z, "us-east-1", pool, taints))
    t = 0
    namespaces = ["kube-system"] + ["team-%02d" % i for i in range(a.namespaces)]
    # DaemonSets on every node
    for name, z in names:
        for ds in ("aws-node", "kube-proxy", "ebs-csi-node"):
            suffix = "%05x" % g.r.getrandbits(20)
            pods.append(g.pod("kube-system", "%s-%s" % (ds, suffix), {"k8s-app": ds, "controller-revision-hash": "6d8f7c9b5"},
                              ("DaemonSet", ds), name, created=t, priority=2000001000,
                              prio_class="system-node-critical", ds_node=name, cpu="25m", mem="64Mi"))
            t += 1
    # Deployments (ReplicaSets) and StatefulSets in the team namespaces
    per_node = max(0, a.pods_per_node - 3)
    total = per_node * len(names)
    deploys = max(1, total // 12)
    k = 0
    for d in range(deploys):
        ns = namespaces[1 + d % (len(namespaces) - 1)] if len(namespaces) > 1 else "default"
        app = "svc%d" % d
        h = "%x" % g.r.getrandbits(36)
        labels = {"app": app, "pod-template-hash": h}
        n = 12 if d < deploys - 1 else total - 12 * (deploys - 1)
        if n <= 0:
            continue
        rss.append(g.rs(ns, "%s-%s" % (app, h), labels, n, app))
        svcs.append(g.svc(ns, app, {"app": app}))
        tsc = [{"labelSelector": {"matchLabels": {"app": app}}, "matchLabelKeys": ["pod-template-hash"],
                "maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway"}]
        for r in range(n):
            node, _ = names[k % len(names)]
            k += 1
            extra = {}
            if d % 7 == 1:
                extra["sidecar"] = ("100m", "64Mi")
                extra["init"] = ("500m", "256Mi")
            if d % 11 == 2:
                extra["overhead"] = {"cpu": "250m", "memory": "160Mi"}
            phase = "Running"
            if r == 0 and d % 13 == 5:
                phase = "Succeeded"
            elif r == 0 and d % 17 == 6:
                phase = "Failed"
            pods.append(g.pod(ns, "%s-%s-%05x" % (app, h, g.r.getrandbits(20)), labels, ("ReplicaSet", "%s-%s" % (app, h)),
                              node, phase=phase, created=t, tsc=tsc, terminating=(r == 1 and d % 19 == 3),
                              cpu="%dm" % g.r.choice((50, 100, 250)), mem=g.r.choice(("64Mi", "128Mi", "256Mi")), **extra))
            t += 1
    ns = namespaces[-1] if len(namespaces) > 1 else "default"
    labels = {"app.kubernetes.io/name": "postgres"}
    stss.append(g.sts(ns, "postgres", labels, 3))
    svcs.append(g.svc(ns, "postgres", labels))
    svcs.append(g.svc("default", "kubernetes", None))
    # pending pods: the steps, in queue order priority then creation time
    for p in range(a.pending):
        ns = namespaces[1 + p % (len(namespaces) - 1)] if len(namespaces) > 1 else "default"
        app = "svc%d" % (p % deploys)
        labels = {"app": app, "pod-template-hash": "pending"}
        prio = (1000, 0, 100000)[p % 3]
        tsc = [{"labelSelector": {"matchLabels": {"app": app}}, "matchLabelKeys": ["pod-template-hash"],
                "maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule"},
               {"labelSelector": {"matchLabels": {"app": app}}, "maxSkew": 2,
                "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "ScheduleAnyway"}]
        pods.append(g.pod(ns, "%s-pending-%d" % (app, p), labels, ("ReplicaSet", "%s-pending" % app), None,
                          phase="Pending", created=100000 - p * 7, priority=prio, tsc=tsc,
                          prio_class={1000: "team-high", 0: None, 100000: "business-critical"}[prio],
                          cpu="200m", mem="256Mi"))
    return nodes + pods + svcs + rss + stss


def kind(g):
    g.a.nodes = 3
    cp = "kind-control-plane"
    workers = ["kind-worker", "kind-worker2"]
    nodes = [g.node(cp, None, None, "cp", [{"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane"}],
                    control_plane=True)]
    nodes += [g.node(w, None, None, "w", None) for w in workers]
    pods = []
    t = -5000
    for comp in ("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler"):
        pods.append(g.pod("kube-system", "%s-%s" % (comp, cp), {"component": comp, "tier": "control-plane"},
                          ("Node", cp), cp, created=t, priority=2000001000, prio_class="system-node-critical",
                          cpu={"etcd": "100m", "kube-apiserver": "250m", "kube-controller-manager": "200m",
                               "kube-scheduler": "100m"}[comp], mem="100Mi" if comp == "etcd" else None))
        t += 1
    for n in [cp] + workers:
        for ds, cpu, mem in (("kindnet", "100m", "50Mi"), ("kube-proxy", None, None)):
            pods.append(g.pod("kube-system", "%s-%05x" % (ds, g.r.getrandbits(20)), {"app": ds, "k8s-app": ds},
                              ("DaemonSet", ds), n, created=t, priority=2000001000, prio_class="system-node-critical",
                              ds_node=n, cpu=cpu, mem=mem))
            t += 1
    labels = {"k8s-app": "kube-dns", "pod-template-hash": "7db6d8ff4d"}
    for i in range(2):
        pods.append(g.pod("kube-system", "coredns-7db6d8ff4d-%05x" % g.r.getrandbits(20), labels,
                          ("ReplicaSet", "coredns-7db6d8ff4d"), cp, created=t, priority=2000000000,
                          prio_class="system-cluster-critical", cpu="100m", mem="70Mi",
                          tolerations=[{"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane"}]))
        t += 1
    lp = {"app": "local-path-provisioner", "pod-template-hash": "988d74bc"}
    pods.append(g.pod("local-path-storage", "local-path-provisioner-988d74bc-x5hq7", lp,
                      ("ReplicaSet", "local-path-provisioner-988d74bc"), cp, created=t,
                      tolerations=[{"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane"}]))
    web = {"app": "web", "pod-template-hash": "5d9c8b7f6"}
    tsc = [{"labelSelector": {"matchLabels": {"app": "web"}}, "matchLabelKeys": ["pod-template-hash"], "maxSkew": 1,
            "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "DoNotSchedule"}]
    for i, n in enumerate(("kind-worker", "kind-worker", "kind-worker2")):
        pods.append(g.pod("default", "web-5d9c8b7f6-%d%04x" % (i, g.r.getrandbits(16)), web,
                          ("ReplicaSet", "web-5d9c8b7f6"), n, created=100 + i, tsc=tsc,
                          sidecar=("50m", "32Mi") if i == 0 else None, terminating=(i == 2)))
    pods.append(g.pod("default", "migrate-db-4kx2p", {"job-name": "migrate-db"}, ("Job", "migrate-db"), "kind-worker",
                      phase="Succeeded", created=50))
    pods.append(g.pod("default", "flaky-job-9s8d7", {"job-name": "flaky-job"}, ("Job", "flaky-job"), "kind-worker2",
                      phase="Failed", created=60))
    # pending: the next web replica, then a batch pod of lower priority
    pods.append(g.pod("default", "web-5d9c8b7f6-zz9q1", web, ("ReplicaSet", "web-5d9c8b7f6"), None, phase="Pending",
                      created=200, tsc=tsc))
    pods.append(g.pod("batch", "report-28571234-abcde", {"job-name": "report"}, ("Job", "report-28571234"), None,
                      phase="Pending", created=150, priority=-10, prio_class="low", cpu="500m", mem="1Gi",
                      init=("1", "512Mi")))
    svcs = [g.svc("default", "kubernetes", None), g.svc("kube-system", "kube-dns", {"k8s-app": "kube-dns"}),
            g.svc("default", "web", {"app": "web"})]
    rss = [g.rs("kube-system", "coredns-7db6d8ff4d", labels, 2, "coredns"),
           g.rs("local-path-storage", "local-path-provisioner-988d74bc", lp, 1, "local-path-provisioner"),
           g.rs("default", "web-5d9c8b7f6", web, 4, "web")]
    return nodes + pods + svcs + rss


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--profile", choices=("kind", "cloud"), default="cloud")
    ap.add_argument("--nodes", type=int, default=6)
    ap.add_argument("--pods-per-node", type=int, default=8)
    ap.add_argument("--pending", type=int, default=6)
    ap.add_argument("--namespaces", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--format", choices=("yaml", "json"), default="yaml")
    ap.add_argument("-o", dest="out")
    a = ap.parse_args()
    g = Gen(a)
    out = open(a.out, "w") if a.out else sys.stdout
    items = kind(g) if a.profile == "kind" else None
    if a.format == "yaml":
        out.write("apiVersion: v1\nitems:\n")
    else:
        out.write('{\n    "apiVersion": "v1",\n    "items": [\n')
    # large cloud dumps are produced item by item (see cloud_stream)
    seq = items if items is not None else cloud(g) if a.nodes * a.pods_per_node <= 20000 else cloud_stream(g)
    first = True
    for it in seq:
        if a.format == "yaml":
            emit_yaml(out, [it], 0)
        else:
            if not first:
                out.write(",\n")
            txt = json.dumps(it, indent=4)
            out.write("\n".join("        " + ln for ln in txt.split("\n")))
        first = False
    if a.format == "yaml":
        out.write('kind: List\nmetadata:\n  resourceVersion: ""\n')
    else:
        out.write('\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n')
    out.close()


def cloud_stream(g):
    """The cloud profile for big sizes: the same objects, generated one at a
    time in kubectl's order (nodes, pods, services, replicasets)."""
    a = g.a
    zones = ["us-east-1a", "us-east-1b", "us-east-1c"]
    names = ["ip-10-%d-%d-%d.ec2.internal" % (i // 62500, i // 250 % 250, i % 250 + 1) for i in range(a.nodes)]
    for i, name in enumerate(names):
        pool = "gpu" if i % 10 == 9 else "general"
        taints = [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "value": "present"}] if pool == "gpu" else None
        yield g.node(name, zones[i % 3], "us-east-1", pool, taints)
    t = 0
    for name in names:
        for ds in ("aws-node", "kube-proxy", "ebs-csi-node"):
            yield g.pod("kube-system", "%s-%05x%d" % (ds, g.r.getrandbits(20), t), {"k8s-app": ds},
                        ("DaemonSet", ds), name, created=t, priority=2000001000, ds_node=name, cpu="25m", mem="64Mi")
            t += 1
    per = max(0, a.pods_per_node - 3)
    nsn = max(1, a.namespaces)
    for k in range(per * len(names)):
        d = k // 12
        app = "svc%d" % d
        labels = {"app": app, "pod-template-hash": "h%d" % d}
        tsc = [{"labelSelector": {"matchLabels": {"app": app}}, "maxSkew": 1,
                "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway"}]
        yield g.pod("team-%02d" % (d % nsn), "%s-%d" % (app, k), labels, ("ReplicaSet", app + "-h"),
                    names[k % len(names)], created=t, tsc=tsc)
        t += 1
    for p in range(a.pending):
        app = "svc%d" % p
        yield g.pod("team-%02d" % (p % nsn), "%s-pending-%d" % (app, p), {"app": app}, ("ReplicaSet", app + "-h"),
                    None, phase="Pending", created=100000 + p, priority=(0, 1000)[p % 2],
                    tsc=[{"labelSelector": {"matchLabels": {"app": app}}, "maxSkew": 1,
                          "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule"}])
    for d in range((per * len(names) + 11) // 12):
        app = "svc%d" % d
        yield g.svc("team-%02d" % (d % nsn), app, {"app": app})
    for d in range((per * len(names) + 11) // 12):
        app = "svc%d" % d
        yield g.rs("team-%02d" % (d % nsn), app + "-h", {"app": app, "pod-template-hash": "h%d" % d}, 12, app)


if __name__ == "__main__":
    main()
