# span.awk - lean-scoring scenarios for tests/checks/lean.sh: N nodes (203
# by default, not a multiple of eight) in three zones and 15 racks (a few
# nodes without a rack, and the last eight and others without the key
# nozone), with 0 to 10 PreferNoSchedule taints and four labels that
# preferred node affinity weighs 1, 2, 4 and 8; counts of matching pods
# from 0 to 12 a node and 18 to 20 on the last three (past the score
# table's 16, among the last n % 8 nodes), and preferred pod affinity.
# The steps: zone and hostname with node and pod affinity (its
# PodTopologySpread scores span too much for a table at 203 nodes, so it
# takes the scalar passes there, and the vector ones with CROWD);
# hostname and nozone; racks alone (a table of 16 rows without a
# hostname term); no constraint.
# CROWD=1 gives node i < 60 i % 23 of them instead (up to 22, inside the
# blocks of eight). W sets scheduler score weights, e.g.
# -v W="NodeResourcesFit: 40000", which puts a total past the vector
# scoring's bound (its scalar fallback).
BEGIN {
	if (!N) N = 203
	print "name: span"
	if (W) { print "scheduler:"; print "  scoreWeights: {" W "}" }
	print "nodes:"
	for (i = 0; i < N; i++) {
		lab = "kubernetes.io/hostname: n" i ", zone: z" (i % 3)
		if (i % 2) lab = lab ", a: x"
		if (int(i / 2) % 2) lab = lab ", b: x"
		if (int(i / 4) % 2) lab = lab ", c: x"
		if (int(i / 8) % 2) lab = lab ", d: x"
		if (i % 29 == 7 && i < N - 8) lab = lab ", nozone: x"
		if (i % 17 != 4) lab = lab ", rack: r" (i % 15)
		t = ""
		for (k = 0; k < (i % 11); k++)
			t = t (k ? ", " : "") "{key: t" k ", value: x, effect: PreferNoSchedule}"
		printf "  - {name: n%d, labels: {%s}, allocatable: {cpu: 32, memory: 64Gi, pods: 300}%s}\n", i, lab, t == "" ? "" : ", taints: [" t "]"
	}
	print "pods:"
	for (i = 0; i < N; i++) {
		c = (i >= N - 3) ? 17 + (N - i) : (CROWD && i < 60) ? i % 23 : i % 13
		for (k = 0; k < c; k++)
			printf "  - {name: w%d-%d, nodeName: n%d, labels: {app: web}}\n", i, k, i
		for (k = 0; k < (i % 10); k++)
			printf "  - {name: d%d-%d, nodeName: n%d, labels: {app: db}}\n", i, k, i
	}
	print "steps:"
	print "  - schedule:"
	print "      name: web"
	print "      labels: {app: web}"
	print "      topologySpreadConstraints:"
	print "        - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}"
	print "        - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}"
	print "      affinity:"
	print "        nodeAffinity:"
	print "          preferredDuringSchedulingIgnoredDuringExecution:"
	print "            - {weight: 1, preference: {matchExpressions: [{key: a, operator: Exists}]}}"
	print "            - {weight: 2, preference: {matchExpressions: [{key: b, operator: Exists}]}}"
	print "            - {weight: 4, preference: {matchExpressions: [{key: c, operator: Exists}]}}"
	print "            - {weight: 8, preference: {matchExpressions: [{key: d, operator: Exists}]}}"
	print "        podAffinity:"
	print "          preferredDuringSchedulingIgnoredDuringExecution:"
	print "            - {weight: 1, podAffinityTerm: {labelSelector: {matchLabels: {app: db}}, topologyKey: kubernetes.io/hostname}}"
	print "    replicas: 60"
	print "  - schedule:"
	print "      name: web3"
	print "      labels: {app: web}"
	print "      topologySpreadConstraints:"
	print "        - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}"
	print "        - {maxSkew: 1, topologyKey: nozone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}"
	print "    replicas: 30"
	print "  - schedule:"
	print "      name: racks"
	print "      labels: {app: web}"
	print "      topologySpreadConstraints:"
	print "        - {maxSkew: 1, topologyKey: rack, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}"
	print "    replicas: 30"
	print "  - schedule:"
	print "      name: plain"
	print "      labels: {app: plain}"
	print "    replicas: 30"
}
