/* report_text.c - a scaleUp report as the text `explain` prints and the
 * view's Autoscalers pane wraps (spec/autoscalers.md section 4), into a
 * buffer: model/ formats, the front ends print. */
#include "autoscale.h"

#include <inttypes.h>
#include <string.h>

#include "../../util/out.h"

static void put(struct out_buf *f, const char *s)
{
	if (s)
		out_sanitize(f, s, strlen(s), 0);
}

static void list(struct out_buf *f, char **v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			out_buf_puts(f, ", ");
		put(f, v[i]);
	}
	if (!n)
		out_buf_puts(f, "none");
}

void as_report_text(struct out_buf *f, const struct as_report *r)
{
	if (!r || r->error)
		return;
	bool ca = r->kind == AS_CA;
	out_buf_printf(f, "  %s%s\n", ca ? "Cluster Autoscaler, one scale-up loop (release-1.37)"
				 : "Karpenter, one provisioning batch (v1.14.1)",
		r->dry ? ", dry run: nothing is added" : "");
	out_buf_puts(f, "  pending pods it considers: ");
	list(f, r->pods, r->npods);
	out_buf_putc(f, '\n');
	if (ca) {
		out_buf_puts(f, "  expander: ");
		for (uint32_t k = 0; k < r->nexpander; k++)
			out_buf_printf(f, "%s%s", k ? ", " : "", as_expander_name(r->expander[k]));
		out_buf_putc(f, '\n');
		for (uint32_t g = 0; g < r->ngroups; g++) {
			const struct as_group_rep *gp = &r->groups[g];
			out_buf_puts(f, "  group ");
			put(f, gp->name);
			out_buf_printf(f, ": %s", gp->status ? gp->status
					      : gp->reason ? "not checked" : "not checked (no pending pod)");
			if (gp->reason) {
				out_buf_puts(f, ": ");
				put(f, gp->reason);
			}
			if (gp->status && (!strcmp(gp->status, "option") || !strcmp(gp->status, "noPods"))) {
				out_buf_printf(f, ", estimate %" PRId64 " node(s) for %u pod(s)", gp->estimate, gp->nhelped);
				if (gp->has_waste)
					out_buf_printf(f, ", waste %.2f", gp->waste);
			}
			out_buf_putc(f, '\n');
			if (gp->tmpl_from) {
				out_buf_puts(f, "    template from ");
				put(f, gp->tmpl_from);
				if (gp->tmpl_zone) {
					out_buf_puts(f, " in zone ");
					put(f, gp->tmpl_zone);
				}
				if (gp->detail && gp->detail[0]) {
					out_buf_puts(f, ": ");
					put(f, gp->detail);
				}
				out_buf_putc(f, '\n');
			}
			for (uint32_t k = 0; gp->has_domains && k < gp->ndomains; k++) {
				out_buf_puts(f, "    domains with the template: ");
				put(f, gp->domains[k]);
				out_buf_printf(f, ", global minimum %" PRId64 "\n", gp->gmin[k]);
			}
		}
		out_buf_puts(f, "  chosen: ");
		if (r->chosen) {
			put(f, r->chosen);
			if (r->why) {
				out_buf_puts(f, " (");
				put(f, r->why);
				out_buf_putc(f, ')');
			}
		} else {
			out_buf_puts(f, "none");
		}
		out_buf_putc(f, '\n');
		for (uint32_t k = 0; k < r->nresized; k++) {
			out_buf_puts(f, "  resized ");
			put(f, r->resized[k].group);
			out_buf_printf(f, " %" PRId64 "->%" PRId64 " (max: %" PRId64 ")\n", r->resized[k].from,
				r->resized[k].to, r->resized[k].max);
		}
	} else {
		for (uint32_t k = 0; r->has_kdomains && k < r->nkdomains; k++) {
			out_buf_puts(f, "  domains as Karpenter counts them for ");
			put(f, r->for_pod);
			out_buf_puts(f, ": ");
			put(f, r->kdomains[k]);
			out_buf_printf(f, ", minimum %" PRId64 "\n", r->kgmin[k]);
		}
		for (uint32_t k = 0; k < r->nclaims; k++) {
			const struct as_claim *c = &r->claims[k];
			out_buf_puts(f, "  NodeClaim ");
			put(f, c->name);
			out_buf_puts(f, ": NodePool ");
			put(f, c->pool);
			out_buf_puts(f, ", zone ");
			put(f, c->zone ? c->zone : "?");
			out_buf_puts(f, ", ");
			put(f, c->itype ? c->itype : "?");
			out_buf_puts(f, ": ");
			list(f, c->pods, c->npods);
			out_buf_putc(f, '\n');
		}
		for (uint32_t k = 0; k < r->nerrors; k++) {
			out_buf_puts(f, "  cannot place ");
			put(f, r->errors[k].pod);
			out_buf_puts(f, ": ");
			put(f, r->errors[k].error);
			out_buf_putc(f, '\n');
		}
		/* preferences.go Relax, per pod that needed it */
		for (uint32_t k = 0; k < r->nplaces; k++)
			for (uint32_t i = 0; i < r->places[k].nrelaxed; i++) {
				out_buf_puts(f, "  relaxed for ");
				put(f, r->places[k].pod);
				out_buf_puts(f, ": ");
				put(f, r->places[k].relaxed[i]);
				out_buf_putc(f, '\n');
			}
	}
	for (uint32_t k = 0; k < r->nadded; k++) {
		out_buf_puts(f, r->dry ? "  would add " : "  added ");
		put(f, r->added[k].name);
		if (r->added[k].zone) {
			out_buf_puts(f, " in zone ");
			put(f, r->added[k].zone);
		}
		out_buf_putc(f, '\n');
	}
	for (uint32_t k = 0; k < r->nevents; k++) {
		out_buf_puts(f, "  event ");
		put(f, r->events[k].pod);
		out_buf_puts(f, " ");
		put(f, r->events[k].reason);
		out_buf_puts(f, ": ");
		put(f, r->events[k].message);
		out_buf_putc(f, '\n');
	}
	out_buf_puts(f, "  (where upstream picks at random, skewer takes the first: docs/semantics.md)\n");
}
