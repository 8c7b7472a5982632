/* explain_ctl.c - what explain says of a controller step (scale,
 * rollout, deschedule): its summary and each sub-step, the pods created
 * (where the scheduler put them) and deleted, numbered as the contract
 * counts steps (sub-steps included). */
#include "cli.h"

#include <string.h>

#include "../model/controllers/ctl.h"

static const char *sub_action(const struct ctl_sub *s)
{
	return s->kind == CTL_CREATE ? "create" : s->evicted ? "evict" : "delete";
}

static void owner(struct out_buf *b, const struct cluster *c, const struct ctl_sub *s)
{
	if (s->workload < 0 || (uint32_t)s->workload >= c->nworkloads)
		return;
	const struct workload *w = &c->workloads[s->workload];
	out_buf_puts(b, w->kind == WL_STATEFULSET ? "StatefulSet " : "ReplicaSet ");
	out_buf_puts(b, cli_sym(c, w->name));
}

void cli_ctl_text(FILE *f, const struct timeline *t, uint32_t i, struct out_buf *b)
{
	const struct ctl_run *k = cli_ctl_run(t, i);
	const struct cluster *c = t->c;
	if (!k)
		return;
	uint32_t base = ctl_flat_index(t, i);
	if (k->summary) {
		fputs("  ", f);
		out_text(f, k->summary, 0);
		fputc('\n', f);
	}
	for (uint32_t q = 0; q < k->nsubs; q++) {
		const struct ctl_sub *s = &k->subs[q];
		out_buf_reset(b);
		fprintf(f, "  #%u %s ", base + q + 1, sub_action(s));
		if (s->pod != UINT32_MAX)
			cli_pod_name(b, c, c->pods[s->pod].ns, c->pods[s->pod].name, false);
		if (s->workload >= 0) {
			out_buf_puts(b, " (");
			owner(b, c, s);
			out_buf_puts(b, ")");
		}
		if (s->kind == CTL_CREATE) {
			out_buf_puts(b, " -> ");
			if (s->r.outcome == OUT_SCHEDULED)
				out_buf_puts(b, cli_node_name(c, s->node));
			else
				out_buf_puts(b, cli_outcome_name(s->r.outcome));
			if (s->r.outcome != OUT_SCHEDULED && s->r.message) {
				out_buf_puts(b, ": ");
				out_buf_puts(b, s->r.message);
			}
		} else if (s->node >= 0) {
			out_buf_puts(b, " from ");
			out_buf_puts(b, cli_node_name(c, s->node));
		}
		out_text(f, out_buf_str(b), 0);
		fputc('\n', f);
	}
}

void cli_ctl_json_fields(struct out_json *j, const struct timeline *t, uint32_t i, struct out_buf *b)
{
	const struct ctl_run *k = cli_ctl_run(t, i);
	const struct cluster *c = t->c;
	if (!k)
		return;
	out_json_key(j, "summary");
	out_json_str(j, k->summary);
	for (int pass = 0; pass < 2; pass++) {
		out_json_key(j, pass ? "created" : "deleted");
		out_json_begin_array(j);
		for (uint32_t q = 0; q < k->nsubs; q++) {
			const struct ctl_sub *s = &k->subs[q];
			if ((s->kind == CTL_CREATE) != (pass == 1) || s->pod == UINT32_MAX)
				continue;
			out_buf_reset(b);
			cli_pod_name(b, c, c->pods[s->pod].ns, c->pods[s->pod].name, false);
			out_json_str(j, out_buf_str(b));
		}
		out_json_end_array(j);
	}
}

void cli_ctl_json_subs(struct out_json *j, const struct timeline *t, uint32_t i, struct out_buf *b)
{
	const struct ctl_run *k = cli_ctl_run(t, i);
	const struct cluster *c = t->c;
	if (!k)
		return;
	uint32_t base = ctl_flat_index(t, i);
	for (uint32_t q = 0; q < k->nsubs; q++) {
		const struct ctl_sub *s = &k->subs[q];
		out_json_begin_object(j);
		out_json_key(j, "index");
		out_json_int(j, (int64_t)base + q + 1);
		out_json_key(j, "parent");
		out_json_int(j, base);
		out_json_key(j, "action");
		out_json_str(j, sub_action(s));
		out_json_key(j, "pod");
		out_buf_reset(b);
		if (s->pod != UINT32_MAX) {
			cli_pod_name(b, c, c->pods[s->pod].ns, c->pods[s->pod].name, false);
			out_json_str(j, out_buf_str(b));
		} else {
			out_json_null(j);
		}
		out_json_key(j, "workload");
		out_buf_reset(b);
		owner(b, c, s);
		if (s->workload >= 0)
			out_json_str(j, out_buf_str(b));
		else
			out_json_null(j);
		out_json_key(j, "outcome");
		out_json_str(j, s->kind == CTL_CREATE ? cli_outcome_name(s->r.outcome) : "applied");
		out_json_key(j, "node");
		if (s->node >= 0)
			out_json_str(j, cli_node_name(c, s->node));
		else
			out_json_null(j);
		out_json_key(j, "message");
		out_json_str(j, s->kind == CTL_CREATE ? s->r.message : NULL);
		out_json_end_object(j);
	}
}
