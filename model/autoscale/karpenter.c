/* karpenter.c - one Karpenter provisioning batch (kubernetes-sigs/karpenter
 * v1.14.1 Provisioner.Schedule). Not simulated yet: the step says so. */
#include "autoscale.h"

#include <stdlib.h>
#include <string.h>

int as_karpenter(struct scheduler *sch, const struct scenario *sc, const struct as_step *a,
		 const struct as_settings *set, struct as_report *rep, struct as_changes *ch);

int as_karpenter(struct scheduler *sch, const struct scenario *sc, const struct as_step *a,
		 const struct as_settings *set, struct as_report *rep, struct as_changes *ch)
{
	(void)sch;
	(void)sc;
	(void)a;
	(void)set;
	(void)ch;
	rep->error = strdup("scaleUp: Karpenter's provisioning is not simulated yet (use autoscaler: clusterAutoscaler)");
	return rep->error != NULL;
}
