#!/usr/bin/env bash
# realistic.sh - real `kubectl get ... -o yaml/-o json` dumps (tests/realistic/,
# written by tests/realistic/gen-dump.py): they load and explain, the YAML
# and JSON forms of a cluster give the same explanation, pending pods are
# queued by priority then creation time, a user's pod can be added as a
# second file, --namespace / --selector narrow the steps, and the kubectl
# plugin (contrib/kubectl-skewer) dumps, opens skewer and cleans up.
set -uo pipefail
: "${SKEWER:?}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
r=tests/realistic
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
bad() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}
# ok CMD...: must exit 0 with nothing on stderr; stdout in $tmp/out
ok() {
	local rc=0
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = 0 ] || { bad "'$*' exited $rc"; head -5 "$tmp/err" >&2; }
	[ -s "$tmp/err" ] && { bad "'$*' wrote on stderr"; head -5 "$tmp/err" >&2; }
	return 0
}
steps() { grep -E '^Step [0-9]+/[0-9]+: ' "$tmp/out" | sed 's/^Step [0-9]*\/[0-9]*: //'; }

# header lines: what was kept (Succeeded/Failed pods are left out)
for pair in "kind-cluster:Scenario kind-cluster: 3 nodes, 16 pods, 2 steps" \
	"eks-cluster:Scenario eks-cluster: 9 nodes, 72 pods, 6 steps"; do
	name=${pair%%:*}
	for ext in yaml json; do
		ok "$SKEWER" explain "$r/$name.$ext"
		[ "$(head -n 1 "$tmp/out")" = "${pair#*:}" ] ||
			bad "$name.$ext: header '$(head -n 1 "$tmp/out")', expected '${pair#*:}'"
		cp "$tmp/out" "$tmp/$name.$ext.txt"
		ok "$SKEWER" explain --json "$r/$name.$ext"
		cp "$tmp/out" "$tmp/$name.$ext.json"
		ok "$SKEWER" validate "$r/$name.$ext"
		ok "$SKEWER" render "$r/$name.$ext"
	done
	cmp -s "$tmp/$name.yaml.txt" "$tmp/$name.json.txt" || bad "$name: YAML and JSON dumps explain differently"
	cmp -s "$tmp/$name.yaml.json" "$tmp/$name.json.json" || bad "$name: YAML and JSON dumps differ in explain --json"
done

# a dump's pending pods: the FailedScheduling event skewer gives equals
# what the cluster stored in each pod's PodScheduled condition (worked
# out by hand from upstream for tests/realistic/preempt-dump.yaml)
ok "$SKEWER" explain "$r/preempt-dump.yaml"
grep -o 'message: "0/[^"]*"' "$r/preempt-dump.yaml" | sed 's/^message: "//; s/"$//' >"$tmp/stored"
sed -n 's/^  event: //p' "$tmp/out" >"$tmp/events"
[ -s "$tmp/stored" ] && cmp -s "$tmp/stored" "$tmp/events" ||
	bad "preempt-dump: events differ from the stored PodScheduled messages: $(diff "$tmp/stored" "$tmp/events" | head -4)"
[ "$(grep -c "the cluster's PodScheduled message is the same" "$tmp/out")" = 2 ] ||
	bad "preempt-dump: explain does not say both stored messages are its own"

# the queue: priority first, then creationTimestamp
ok "$SKEWER" explain "$r/kind-cluster.yaml"
[ "$(steps | tr '\n' ' ')" = "schedule default/web-5d9c8b7f6-zz9q1 schedule batch/report-28571234-abcde " ] ||
	bad "kind queue order: $(steps | tr '\n' ' ')"
grep -q 'untolerated taint node-role.kubernetes.io/control-plane:NoSchedule' "$tmp/out" ||
	bad "kind: the control-plane taint is not what filters the control plane"
ok "$SKEWER" explain "$r/eks-cluster.yaml" "$r/new-pod.yaml"
want="schedule team-01/svc2-pending-5 schedule team-02/svc2-pending-2 schedule team-03/svc0-pending-3 schedule team-00/svc0-pending-0 schedule team-00/svc1-pending-4 schedule team-01/svc1-pending-1 schedule team-01/checkout-canary "
[ "$(steps | tr '\n' ' ')" = "$want" ] || bad "eks queue order with the new pod: $(steps | tr '\n' ' ')"

# --namespace and --selector narrow the steps, in every command that takes them
for cmd in explain render validate; do
	ok "$SKEWER" $cmd --namespace team-01 "$r/eks-cluster.yaml" "$r/new-pod.yaml"
	[ "$cmd" = explain ] && { [ "$(steps | wc -l)" = 3 ] || bad "explain --namespace team-01: $(steps | wc -l) steps, expected 3"; }
	ok "$SKEWER" $cmd -l 'app in (svc2,svc4)' "$r/eks-cluster.json"
	[ "$cmd" = explain ] && { [ "$(steps | wc -l)" = 2 ] || bad "explain -l: $(steps | wc -l) steps, expected 2"; }
done

# the kubectl plugin, with a stand-in kubectl and skewer
bin=$tmp/bin
mkdir -p "$bin"
cat >"$bin/kubectl" <<EOS
#!/bin/sh
case "\$*" in
*"config current-context") echo kind-kind ;;
*"get nodes,pods,services,replicasets,statefulsets,replicationcontrollers -A -o yaml") cat "$PWD/$r/kind-cluster.yaml" ;;
*"get priorityclasses -A -o yaml") printf 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: batch-low}, value: 10}\n' ;;
*"get storageclasses -A -o yaml") printf 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: standard}, provisioner: rancher.io/local-path, volumeBindingMode: WaitForFirstConsumer}\n' ;;
*"get poddisruptionbudgets -A -o yaml"|*"get persistentvolumeclaims -A -o yaml"|*"get persistentvolumes -A -o yaml"|*"get csinodes -A -o yaml") printf 'apiVersion: v1\nitems: []\nkind: List\n' ;;
*"get csidrivers -A -o yaml") echo 'Error from server (Forbidden): csidrivers.storage.k8s.io is forbidden' >&2; exit 1 ;;
*"version -o yaml")
	[ -n "\${NO_SERVER:-}" ] && { printf 'clientVersion:\n  gitVersion: v1.31.2\n'; echo "The connection to the server was refused" >&2; exit 1; }
	printf 'clientVersion:\n  gitVersion: v1.31.2\n  major: "1"\nkustomizeVersion: v5.4.2\nserverVersion:\n  gitVersion: v1.30.4\n  major: "1"\n  minor: "30"\n' ;;
