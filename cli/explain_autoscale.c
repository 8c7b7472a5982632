/* explain_autoscale.c - what `explain` prints for a scaleUp step, in text
 * and JSON (spec/autoscalers.md sections 4 and 6), from the step's
 * report (model/autoscale/autoscale.h). */
#include "cli.h"

#include <inttypes.h>
#include <string.h>

#include "../model/autoscale/autoscale.h"
#include "../model/steps/scale_up.h"

static void put(FILE *f, const char *s)
{
	out_text(f, s ? s : "", 0);
}

static void list(FILE *f, char **v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		put(f, v[i]);
	}
	if (!n)
		fputs("none", f);
}

void cli_scale_up_text(FILE *f, const struct timeline *t, uint32_t i)
{
	cli_scale_up_report_text(f, scale_up_report(t, i));
}

void cli_scale_up_report_text(FILE *f, const struct as_report *r)
{
	if (!r || r->error)
		return;
	bool ca = r->kind == AS_CA;
	fprintf(f, "  %s%s\n", ca ? "Cluster Autoscaler, one scale-up loop (release-1.37)"
				 : "Karpenter, one provisioning batch (v1.14.1)",
		r->dry ? ", dry run: nothing is added" : "");
	fputs("  pending pods it considers: ", f);
	list(f, r->pods, r->npods);
	fputc('\n', f);
	if (ca) {
		fputs("  expander: ", f);
		for (uint32_t k = 0; k < r->nexpander; k++)
			fprintf(f, "%s%s", k ? ", " : "", as_expander_name(r->expander[k]));
		fputc('\n', f);
		for (uint32_t g = 0; g < r->ngroups; g++) {
			const struct as_group_rep *gp = &r->groups[g];
			fputs("  group ", f);
			put(f, gp->name);
			fprintf(f, ": %s", gp->status ? gp->status : "not checked (no pending pod)");
			if (gp->reason) {
				fputs(": ", f);
				put(f, gp->reason);
			}
			if (gp->status && (!strcmp(gp->status, "option") || !strcmp(gp->status, "noPods"))) {
				fprintf(f, ", estimate %" PRId64 " node(s) for %u pod(s)", gp->estimate, gp->nhelped);
				if (gp->has_waste)
					fprintf(f, ", waste %.2f", gp->waste);
			}
			fputc('\n', f);
			if (gp->tmpl_from) {
				fputs("    template from ", f);
				put(f, gp->tmpl_from);
				if (gp->tmpl_zone) {
					fputs(" in zone ", f);
					put(f, gp->tmpl_zone);
				}
				if (gp->detail && gp->detail[0]) {
					fputs(": ", f);
					put(f, gp->detail);
				}
				fputc('\n', f);
			}
			for (uint32_t k = 0; gp->has_domains && k < gp->ndomains; k++) {
				fputs("    domains with the template: ", f);
				put(f, gp->domains[k]);
				fprintf(f, ", global minimum %" PRId64 "\n", gp->gmin[k]);
			}
		}
		fputs("  chosen: ", f);
		if (r->chosen) {
			put(f, r->chosen);
			if (r->why) {
				fputs(" (", f);
				put(f, r->why);
				fputc(')', f);
			}
		} else {
			fputs("none", f);
		}
		fputc('\n', f);
		for (uint32_t k = 0; k < r->nresized; k++) {
			fputs("  resized ", f);
			put(f, r->resized[k].group);
			fprintf(f, " %" PRId64 "->%" PRId64 " (max: %" PRId64 ")\n", r->resized[k].from,
				r->resized[k].to, r->resized[k].max);
		}
	} else {
		for (uint32_t k = 0; r->has_kdomains && k < r->nkdomains; k++) {
			fputs("  domains as Karpenter counts them for ", f);
			put(f, r->for_pod);
			fputs(": ", f);
			put(f, r->kdomains[k]);
			fprintf(f, ", minimum %" PRId64 "\n", r->kgmin[k]);
		}
		for (uint32_t k = 0; k < r->nclaims; k++) {
			const struct as_claim *c = &r->claims[k];
			fputs("  NodeClaim ", f);
			put(f, c->name);
			fputs(": NodePool ", f);
			put(f, c->pool);
			fputs(", zone ", f);
			put(f, c->zone ? c->zone : "?");
			fputs(", ", f);
			put(f, c->itype ? c->itype : "?");
			fputs(": ", f);
			list(f, c->pods, c->npods);
			fputc('\n', f);
		}
		for (uint32_t k = 0; k < r->nerrors; k++) {
			fputs("  cannot place ", f);
			put(f, r->errors[k].pod);
			fputs(": ", f);
			put(f, r->errors[k].error);
			fputc('\n', f);
		}
	}
	for (uint32_t k = 0; k < r->nadded; k++) {
		fputs(r->dry ? "  would add " : "  added ", f);
		put(f, r->added[k].name);
		if (r->added[k].zone) {
			fputs(" in zone ", f);
			put(f, r->added[k].zone);
		}
		fputc('\n', f);
	}
	for (uint32_t k = 0; k < r->nevents; k++) {
		fputs("  event ", f);
		put(f, r->events[k].pod);
		fputs(" ", f);
		put(f, r->events[k].reason);
		fputs(": ", f);
		put(f, r->events[k].message);
		fputc('\n', f);
	}
	fputs("  (where upstream picks at random, skewer takes the first: docs/semantics.md)\n", f);
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
		for (uint32_t k = 0; k < r->nerrors; k++) {
			out_json_begin_object(j);
			out_json_key(j, "pod");
			out_json_str(j, r->errors[k].pod);
			out_json_key(j, "result");
			out_json_str(j, "failed");
			out_json_key(j, "error");
			out_json_str(j, r->errors[k].error);
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
