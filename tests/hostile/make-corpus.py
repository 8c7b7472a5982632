#!/usr/bin/env python3
"""make-corpus.py - writes the broken-input files of tests/hostile/ (bad-*,
trunc-*, tty-*, ok-*). Run once by hand when adding cases; the files are
committed and `make test` does not need python. EXPECTED is then refreshed
with `SKEWER=./skewer tests/checks/hostile.sh --update` and reviewed line
by line. The invalid-*.yaml files (pods the API server rejects, checked
with `skewer check`) and REPORT-*.yaml (open bugs, with their story in a
comment) are written by hand."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
GOOD = """nodes:
  - name: n1
    labels: {zone: a, kubernetes.io/hostname: n1}
  - name: n2
    labels: {zone: b, kubernetes.io/hostname: n2}
pods:
  - {name: p1, labels: {app: web}, nodeName: n1}
steps:
  - schedule:
      name: web
      labels: {app: web}
      topologySpreadConstraints:
        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
"""
NODE_JSON = ('{"kind":"List","apiVersion":"v1","items":[{"kind":"Node","apiVersion":"v1",'
             '"metadata":{"name":"n1","labels":{"zone":"a"}}}]}\n')

cases = {}

def add(name, data):
    assert name not in cases, name
    cases[name] = data if isinstance(data, bytes) else data.encode()

# ---- truncated files: the good scenario cut at many points ----
for cut in (8, 21, 40, 77, 101, 150, 190, 230, 262, 300, 340, 380):
    add("trunc-%03d.yaml" % cut, GOOD[:cut])
add("bad-truncated-json.json", NODE_JSON[:60])
add("bad-truncated-quote.yaml", 'nodes:\n  - name: "n1\n')
add("bad-truncated-flow.yaml", "nodes: [{name: n1, labels: {zone: a}\n")
add("trunc-block-scalar.yaml", "steps:\n  - cordon: n1\n    note: |\n")

# ---- syntax ----
add("bad-tab-indent.yaml", "nodes:\n\t- name: n1\n")
add("bad-tab-mapping.yaml", "nodes:\n  - name: n1\n    labels:\n\t  zone: a\n")
add("bad-indent.yaml", "nodes:\n  - name: n1\n   labels: {zone: a}\n")
add("bad-stray-bracket.yaml", "nodes: [{name: n1}]]\n")
add("bad-stray-brace.yaml", "nodes: }\n")
add("bad-key-value-value.yaml", "nodes: - name: n1\n")
add("bad-unterminated-single.yaml", "nodes: [{name: 'n1}]\n")
add("bad-escape.yaml", 'nodes: [{name: "n\\q1"}]\n')
add("bad-directive.yaml", "%YAML 9.9\n---\nnodes: []\n")
add("bad-unknown-directive-only.yaml", "%FOO bar\n")
add("bad-anchor-empty.yaml", "nodes: &\n")
add("bad-second-doc-broken.yaml", GOOD + "---\nnodes: [\n")
add("ok-json-trailing-comma.json", '{"kind": "List", "items": [],}\n')
add("bad-json-unclosed.json", '{"kind": "List", "items": [\n')
add("ok-json-single-quote.json", "{'kind': 'List'}\n")
add("ok-comment-no-space.yaml", "nodes: [{name: n1}]#x\n")
add("bad-question-key.yaml", "? [a, b]\n: c\n")
add("bad-complex-key-in-node.yaml", "nodes:\n  - ? {a: b}\n    : n1\n")

# ---- wrong types ----
add("bad-nodes-map.yaml", "nodes: {name: n1}\n")
add("bad-nodes-scalar.yaml", "nodes: n1\n")
add("bad-node-entry-list.yaml", "nodes:\n  - [n1, n2]\n")
add("bad-labels-list.yaml", "nodes:\n  - {name: n1, labels: [zone, a]}\n")
add("bad-label-value-map.yaml", "nodes:\n  - {name: n1, labels: {zone: {a: b}}}\n")
add("bad-taints-map.yaml", "nodes:\n  - {name: n1, taints: {key: k, effect: NoSchedule}}\n")
add("bad-allocatable-list.yaml", "nodes:\n  - {name: n1, allocatable: [cpu, 4]}\n")
add("bad-allocatable-qty.yaml", "nodes:\n  - {name: n1, allocatable: {cpu: four}}\n")
add("bad-unschedulable-word.yaml", "nodes:\n  - {name: n1, unschedulable: maybe}\n")
add("bad-node-no-name.yaml", "nodes:\n  - {labels: {zone: a}}\n")
add("bad-node-name-map.yaml", "nodes:\n  - {name: {first: n1}}\n")
add("bad-pods-map.yaml", "pods: {name: p}\n")
add("bad-pod-no-name.yaml", "nodes: [{name: n1}]\npods:\n  - {nodeName: n1}\n")
add("bad-tolerations-scalar.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p, tolerations: all}\n")
add("bad-tsc-map.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p, topologySpreadConstraints: {maxSkew: 1}}\n")
add("bad-maxskew-word.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p, topologySpreadConstraints: [{maxSkew: one, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]}\n")
add("bad-maxskew-float.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p, topologySpreadConstraints: [{maxSkew: 1.5, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]}\n")
add("bad-maxskew-huge.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p, topologySpreadConstraints: [{maxSkew: 99999999999999999999, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]}\n")
add("bad-priority-word.yaml", "nodes: [{name: n1}]\npods:\n  - {name: p, priority: high}\n")
add("bad-containers-map.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p, containers: {name: c}}\n")
add("bad-resources-list.yaml", "nodes: [{name: n1}]\npods:\n  - {name: p, nodeName: n1, containers: [{name: c, resources: [1]}]}\n")
add("bad-bound-pod-qty.yaml", "nodes: [{name: n1}]\npods:\n  - {name: p, nodeName: n1, requests: {cpu: lots}}\n")
add("bad-steps-map.yaml", "steps: {cordon: n1}\n")
add("bad-step-scalar.yaml", "steps:\n  - cordon\n")
add("bad-schedule-scalar.yaml", "steps:\n  - schedule: web\n")
add("bad-expect-list.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p}\n    expect: [n1]\n")
add("bad-metadata-list.yaml", "kind: Node\nmetadata: [n1]\n")
add("bad-spec-scalar.yaml", "kind: Pod\nmetadata: {name: p}\nspec: nothing\n")
add("bad-status-list.yaml", "kind: Node\nmetadata: {name: n1}\nstatus: [Ready]\n")
add("bad-kind-list.yaml", "kind: [Node]\nmetadata: {name: n1}\n")
add("bad-items-map.yaml", "kind: List\nitems: {kind: Node}\n")
add("bad-object-no-kind.yaml", "kind: List\nitems:\n  - metadata: {name: n1}\n")
add("bad-owner-refs-map.yaml", "kind: Pod\nmetadata: {name: p, ownerReferences: {kind: ReplicaSet}}\n")
add("bad-creation-timestamp.yaml", "kind: Pod\nmetadata: {name: p, creationTimestamp: yesterday}\n")
add("bad-match-expressions-map.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p, topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: {key: a}}}]}\n")
add("bad-values-map.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p, nodeSelector: {zone: [a]}}\n")
add("bad-node-selector-terms-map.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p, affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: {a: b}}}}}\n")
add("bad-weight-word.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p, affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: heavy, preference: {}}]}}}\n")
add("bad-replicas-zero.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p}\n    replicas: 0\n")
add("bad-replicas-negative.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p}\n    replicas: -3\n")
add("bad-replicas-huge.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p}\n    replicas: 10000000000\n")
add("bad-steps-limit.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p}\n    replicas: 2000000\n")
add("bad-resources-limit-node.yaml", "nodes:\n  - name: n1\n    allocatable:\n" +
    "".join("      example.com/r%d: 1\n" % i for i in range(300)))
add("bad-resources-limit-pod.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule:\n      name: p\n      requests:\n" +
    "".join("        example.com/r%d: 1\n" % i for i in range(300)))
add("bad-scheduler-list.yaml", "scheduler: [System]\n")
add("bad-defaulting-type.yaml", "scheduler: {defaultingType: Sometimes}\n")
add("bad-score-weight-plugin.yaml", "scheduler: {scoreWeights: {NoSuchPlugin: 1}}\n")
add("bad-feature-gate-value.yaml", "scheduler: {featureGates: {MinDomainsInPodTopologySpread: perhaps}}\n")
add("bad-document-scalar.yaml", "just a string\n")
add("bad-document-list.yaml", "- a\n- b\n")

# ---- duplicates ----
add("bad-dup-key-top.yaml", "nodes: [{name: n1}]\nnodes: [{name: n2}]\n")
add("bad-dup-key-node.yaml", "nodes:\n  - name: n1\n    name: n2\n")
add("bad-dup-key-labels.yaml", "nodes:\n  - name: n1\n    labels:\n" +
    "".join("      k%02d: v\n" % i for i in range(20)) + "      k07: again\n")
add("bad-dup-key-json.json", '{"kind": "Node", "metadata": {"name": "n1", "name": "n2"}}\n')
add("bad-dup-node.yaml", "nodes:\n  - {name: n1}\n  - {name: n2}\n  - {name: n1}\n")
add("bad-dup-node-docs.yaml", "nodes: [{name: n1}]\n---\nkind: Node\nmetadata: {name: n1}\n")
add("bad-dup-pod.yaml", "nodes: [{name: n1}]\npods:\n  - {name: p, nodeName: n1}\n  - {name: p, namespace: default}\n")
add("bad-dup-steps-docs.yaml", "steps: [{cordon: n1}]\n---\nsteps: [{cordon: n1}]\n")
add("bad-dup-expect-keys.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p}\n    expect:\n      domains: [{a: 1}]\n      globalMin: [1]\n      domains: [{b: 2}]\n")

# ---- steps ----
add("bad-step-unknown-action.yaml", "nodes: [{name: n1}]\nsteps:\n  - drain: n1\n")
add("bad-step-two-actions.yaml", "nodes: [{name: n1}]\nsteps:\n  - {cordon: n1, uncordon: n1}\n")
add("bad-step-no-action.yaml", "nodes: [{name: n1}]\nsteps:\n  - note: nothing happens\n")
add("bad-step-replicas-delete.yaml", "steps:\n  - delete: p\n    replicas: 2\n")
add("bad-step-expect-cordon.yaml", "steps:\n  - cordon: n1\n    expect: {node: n1}\n")
add("bad-step-expect-unknown.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p}\n    expect: {nod: n1}\n")
add("bad-step-taint-no-effect.yaml", "nodes: [{name: n1}]\nsteps:\n  - taint: {node: n1, key: k}\n")
add("bad-step-taint-no-node.yaml", "steps:\n  - taint: {key: k, effect: NoSchedule}\n")
add("bad-step-label-no-key.yaml", "nodes: [{name: n1}]\nsteps:\n  - label: {node: n1, value: x}\n")
add("bad-step-schedule-succeeded.yaml", "nodes: [{name: n1}]\nsteps:\n  - schedule: {name: p, status: {phase: Succeeded}}\n")
add("bad-bound-pod-missing-node.yaml", "nodes: [{name: n1}]\npods:\n  - {name: p, nodeName: ghost}\n")
add("bad-node-taint-effect.yaml", "nodes:\n  - name: n1\n    taints: [{key: dedicated, value: infra, effect: NoScheduleX}]\n")
add("bad-node-object-taint-effect.yaml",
    "kind: Node\nmetadata: {name: n1}\nspec:\n  taints:\n    - {key: k, effect: Never}\n")
add("bad-addnode-taint-effect.yaml", "steps:\n  - addNode: {name: n9, taints: [{key: k}]}\n")

# ---- aliases and anchors ----
bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
for i, ch in enumerate("bcdefghi"):
    prev = "abcdefghi"[i]
    bomb += "%s: &%s [%s]\n" % (ch, ch, ",".join(["*" + prev] * 9))
add("bad-alias-bomb.yaml", bomb)
add("bad-alias-label.yaml", "nodes:\n  - {name: n1, labels: &l {zone: a}}\n  - {name: n2, labels: *l}\n")
add("bad-merge-key.yaml", "base: &b {labels: {zone: a}}\nnodes:\n  - <<: *b\n    name: n1\n")
add("bad-alias-undefined.yaml", "nodes: *nothing\n")
add("bad-alias-self.yaml", "a: &a [*a]\n")

# ---- nesting (the 100,000-deep cases are made by hostile.sh) ----
add("bad-nesting-65.yaml", "nodes:\n  - {name: n1, labels: " + "{a: " * 63 + "x" + "}" * 63 + "}\n")
add("bad-nesting-flow-1000.yaml", "x: " + "[" * 1000 + "]" * 1000 + "\n")
add("bad-nesting-json-1000.json", '{"a": ' * 1000 + "1" + "}" * 1000 + "\n")
add("bad-nesting-skipped-subtree.yaml",
    "kind: Pod\nmetadata:\n  name: p\n  annotations: " + "[" * 200 + "]" * 200 + "\n")

# ---- binary, encodings ----
add("bad-binary-nul.yaml", b"nodes: [{name: n1}]\n\x00\x00\x00\x01\x02")
add("bad-binary-random.yaml", bytes((i * 97 + 13) % 256 for i in range(512)))
add("bad-binary-elf.yaml", b"\x7fELF\x02\x01\x01\x00" + bytes(56))
add("bad-binary-gzip.yaml", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + bytes(range(40)))
add("bad-utf8-ff.yaml", b"nodes: [{name: n\xff1}]\n")
add("bad-utf8-overlong.yaml", b"nodes: [{name: n\xc0\xaf}]\n")
add("bad-utf8-surrogate.yaml", b"nodes: [{name: n\xed\xa0\x80}]\n")
add("bad-utf8-truncated.yaml", b"nodes: [{name: n\xe2\x82}]\n")
add("bad-utf8-in-comment.yaml", b"# caf\xe9\nnodes: [{name: n1}]\n")
add("bad-utf16-no-bom.yaml", "nodes: []\n".encode("utf-16-le"))
add("bad-control-char.yaml", b"nodes: [{name: n\x1b[31m1}]\n")
add("bad-c1-raw.yaml", b"nodes: [{name: n\xc2\x9b31m}]\n")

# ---- empty and near-empty ----
add("bad-empty.yaml", b"")
add("bad-only-comments.yaml", "# nothing here\n# at all\n")
add("bad-only-separator.yaml", "---\n")
add("bad-only-whitespace.yaml", "   \n\n  \n")
add("bad-null-document.yaml", "null\n")
add("bad-bom-only.yaml", b"\xef\xbb\xbf")

# ---- terminal safety: escapes in names, labels, notes, messages ----
ESC = "\\e"  # YAML double-quoted escapes produce the raw characters
add("tty-esc-node-name.yaml",
    'nodes:\n  - {name: "n1\\e[2J\\e[31mred", labels: {zone: "a\\e]52;c;aGVsbG8=\\a"}}\n'
    'steps:\n  - schedule: {name: "p\\e[0m", labels: {"k\\x9b": "v\\u202e"}}\n'
    '    note: "note \\e]0;title\\a \\x85 NEL \\u2028 LS \\u2066 isolate"\n')
add("tty-osc52-error.yaml", 'nodes:\n  - {name: "n1"}\nsteps:\n  - "\\e]52;c;cm0gLXJmIH4=\\a": n1\n')
add("tty-bidi-dup-node.yaml", 'nodes:\n  - {name: "a\\u202eb"}\n  - {name: "a\\u202eb"}\n')
add("tty-nul-note.yaml", 'nodes: [{name: n1}]\nsteps:\n  - cordon: n1\n    note: "a\\0b"\n')
add("tty-nul-pod.yaml", 'nodes: [{name: n1}]\npods:\n  - {name: "p\\u0000x", nodeName: "gh\\e[1most"}\n')
add("tty-c1-unknown-kind.yaml", 'kind: "Thing\\x9b2J\\e[5m"\nmetadata: {name: x}\n')
add("tty-step-error-target.yaml",
    'nodes: [{name: n1}]\nsteps:\n  - delete: "ns\\e[7m/p\\u0007"\n  - cordon: "gh\\u202eost"\n')
add("tty-invalid-message.yaml",
    'nodes: [{name: n1}]\nsteps:\n  - schedule: {name: "bad\\e[31m", topologySpreadConstraints: '
    '[{maxSkew: 0, topologyKey: "z\\e]8;;http://x\\a", whenUnsatisfiable: "D\\u202eo"}]}\n')

add("tty-long-name-dup.yaml", "nodes:\n  - name: " + "\u00e9" * 600 + "\n  - name: " + "\u00e9" * 600 + "\n")

# ---- accepted inputs (exit 0): steps that name missing things are step errors ----
add("ok-step-missing-targets.yaml",
    "nodes: [{name: n1}]\nsteps:\n  - delete: ghost\n  - retry: nobody\n  - cordon: gone\n"
    "  - removeNode: gone\n  - taint: {node: gone, key: k, effect: NoSchedule}\n"
    "  - label: {node: gone, key: a, value: b}\n  - schedule: {name: p, choose: gone}\n"
    "  - schedule: {name: q}\n    expect: {node: n1}\n")
add("ok-unknown-kind.yaml", "kind: ConfigMap\nmetadata: {name: x}\n---\nnodes: [{name: n1}]\n")
add("ok-empty-list.yaml", "kind: List\nitems: []\n")
add("ok-same-name-other-ns.yaml", "nodes: [{name: n1}]\npods:\n  - {name: p, nodeName: n1}\n  - {name: p, namespace: other, nodeName: n1}\n")
add("ok-utf8-bom.yaml", b"\xef\xbb\xbfnodes: [{name: n1}]\n")
add("ok-crlf.yaml", b"nodes:\r\n  - name: n1\r\nsteps:\r\n  - schedule: {name: p}\r\n")
add("ok-tab-in-value.yaml", "nodes: [{name: n1}]\nsteps:\n  - cordon: n1\n    note: \"a\\tb\"\n")

add("bad-version-x.yaml", "scheduler: {version: \"1.x\"}\nnodes: [{name: n1}]\n")
add("bad-version-int.yaml", "scheduler: {version: 137}\nnodes: [{name: n1}]\n")
add("bad-version-rc.yaml", "scheduler: {version: v1.37.0-rc.1}\nnodes: [{name: n1}]\n")
add("bad-version-range.yaml", "scheduler: {version: \"1.26\"}\nnodes: [{name: n1}]\n")
add("bad-version-map.yaml", "scheduler: {version: {major: 1, minor: 37}}\nnodes: [{name: n1}]\n")
add("bad-version-empty.yaml", "scheduler: {version: \"\"}\nnodes: [{name: n1}]\n")
add("bad-gate-absent.yaml", "scheduler:\n  version: \"1.32\"\n  featureGates: {MinDomainsInPodTopologySpread: false}\nnodes: [{name: n1}]\n")
add("bad-gate-locked.yaml", "scheduler:\n  version: \"1.33\"\n  featureGates: {SidecarContainers: true}\nnodes: [{name: n1}]\n")
add("bad-gate-not-yet.yaml", "scheduler:\n  version: \"1.33\"\n  featureGates: {MatchLabelKeysInPodTopologySpreadSelectorMerge: true}\nnodes: [{name: n1}]\n")
add("bad-gate-comparison-on.yaml", "scheduler:\n  version: \"1.35\"\n  featureGates: {TaintTolerationComparisonOperators: true}\nnodes: [{name: n1}]\n")
add("bad-dump-version-range.yaml", "apiVersion: v1\nkind: List\nmetadata:\n  annotations: {skewer.io/server-version: v1.25.3}\nitems:\n  - {apiVersion: v1, kind: Node, metadata: {name: n1}}\n")
add("bad-dump-version-garbage.yaml", "kind: Version\ngitVersion: latest\n---\nnodes: [{name: n1}]\n")
add("ok-dump-version-vendor.yaml", "kind: Version\ngitVersion: v1.31.4-eks-1a2b3c\n---\nnodes: [{name: n1}]\nsteps:\n  - schedule: {name: p}\n")
add("ok-dump-server-version.yaml", "clientVersion: {gitVersion: v1.37.0}\nserverVersion: {gitVersion: v1.30.2+k3s1}\n---\nnodes: [{name: n1}]\nsteps:\n  - schedule: {name: p}\n")

for name, data in sorted(cases.items()):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
print(len(cases), "files")
