/* explain_autoscale.c - what `explain` prints for a scaleUp step, in text
 * and JSON (spec/autoscalers.md sections 4 and 6), from the step's
 * report (model/autoscale/autoscale.h). */
#include "cli.h"

#include <inttypes.h>
#include <string.h>

#include "../model/autoscale/autoscale.h"
#include "../model/steps/scale_up.h"

void cli_scale_up_text(FILE *f, const struct timeline *t, uint32_t i)
{
	cli_scale_up_report_text(f, scale_up_report(t, i));
}

void cli_scale_up_report_text(FILE *f, const struct as_report *r)
{
	struct out_buf b = {0};
	as_report_text(&b, r);
	fputs(out_buf_str(&b), f);
	out_buf_fini(&b);
}

static void strs(struct out_json *j, const char *key, char **v, uint32_t n)
{
	out_json_key(j, key);
	out_json_begin_array(j);
	for (uint32_t i = 0; i < n; i++)
		out_json_str(j, v[i]);
	out_json_end_array(j);
}

void cli_scale_up_json(struct out_json *j, const struct timeline *t, uint32_t i)
{
	const struct as_report *r = scale_up_report(t, i);
	if (!r || r->error)
		return;
	bool ca = r->kind == AS_CA;
	out_json_key(j, "autoscaler");
	out_json_str(j, ca ? "clusterAutoscaler" : "karpenter");
	out_json_key(j, "dryRun");
	out_json_bool(j, r->dry);
	strs(j, "pods", r->pods, r->npods);
	if (ca) {
		out_json_key(j, "groups");
		out_json_begin_array(j);
		for (uint32_t g = 0; g < r->ngroups; g++) {
			const struct as_group_rep *gp = &r->groups[g];
			out_json_begin_object(j);
			out_json_key(j, "name");
			out_json_str(j, gp->name);
			out_json_key(j, "status");
			out_json_str(j, gp->status);
			if (gp->reason) {
				out_json_key(j, "reasons");
				out_json_begin_array(j);
				out_json_str(j, gp->reason);
				out_json_end_array(j);
			}
			if (gp->tmpl_from) {
				out_json_key(j, "template");
				out_json_begin_object(j);
				out_json_key(j, "from");
				out_json_str(j, gp->tmpl_from);
				out_json_key(j, "zone");
				out_json_str(j, gp->tmpl_zone);
				if (gp->plugin) {
					out_json_key(j, "plugin");
					out_json_str(j, gp->plugin);
					out_json_key(j, "detail");
					out_json_str(j, gp->detail);
				}
				out_json_end_object(j);
			}
			if (gp->has_domains) {
				strs(j, "domains", gp->domains, gp->ndomains);
				out_json_key(j, "globalMin");
				out_json_begin_array(j);
				for (uint32_t k = 0; k < gp->ndomains; k++)
					out_json_int(j, gp->gmin[k]);
				out_json_end_array(j);
			}
			if (gp->status && (!strcmp(gp->status, "option") || !strcmp(gp->status, "noPods"))) {
				out_json_key(j, "estimate");
				out_json_int(j, gp->estimate);
				strs(j, "podsHelped", gp->helped, gp->nhelped);
			}
			out_json_end_object(j);
		}
		out_json_end_array(j);
		out_json_key(j, "expander");
		out_json_begin_array(j);
		for (uint32_t k = 0; k < r->nexpander; k++)
			out_json_str(j, as_expander_name(r->expander[k]));
		out_json_end_array(j);
		out_json_key(j, "chosen");
		out_json_str(j, r->chosen);
		out_json_key(j, "why");
		out_json_str(j, r->why);
		out_json_key(j, "resized");
		out_json_begin_array(j);
		for (uint32_t k = 0; k < r->nresized; k++) {
			out_json_begin_object(j);
			out_json_key(j, "group");
			out_json_str(j, r->resized[k].group);
			out_json_key(j, "from");
			out_json_int(j, r->resized[k].from);
			out_json_key(j, "to");
			out_json_int(j, r->resized[k].to);
			out_json_key(j, "max");
			out_json_int(j, r->resized[k].max);
			out_json_end_object(j);
		}
		out_json_end_array(j);
	} else {
		if (r->has_kdomains) {
			out_json_key(j, "topology");
			out_json_begin_array(j);
			for (uint32_t k = 0; k < r->nkdomains; k++) {
				out_json_begin_object(j);
				out_json_key(j, "pod");
				out_json_str(j, r->for_pod);
				out_json_key(j, "domains");
				out_json_str(j, r->kdomains[k]);
				out_json_key(j, "globalMin");
				out_json_int(j, r->kgmin[k]);
				out_json_end_object(j);
			}
			out_json_end_array(j);
		}
		out_json_key(j, "nodeClaims");
		out_json_begin_array(j);
		for (uint32_t k = 0; k < r->nclaims; k++) {
			const struct as_claim *c = &r->claims[k];
			out_json_begin_object(j);
			out_json_key(j, "name");
			out_json_str(j, c->name);
			out_json_key(j, "nodePool");
			out_json_str(j, c->pool);
			out_json_key(j, "zone");
			out_json_str(j, c->zone);
			out_json_key(j, "instanceType");
			out_json_str(j, c->itype);
			out_json_key(j, "capacityType");
			out_json_str(j, c->capacity);
			strs(j, "pods", c->pods, c->npods);
			out_json_end_object(j);
		}
		out_json_end_array(j);
		out_json_key(j, "placements");
		out_json_begin_array(j);
		for (uint32_t k = 0; k < r->nplaces; k++) {
			const struct as_place *pl = &r->places[k];
			out_json_begin_object(j);
			out_json_key(j, "pod");
			out_json_str(j, pl->pod);
			out_json_key(j, "result");
			out_json_str(j, pl->result);
			if (pl->node) {
				out_json_key(j, "node");
				out_json_str(j, pl->node);
			}
			if (pl->claim) {
				out_json_key(j, "nodeClaim");
				out_json_str(j, pl->claim);
				out_json_key(j, "zone");
				out_json_str(j, pl->zone);
			}
			if (pl->error) {
				out_json_key(j, "error");
				out_json_str(j, pl->error);
			}
			strs(j, "relaxed", pl->relaxed, pl->nrelaxed);
			out_json_end_object(j);
		}
		out_json_end_array(j);
	}
	out_json_key(j, "added");
	out_json_begin_array(j);
	for (uint32_t k = 0; k < r->nadded; k++) {
		out_json_begin_object(j);
		out_json_key(j, "name");
		out_json_str(j, r->added[k].name);
		out_json_key(j, ca ? "group" : "nodePool");
		out_json_str(j, r->added[k].group);
		out_json_key(j, "zone");
		out_json_str(j, r->added[k].zone);
		if (r->added[k].itype) {
			out_json_key(j, "instanceType");
			out_json_str(j, r->added[k].itype);
		}
		out_json_end_object(j);
	}
	out_json_end_array(j);
	out_json_key(j, "events");
	out_json_begin_array(j);
	for (uint32_t k = 0; k < r->nevents; k++) {
		out_json_begin_object(j);
		out_json_key(j, "pod");
		out_json_str(j, r->events[k].pod);
		out_json_key(j, "reason");
		out_json_str(j, r->events[k].reason);
		out_json_key(j, "message");
		out_json_str(j, r->events[k].message);
		out_json_end_object(j);
	}
	out_json_end_array(j);
}
