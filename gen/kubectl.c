/* kubectl.c - `skewer gen --format kubectl`: the same cluster as the
 * List `kubectl get nodes,pods,rs,sts,svc -A -o yaml` prints. */
#include "gen.h"

#include <string.h>

static void kc_created(struct yw *w, int64_t created)
{
	char b[GEN_TIME_LEN];
	yw_kq(w, "creationTimestamp", gen_time_text(created, b));
}

static void kc_node(struct gen *g, uint32_t i)
{
	const struct gen_node *n = &g->nodes[i];
	const struct gen_pool *p = &gen_pools[n->pool];
	char b[160], uid[37], tb[GEN_TIME_LEN];
	struct yw w;
	yw_init(&w, g->f, false, 0);
	yw_map(&w, NULL);
	yw_kv(&w, "apiVersion", "v1");
	yw_kv(&w, "kind", "Node");
	yw_map(&w, "metadata");
	yw_map(&w, "annotations");
	yw_kv(&w, "alpha.kubernetes.io/provided-node-ip", n->ip);
	yw_kq(&w, "node.alpha.kubernetes.io/ttl", "0");
	yw_kq(&w, "volumes.kubernetes.io/controller-managed-attach-detach", "true");
	yw_end(&w);
	kc_created(&w, GEN_BASE_TIME - 86400 * 30 + i);
	/* the same labels as the scenario form, in the same (sorted) order */
	gen_put_node_labels(g, &w, n);
	yw_kv(&w, "name", n->name);
	snprintf(b, sizeof(b), "%" PRIu64, 1000000 + (uint64_t)i * 7);
	yw_kq(&w, "resourceVersion", b);
	gen_uid_text(g->o.seed * 7919 + i, uid);
	yw_kv(&w, "uid", uid);
	yw_end(&w);
	yw_map(&w, "spec");
	snprintf(b, sizeof(b), "aws:///%s/i-%016" PRIx64, g->zone_names[n->zone],
		 (uint64_t)((g->o.seed * 1315423911u + i) & 0xffffffffffffffull));
	yw_kv(&w, "providerID", b);
	gen_put_taints(&w, n, true);
	if (n->cordoned)
		yw_kv(&w, "unschedulable", "true");
	yw_end(&w);
	yw_map(&w, "status");
	yw_seq(&w, "addresses");
	yw_map(&w, NULL);
	yw_kv(&w, "address", n->ip);
	yw_kv(&w, "type", "InternalIP");
	yw_end(&w);
	yw_map(&w, NULL);
	yw_kv(&w, "address", n->name);
	yw_kv(&w, "type", "InternalDNS");
	yw_end(&w);
	yw_map(&w, NULL);
	yw_kv(&w, "address", n->name);
	yw_kv(&w, "type", "Hostname");
	yw_end(&w);
	yw_end(&w);
	for (int a = 0; a < 2; a++) {
		yw_map(&w, a == 0 ? "allocatable" : "capacity");
		if (a == 0)
			snprintf(b, sizeof(b), "%" PRId64 "m", gen_node_cpu_alloc(n));
		else
			snprintf(b, sizeof(b), "%" PRIu32, p->cores);
		yw_kq(&w, "cpu", b);
		yw_kq(&w, "ephemeral-storage", a == 0 ? "95551679124" : "104845292Ki");
		yw_kq(&w, "hugepages-1Gi", "0");
		yw_kq(&w, "hugepages-2Mi", "0");
		snprintf(b, sizeof(b), "%" PRId64 "Ki",
			 a == 0 ? gen_node_mem_alloc_mi(n) * 1024 : (int64_t)p->mem_gi * 1024 * 1024 - 250000);
		yw_kv(&w, "memory", b);
		if (p->gpus)
			yw_kq(&w, "nvidia.com/gpu", "1");
		snprintf(b, sizeof(b), "%" PRIu32, p->pods);
		yw_kq(&w, "pods", b);
		yw_end(&w);
	}
	yw_seq(&w, "conditions");
	static const char *const conds[][4] = {
		{"MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
		{"DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
		{"PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
		{"Ready", "True", "KubeletReady", "kubelet is posting ready status"},
	};
	for (int c = 0; c < 4; c++) {
		yw_map(&w, NULL);
		yw_kq(&w, "lastHeartbeatTime", gen_time_text(GEN_BASE_TIME - 20, tb));
		yw_kq(&w, "lastTransitionTime", gen_time_text(GEN_BASE_TIME - 86400 * 30 + i + 40, tb));
		yw_kv(&w, "message", conds[c][3]);
		yw_kv(&w, "reason", conds[c][2]);
		yw_kq(&w, "status", conds[c][1]);
		yw_kv(&w, "type", conds[c][0]);
		yw_end(&w);
	}
	yw_end(&w);
	yw_raw(&w, 0, "daemonEndpoints:\n  kubeletEndpoint:\n    Port: 10250\n");
	yw_seq(&w, "images");
	static const char *const images[][3] = {
		{"602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni", "v1.18.3", "66743925"},
		{"602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/kube-proxy", "v1.30.0-eksbuild.3", "35721483"},
		{"quay.io/prometheus/node-exporter", "v1.8.1", "12135680"},
		{"registry.example.com/platform/app-runtime", "3.4.1", "187446127"},
		{"602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/pause", "3.9", "299210"},
	};
	for (int m = 0; m < 5; m++) {
		yw_map(&w, NULL);
		yw_seq(&w, "names");
		uint64_t h = (uint64_t)m * 0x9E3779B97F4A7C15ull + 12345;
		snprintf(b, sizeof(b), "%s@sha256:%016" PRIx64 "%016" PRIx64 "%016" PRIx64 "%016" PRIx64,
			 images[m][0], h, h * 3, h * 5, h * 7);
		yw_item(&w, b);
		snprintf(b, sizeof(b), "%s:%s", images[m][0], images[m][1]);
		yw_item(&w, b);
		yw_end(&w);
		yw_kv(&w, "sizeBytes", images[m][2]);
		yw_end(&w);
	}
	yw_end(&w);
	yw_map(&w, "nodeInfo");
	yw_kv(&w, "architecture", p->arch);
	gen_uid_text(g->o.seed * 31 + i, uid);
	yw_kv(&w, "bootID", uid);
	yw_kv(&w, "containerRuntimeVersion", "containerd://1.7.22");
	yw_kv(&w, "kernelVersion", "6.1.112-124.190.amzn2023.x86_64");
	yw_kv(&w, "kubeProxyVersion", "v1.30.4-eks-a737599");
	yw_kv(&w, "kubeletVersion", "v1.30.4-eks-a737599");
	snprintf(b, sizeof(b), "ec2%029" PRIx64, (uint64_t)i * 2654435761u);
	yw_kv(&w, "machineID", b);
	yw_kv(&w, "operatingSystem", "linux");
	yw_kv(&w, "osImage", "Amazon Linux 2023.6.20241031");
	yw_kv(&w, "systemUUID", b);
	yw_end(&w);
	yw_end(&w);
	yw_end(&w);
}

/* managedFields as the API server records them: noise the loader must
 * read past (kubectl shows them with --show-managed-fields). */
static void kc_managed_fields(struct gen *g, struct yw *w, const struct gen_wl *wl, bool bound,
			      const char *uid, const char *when)
{
	char b[2048];
	yw_seq(w, "managedFields");
	yw_map(w, NULL);
	yw_kv(w, "apiVersion", "v1");
	yw_kv(w, "fieldsType", "FieldsV1");
	yw_map(w, "fieldsV1");
	snprintf(b, sizeof(b),
		 "f:metadata:\n"
		 "  f:generateName: {}\n"
		 "  f:labels:\n"
		 "    .: {}\n"
		 "    f:app: {}\n"
		 "    f:%s: {}\n"
		 "  f:ownerReferences:\n"
		 "    .: {}\n"
		 "    k:{\"uid\":\"%s\"}: {}\n"
		 "f:spec:\n"
		 "  f:containers:\n"
		 "    k:{\"name\":\"app\"}:\n"
		 "      .: {}\n"
		 "      f:image: {}\n"
		 "      f:imagePullPolicy: {}\n"
		 "      f:name: {}\n"
		 "      f:ports:\n"
		 "        .: {}\n"
		 "        k:{\"containerPort\":8080,\"protocol\":\"TCP\"}:\n"
		 "          .: {}\n"
		 "          f:containerPort: {}\n"
		 "          f:name: {}\n"
		 "          f:protocol: {}\n"
		 "      f:resources:\n"
		 "        .: {}\n"
		 "        f:limits:\n"
		 "          .: {}\n"
		 "          f:cpu: {}\n"
		 "          f:memory: {}\n"
		 "        f:requests:\n"
		 "          .: {}\n"
		 "          f:cpu: {}\n"
		 "          f:memory: {}\n"
		 "      f:terminationMessagePath: {}\n"
		 "      f:terminationMessagePolicy: {}\n"
		 "  f:dnsPolicy: {}\n"
		 "  f:enableServiceLinks: {}\n"
		 "  f:restartPolicy: {}\n"
		 "  f:schedulerName: {}\n"
		 "  f:securityContext: {}\n"
		 "  f:terminationGracePeriodSeconds: {}\n"
		 "  f:topologySpreadConstraints: {}\n",
		 wl->kind == GK_DEPLOY ? "pod-template-hash" : "controller-revision-hash", uid);
	yw_raw(w, 0, b);
	yw_end(w);
	yw_kv(w, "manager", "kube-controller-manager");
	yw_kv(w, "operation", "Update");
	yw_kq(w, "time", when);
	yw_end(w);
	if (bound) {
		yw_map(w, NULL);
		yw_kv(w, "apiVersion", "v1");
		yw_kv(w, "fieldsType", "FieldsV1");
		yw_map(w, "fieldsV1");
		yw_raw(w, 0,
		       "f:status:\n"
		       "  f:conditions:\n"
		       "    k:{\"type\":\"ContainersReady\"}:\n"
		       "      .: {}\n"
		       "      f:lastProbeTime: {}\n"
		       "      f:lastTransitionTime: {}\n"
		       "      f:status: {}\n"
		       "      f:type: {}\n"
		       "    k:{\"type\":\"Ready\"}:\n"
		       "      .: {}\n"
		       "      f:lastProbeTime: {}\n"
		       "      f:lastTransitionTime: {}\n"
		       "      f:status: {}\n"
		       "      f:type: {}\n"
		       "  f:containerStatuses: {}\n"
		       "  f:hostIP: {}\n"
		       "  f:phase: {}\n"
		       "  f:podIP: {}\n"
		       "  f:podIPs:\n"
		       "    .: {}\n"
		       "    k:{\"ip\":\"10.1.2.3\"}:\n"
		       "      .: {}\n"
		       "      f:ip: {}\n"
		       "  f:startTime: {}\n");
		yw_end(w);
		yw_kv(w, "manager", "kubelet");
		yw_kv(w, "operation", "Update");
		yw_kv(w, "subresource", "status");
		yw_kq(w, "time", when);
		yw_end(w);
	}
	yw_end(w);
	(void)g;
}

static void kc_pod(struct gen *g, uint32_t idx)
{
	const struct gen_pod *pd = &g->pods[idx];
	const struct gen_wl *wl = &g->wls[pd->wl];
	bool bound = pd->node >= 0;
	char name[128], nb[32], b[256], uid[37], ouid[37], when[GEN_TIME_LEN], start[GEN_TIME_LEN];
	struct yw w;
	/* bound pods were made before the snapshot; pending ones after, in
	 * queue order (equal priority, so creation time orders them) */
	int64_t created = bound ? GEN_BASE_TIME - 86400 + (int64_t)(idx % 80000) : GEN_BASE_TIME + idx;
	gen_time_text(created, when);
	gen_time_text(created + 3, start);
	gen_pod_name(g, wl, pd->rep, name, sizeof(name));
	gen_uid_text(g->o.seed ^ ((uint64_t)idx << 20) ^ 0xabcdef, uid);
	gen_uid_text(wl->uid, ouid);

	yw_init(&w, g->f, false, 0);
	yw_map(&w, NULL);
	yw_kv(&w, "apiVersion", "v1");
	yw_kv(&w, "kind", "Pod");
	yw_map(&w, "metadata");
	yw_map(&w, "annotations");
	if (wl->kind != GK_DAEMON) {
		yw_kq(&w, "kubectl.kubernetes.io/restartedAt", "2025-01-10T09:12:44Z");
		yw_kq(&w, "prometheus.io/port", "8080");
		yw_kq(&w, "prometheus.io/scrape", "true");
	} else {
		yw_kq(&w, "cluster-autoscaler.kubernetes.io/daemonset-pod", "true");
	}
	yw_end(&w);
	yw_kq(&w, "creationTimestamp", when);
	if (wl->kind != GK_STS) {
		gen_owner_name(wl, b, sizeof(b));
		strcat(b, "-");
		yw_kv(&w, "generateName", b);
	} else {
		yw_kv(&w, "generateName", wl->name);
	}
	gen_put_pod_labels(g, &w, wl, pd->rep);
	kc_managed_fields(g, &w, wl, bound, ouid, when);
	yw_kv(&w, "name", name);
	yw_kv(&w, "namespace", gen_ns_name(g, wl->ns, nb, sizeof(nb)));
	yw_seq(&w, "ownerReferences");
	yw_map(&w, NULL);
	yw_kv(&w, "apiVersion", "apps/v1");
	yw_kv(&w, "blockOwnerDeletion", "true");
	yw_kv(&w, "controller", "true");
	yw_kv(&w, "kind", gen_owner_kind(wl));
	gen_owner_name(wl, b, sizeof(b));
	yw_kv(&w, "name", b);
	yw_kv(&w, "uid", ouid);
	yw_end(&w);
	yw_end(&w);
	snprintf(b, sizeof(b), "%" PRIu64, 2000000 + (uint64_t)idx * 3);
	yw_kq(&w, "resourceVersion", b);
	yw_kv(&w, "uid", uid);
	yw_end(&w);

	yw_map(&w, "spec");
	gen_put_affinity(g, &w, wl, pd->node);
	yw_seq(&w, "containers");
	yw_map(&w, NULL);
	yw_seq(&w, "env");
	yw_map(&w, NULL);
	yw_kv(&w, "name", "POD_NAME");
	yw_raw(&w, 0, "valueFrom:\n  fieldRef:\n    apiVersion: v1\n    fieldPath: metadata.name\n");
	yw_end(&w);
	yw_end(&w);
	snprintf(b, sizeof(b), "registry.example.com/%s/%s:v1.%" PRIu32 ".%" PRIu32,
		 gen_ns_name(g, wl->ns, nb, sizeof(nb)), wl->name, wl->salt % 40, wl->salt % 7);
	yw_kv(&w, "image", b);
	yw_kv(&w, "imagePullPolicy", "IfNotPresent");
	yw_raw(&w, 0,
	       "livenessProbe:\n"
	       "  failureThreshold: 3\n"
	       "  httpGet:\n"
	       "    path: /healthz\n"
	       "    port: http\n"
	       "    scheme: HTTP\n"
	       "  periodSeconds: 10\n"
	       "  successThreshold: 1\n"
	       "  timeoutSeconds: 1\n");
	yw_kv(&w, "name", "app");
	yw_raw(&w, 0, "ports:\n- containerPort: 8080\n  name: http\n  protocol: TCP\n");
	yw_map(&w, "resources");
	yw_map(&w, "limits");
	snprintf(b, sizeof(b), "%" PRIu32 "m", wl->cpu_m * 2);
	yw_kv(&w, "cpu", b);
	snprintf(b, sizeof(b), "%" PRIu32 "Mi", wl->mem_mi);
	yw_kv(&w, "memory", b);
	if (wl->gpus)
		yw_kq(&w, "nvidia.com/gpu", "1");
	yw_end(&w);
	gen_put_requests(&w, wl, "requests");
	yw_end(&w);
	yw_kv(&w, "terminationMessagePath", "/dev/termination-log");
	yw_kv(&w, "terminationMessagePolicy", "File");
	yw_seq(&w, "volumeMounts");
	yw_map(&w, NULL);
	yw_kv(&w, "mountPath", "/var/run/secrets/kubernetes.io/serviceaccount");
	snprintf(b, sizeof(b), "kube-api-access-%.5s", uid);
	yw_kv(&w, "name", b);
	yw_kv(&w, "readOnly", "true");
	yw_end(&w);
	yw_end(&w);
	yw_end(&w);
	yw_end(&w);
	yw_kv(&w, "dnsPolicy", "ClusterFirst");
	yw_kv(&w, "enableServiceLinks", "true");
	if (bound)
		yw_kv(&w, "nodeName", g->nodes[pd->node].name);
	if (wl->gpus) {
		yw_map(&w, "nodeSelector");
		yw_kq(&w, "nvidia.com/gpu.present", "true");
		yw_end(&w);
	}
	yw_kv(&w, "preemptionPolicy", "PreemptLowerPriority");
	yw_ku(&w, "priority", 0);
	yw_kv(&w, "restartPolicy", "Always");
	yw_kv(&w, "schedulerName", "default-scheduler");
	yw_kv(&w, "securityContext", "{}");
	yw_kv(&w, "serviceAccount", "default");
	yw_kv(&w, "serviceAccountName", "default");
	yw_ku(&w, "terminationGracePeriodSeconds", 30);
	gen_put_tolerations(&w, wl);
	gen_put_tscs(g, &w, wl);
	yw_seq(&w, "volumes");
	yw_map(&w, NULL);
	snprintf(b, sizeof(b), "kube-api-access-%.5s", uid);
	yw_kv(&w, "name", b);
	yw_raw(&w, 0,
	       "projected:\n"
	       "  defaultMode: 420\n"
	       "  sources:\n"
	       "  - serviceAccountToken:\n"
	       "      expirationSeconds: 3607\n"
	       "      path: token\n"
	       "  - configMap:\n"
	       "      items:\n"
	       "      - key: ca.crt\n"
	       "        path: ca.crt\n"
	       "      name: kube-root-ca.crt\n");
	yw_end(&w);
	yw_end(&w);
	yw_end(&w);

	yw_map(&w, "status");
	yw_seq(&w, "conditions");
	if (bound) {
		static const char *const types[] = {"PodReadyToStartContainers", "Initialized", "Ready",
						    "ContainersReady", "PodScheduled"};
		for (int c = 0; c < 5; c++) {
			yw_map(&w, NULL);
			yw_kv(&w, "lastProbeTime", "null");
			yw_kq(&w, "lastTransitionTime", start);
			yw_kq(&w, "status", "True");
			yw_kv(&w, "type", types[c]);
			yw_end(&w);
		}
	} else {
		yw_map(&w, NULL);
		yw_kv(&w, "lastProbeTime", "null");
		yw_kq(&w, "lastTransitionTime", when);
		yw_kv(&w, "message", "'0/1 nodes are available: 1 Too many pods.'");
		yw_kv(&w, "reason", "Unschedulable");
		yw_kq(&w, "status", "False");
		yw_kv(&w, "type", "PodScheduled");
		yw_end(&w);
	}
	yw_end(&w);
	if (bound) {
		const struct gen_node *n = &g->nodes[pd->node];
		yw_seq(&w, "containerStatuses");
		yw_map(&w, NULL);
		snprintf(b, sizeof(b), "containerd://%016" PRIx64 "%016" PRIx64, wl->uid ^ idx, wl->uid * idx);
		yw_kv(&w, "containerID", b);
		snprintf(b, sizeof(b), "registry.example.com/%s/%s:v1.%" PRIu32 ".%" PRIu32,
			 gen_ns_name(g, wl->ns, nb, sizeof(nb)), wl->name, wl->salt % 40, wl->salt % 7);
		yw_kv(&w, "image", b);
		yw_kv(&w, "lastState", "{}");
		yw_kv(&w, "name", "app");
		yw_kv(&w, "ready", "true");
		yw_ku(&w, "restartCount", idx % 7 == 0);
		yw_kv(&w, "started", "true");
		yw_map(&w, "state");
		yw_map(&w, "running");
		yw_kq(&w, "startedAt", start);
		yw_end(&w);
		yw_end(&w);
		yw_end(&w);
		yw_end(&w);
		yw_kv(&w, "hostIP", n->ip);
		yw_kv(&w, "phase", "Running");
		snprintf(b, sizeof(b), "10.%" PRIu32 ".%" PRIu32 ".%" PRIu32, 64 + (idx >> 16) % 64,
			 (idx >> 8) & 255, idx & 255);
		yw_kv(&w, "podIP", b);
		yw_seq(&w, "podIPs");
		yw_map(&w, NULL);
		yw_kv(&w, "ip", b);
		yw_end(&w);
		yw_end(&w);
		yw_kv(&w, "qosClass", "Burstable");
		yw_kq(&w, "startTime", start);
	} else {
		yw_kv(&w, "phase", "Pending");
		yw_kv(&w, "qosClass", "Burstable");
	}
	yw_end(&w);
	yw_end(&w);
}

static void kc_workload(struct gen *g, const struct gen_wl *wl)
{
	char b[128], nb[32], uid[37];
	struct yw w;
	const char *ns = gen_ns_name(g, wl->ns, nb, sizeof(nb));
	if (wl->kind == GK_DAEMON)
		return; /* skewer skips DaemonSets; a dump of rs,sts,svc has none */
	gen_uid_text(wl->uid, uid);
	yw_init(&w, g->f, false, 0);
	yw_map(&w, NULL);
	yw_kv(&w, "apiVersion", "apps/v1");
	yw_kv(&w, "kind", gen_owner_kind(wl));
	yw_map(&w, "metadata");
	if (wl->kind == GK_DEPLOY) {
		yw_map(&w, "annotations");
		snprintf(b, sizeof(b), "%" PRIu32, wl->nbound);
		yw_kq(&w, "deployment.kubernetes.io/desired-replicas", b);
		yw_kq(&w, "deployment.kubernetes.io/max-replicas", b);
		yw_kq(&w, "deployment.kubernetes.io/revision", "1");
		yw_end(&w);
	}
	kc_created(&w, GEN_BASE_TIME - 86400 * 2);
	yw_ku(&w, "generation", 1);
	yw_map(&w, "labels");
	yw_kv(&w, "app", wl->name);
	if (wl->kind == GK_DEPLOY)
		yw_kv(&w, "pod-template-hash", wl->hash);
	yw_end(&w);
	gen_owner_name(wl, b, sizeof(b));
	yw_kv(&w, "name", b);
	yw_kv(&w, "namespace", ns);
	yw_kv(&w, "uid", uid);
	yw_end(&w);
	yw_map(&w, "spec");
	yw_ku(&w, "replicas", wl->nbound);
	yw_map(&w, "selector");
	yw_map(&w, "matchLabels");
	yw_kv(&w, "app", wl->name);
	if (wl->kind == GK_DEPLOY)
		yw_kv(&w, "pod-template-hash", wl->hash);
	yw_end(&w);
	yw_end(&w);
	if (wl->kind == GK_STS)
		yw_kv(&w, "serviceName", wl->name);
	yw_map(&w, "template");
	yw_map(&w, "metadata");
	yw_map(&w, "labels");
	yw_kv(&w, "app", wl->name);
	yw_end(&w);
	yw_end(&w);
	yw_map(&w, "spec");
	yw_seq(&w, "containers");
	yw_map(&w, NULL);
	snprintf(b, sizeof(b), "registry.example.com/%s/%s:v1.%" PRIu32 ".%" PRIu32, ns, wl->name,
		 wl->salt % 40, wl->salt % 7);
	yw_kv(&w, "image", b);
	yw_kv(&w, "name", "app");
	gen_put_requests(&w, wl, "resources");
	yw_end(&w);
	yw_end(&w);
	yw_end(&w);
	yw_end(&w);
	yw_end(&w);
	yw_map(&w, "status");
	yw_ku(&w, "availableReplicas", wl->nbound);
	yw_ku(&w, "observedGeneration", 1);
	yw_ku(&w, "readyReplicas", wl->nbound);
	yw_ku(&w, "replicas", wl->nbound);
	yw_end(&w);
	yw_end(&w);
	if (!wl->service)
		return;
	gen_uid_text(wl->uid ^ 1, uid);
	yw_init(&w, g->f, false, 0);
	yw_map(&w, NULL);
	yw_kv(&w, "apiVersion", "v1");
	yw_kv(&w, "kind", "Service");
	yw_map(&w, "metadata");
	kc_created(&w, GEN_BASE_TIME - 86400 * 2);
	yw_map(&w, "labels");
	yw_kv(&w, "app", wl->name);
	yw_end(&w);
	yw_kv(&w, "name", wl->name);
	yw_kv(&w, "namespace", ns);
	yw_kv(&w, "uid", uid);
	yw_end(&w);
	yw_map(&w, "spec");
	if (wl->kind == GK_STS) {
		yw_kv(&w, "clusterIP", "None");
	} else {
		snprintf(b, sizeof(b), "172.20.%" PRIu32 ".%" PRIu32, (wl->salt >> 8) & 255, wl->salt & 255);
		yw_kv(&w, "clusterIP", b);
	}
	yw_kv(&w, "internalTrafficPolicy", "Cluster");
	yw_raw(&w, 0, "ipFamilies:\n- IPv4\nipFamilyPolicy: SingleStack\n"
		      "ports:\n- name: http\n  port: 80\n  protocol: TCP\n  targetPort: http\n");
	yw_map(&w, "selector");
	yw_kv(&w, "app", wl->name);
	yw_end(&w);
	yw_kv(&w, "sessionAffinity", "None");
	yw_kv(&w, "type", "ClusterIP");
	yw_end(&w);
	yw_raw(&w, 0, "status:\n  loadBalancer: {}\n");
	yw_end(&w);
}

void gen_write_kubectl(struct gen *g)
{
	fputs("apiVersion: v1\nitems:\n", g->f);
	for (uint32_t i = 0; i < g->o.nodes; i++)
		kc_node(g, i);
	for (uint32_t i = 0; i < g->nwls; i++)
		kc_workload(g, &g->wls[i]);
	/* bound pods, then the pending ones in queue order */
	for (uint32_t i = 0; i < g->npods; i++)
		if (g->pods[i].node >= 0)
			kc_pod(g, i);
	for (uint32_t i = 0; i < g->npods; i++)
		if (g->pods[i].node < 0)
			kc_pod(g, i);
	fputs("kind: List\nmetadata:\n", g->f);
	if (g->o.kube_version) {
		/* the server version, as kubectl skewer records it */
		fputs("  annotations:\n    skewer.io/server-version: ", g->f);
		yw_quote(g->f, g->o.kube_version);
		fputc('\n', g->f);
	}
	fputs("  resourceVersion: \"\"\n", g->f);
}