*) echo "unexpected kubectl \$*" >&2; exit 1 ;;
esac
EOS
cat >"$bin/skewer" <<EOS
#!/bin/sh
printf '%s\n' "\$@" >"$tmp/skewer-args"
exec "$(cd "$(dirname "$SKEWER")" && pwd)/$(basename "$SKEWER")" explain "\$@"
EOS
chmod +x "$bin/kubectl" "$bin/skewer"
plugin=contrib/kubectl-skewer
ok env -u SKEWER PATH="$bin:$PATH" TMPDIR="$tmp" sh "$plugin" --help
grep -q 'usage: kubectl skewer' "$tmp/out" || bad "kubectl-skewer --help: no usage"
env -u SKEWER PATH="$bin:$PATH" TMPDIR="$tmp" sh "$plugin" -n team-01 "$r/new-pod.yaml" >"$tmp/out" 2>"$tmp/err" ||
	bad "kubectl-skewer exited $?: $(head -3 "$tmp/err")"
grep -q '^Step 1/1: schedule team-01/checkout-canary' "$tmp/out" || bad "kubectl-skewer: the new pod is not a step"
# what it fetched, one line per kind (kind-cluster.yaml holds 3 nodes,
# 20 pods, 3 services, 3 replicasets), the kind it may not list (the
# others still fetched), and the server's version, which skewer then
# simulates
for want in 'fetched 3 nodes' 'fetched 20 pods' 'fetched 3 services' 'fetched 3 replicasets' \
	'fetched 0 statefulsets' 'fetched 0 replicationcontrollers' 'fetched 1 priorityclass' \
	'fetched 0 poddisruptionbudgets' 'fetched 1 storageclass' 'fetched 0 persistentvolumeclaims' \
	'fetched 0 persistentvolumes' 'fetched 0 csinodes' \
	'cannot list csidrivers; every CSI driver will be read with its defaults' \
	'fetched the server version v1.30.4'; do
	grep -qx "kubectl-skewer: $want" "$tmp/err" || bad "kubectl-skewer: does not say '$want': $(tr '\n' '|' <"$tmp/err")"
done
grep -q '^Simulated: Kubernetes 1.30.4' "$tmp/out" || bad "kubectl-skewer: the server's version is not the one simulated: $(sed -n 2p "$tmp/out")"
dumpf=$(sed -n 3p "$tmp/skewer-args")
case $dumpf in "$tmp"/kubectl-skewer.*) ;; *) bad "kubectl-skewer: skewer got '$(tr '\n' ' ' <"$tmp/skewer-args")'" ;; esac
[ -e "$dumpf" ] && bad "kubectl-skewer left its dump $dumpf"
ls "$tmp"/kubectl-skewer.* >/dev/null 2>&1 && bad "kubectl-skewer left a temporary file"
NO_SERVER=1 env -u SKEWER PATH="$bin:$PATH" TMPDIR="$tmp" sh "$plugin" >"$tmp/out2" 2>"$tmp/err2" ||
	bad "kubectl-skewer without a server version exited $?"
grep -q 'cannot read the server version' "$tmp/err2" || bad "kubectl-skewer: a missing server version is not said"
grep -q '^Simulated: Kubernetes 1.37 (the default)' "$tmp/out2" || bad "kubectl-skewer: without a server version skewer did not simulate its default"
env -u SKEWER PATH="$bin:$PATH" TMPDIR="$tmp" sh "$plugin" --dump "$tmp/keep.yaml" >/dev/null 2>&1 || bad "kubectl-skewer --dump failed"
head -c "$(wc -c <"$r/kind-cluster.yaml")" "$tmp/keep.yaml" | cmp -s - "$r/kind-cluster.yaml" &&
	grep -q '^- {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass' "$tmp/keep.yaml" ||
	bad "kubectl-skewer --dump did not keep the dump (and its priority classes after it)"
# an option of skewer's that takes a value reaches skewer with its value
env -u SKEWER PATH="$bin:$PATH" TMPDIR="$tmp" sh "$plugin" --kube-version 1.31 >"$tmp/out3" 2>"$tmp/err3" ||
	bad "kubectl-skewer --kube-version 1.31 exited $?: $(head -3 "$tmp/err3")"
grep -q '^Simulated: Kubernetes 1.31' "$tmp/out3" || bad "kubectl-skewer --kube-version 1.31: $(sed -n 2p "$tmp/out3")"
rc=0; env -u SKEWER PATH="$bin:$PATH" sh "$plugin" "$tmp/nope.yaml" >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || bad "kubectl-skewer with a missing POD.yaml exited $rc, expected 2"

if [ "$failures" -ne 0 ]; then
	echo "$failures failure(s)" >&2
	exit 1
fi
echo "ok: realistic dumps, queue order, filters, kubectl plugin"
