/* volumes.h - the storage objects the volume plugins read
 * (PersistentVolumeClaim, PersistentVolume, StorageClass, CSINode,
 * CSIDriver), kept by struct cluster as the API server's informers would
 * hold them, and what VolumeBinding's binder computes from them
 * (volumebinding/binder.go): a pod's claims sorted into bound, delayed
 * and immediate ones, the per-node FindPodVolumes, and the bindings made
 * once a node is chosen (Reserve/PreBind and the PV controller), with
 * their undo. */
#ifndef SKEWER_VOLUMES_H
#define SKEWER_VOLUMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "intern.h"
#include "labels.h"

struct ns_term;
struct node;
struct pod;
struct cluster;
struct pod_volume;

enum access_mode {
	AM_RWO = 1,   /* ReadWriteOnce */
	AM_ROX = 2,   /* ReadOnlyMany */
	AM_RWX = 4,   /* ReadWriteMany */
	AM_RWOP = 8,  /* ReadWriteOncePod */
};

/* One matchLabelExpressions entry of a topology selector term. */
struct topo_expr {
	sym_t key;
	sym_t *vals;
	uint32_t nvals;
};
struct topo_term {
	struct topo_expr *exprs;
	uint32_t nexprs;
};

struct storage_class {
	sym_t name;
	sym_t provisioner;
	bool wffc;                  /* volumeBindingMode WaitForFirstConsumer */
	struct topo_term *topo;     /* allowedTopologies (ORed) */
	uint32_t ntopo;
	uint32_t line, col;
};

enum pv_phase { PV_AVAILABLE, PV_BOUND, PV_RELEASED, PV_OTHER };

struct pv {
	sym_t name;
	sym_t class;                /* storageClassName, "" when none */
	int64_t capacity;           /* bytes */
	uint8_t modes;              /* enum access_mode bits */
	struct labels labels;
	struct ns_term *aff;        /* nodeAffinity.required.nodeSelectorTerms */
	uint32_t naff;
	bool has_aff;
	sym_t claim_ns, claim_name; /* claimRef, SYM_NONE when none */
	uint8_t phase;              /* enum pv_phase */
	sym_t driver;               /* csi.driver, SYM_NONE when not CSI */
	sym_t handle;               /* csi.volumeHandle */
	bool deleting;
	bool alive;
	bool provisioned;           /* made by a scheduling step (dynamic provisioning) */
	uint32_t line, col;
};

struct pvc {
	sym_t name, ns;
	sym_t class;                /* storageClassName; SYM_NONE when absent */
	int64_t request;            /* resources.requests.storage, bytes */
	uint8_t modes;
	sym_t volume_name;          /* spec.volumeName, SYM_NONE when unbound */
	bool bind_completed;        /* pv.kubernetes.io/bind-completed */
	sym_t selected_node;        /* volume.kubernetes.io/selected-node */
	bool lost;                  /* status.phase Lost */
	bool deleting;              /* deletionTimestamp */
	bool alive;
	bool ephemeral;             /* made from a pod's ephemeral volume */
	uint32_t line, col;
};

struct csi_node_driver {
	sym_t name;
	bool has_count;
	int64_t count;              /* allocatable.count */
};
struct csi_node {
	sym_t name;                 /* the node's name */
	struct csi_node_driver *drivers;
	uint32_t ndrivers;
	uint32_t line, col;
};

struct csi_driver {
	sym_t name;
	bool attach_required;       /* default true */
	bool storage_capacity;      /* default false */
	uint32_t line, col;
};

struct storage {
	struct storage_class *classes;
	uint32_t nclasses;
	struct pv *pvs;
	uint32_t npvs;
	struct pvc *pvcs;
	uint32_t npvcs;
	struct csi_node *csinodes;
	uint32_t ncsinodes;
	struct csi_driver *drivers;
	uint32_t ndrivers;
};

void storage_fini(struct storage *st);
void storage_class_fini(struct storage_class *s);
void pv_fini(struct pv *v);
void csi_node_fini(struct csi_node *n);
/* Appends a deep copy of every object of src to dst. 0 on OOM (dst
 * keeps what was appended). */
int storage_append(struct storage *dst, const struct storage *src);
/* Removes the last n objects of each kind of src's counts from dst (the
 * undo of storage_append). */
void storage_pop(struct storage *dst, const struct storage *src);
/* src's objects that dst already has (same kind and name): the first
 * one's kind and name into buf, NULL when none. */
const char *storage_clash(const struct intern *in, const struct storage *dst, const struct storage *src, char *buf,
			  size_t len);
/* "PersistentVolumeClaim data/x" (the one object of st) into buf. */
const char *storage_describe(const struct intern *in, const struct storage *st, char *buf, size_t len);

/* Adds an object (takes ownership, *x zeroed). 0 on OOM. */
int storage_add_class(struct storage *st, struct storage_class *x);
int storage_add_pv(struct storage *st, struct pv *x);
int storage_add_pvc(struct storage *st, struct pvc *x);
int storage_add_csinode(struct storage *st, struct csi_node *x);
int storage_add_driver(struct storage *st, struct csi_driver *x);

/* Lookups over live objects; -1 when none. */
int32_t storage_find_class(const struct storage *st, sym_t name);
int32_t storage_find_pv(const struct storage *st, sym_t name);
int32_t storage_find_pvc(const struct storage *st, sym_t ns, sym_t name);
int32_t storage_find_csinode(const struct storage *st, sym_t name);
int32_t storage_find_driver(const struct storage *st, sym_t name);

/* v1helper.MatchTopologySelectorTerms: no term matches everything. */
bool topo_terms_match(const struct topo_term *t, uint32_t n, const struct labels *l);
/* storagehelpers.CheckNodeAffinity: no affinity matches every node. */
bool pv_node_affinity_ok(const struct cluster *c, const struct pv *v, const struct node *n);

/* The claim a pod volume names, as the scheduler's listers would return
 * it: the cluster's object, or for an ephemeral volume whose claim is not
 * there yet the one its template makes (into *tmp). NULL: no such claim. */
const struct pvc *volume_claim(const struct cluster *c, const struct pod *p, const struct pod_volume *v,
			       struct pvc *tmp);

/* ---- VolumeBinding's binder ---- */

enum { CLAIM_BOUND, CLAIM_DELAY, CLAIM_IMMEDIATE };
/* binder.go GetPodVolumeClaims for one claim. */
int claim_class(const struct cluster *c, const struct pvc *q);

/* FindPodVolumes's reasons, as bits in binder.go's order. */
enum vb_reason {
	VB_NODE_CONFLICT = 1,   /* ErrReasonNodeConflict */
	VB_BIND_CONFLICT = 2,   /* ErrReasonBindConflict */
	VB_NO_SPACE = 4,        /* ErrReasonNotEnoughSpace */
	VB_PV_MISSING = 8,      /* ErrReasonPVNotExist */
};
/* What FindPodVolumes decided on one node: the reasons (0: fits), and
 * for the detail the claim (index among the pod's volumes) behind the
 * first reason; the static bindings (pv per pod volume, -1: none) for
 * the score and the binding. */
struct vb_result {
	uint8_t reasons;
	int32_t vol;                /* pod volume index behind the first reason */
	int32_t *pv;                /* per pod volume: the PV chosen, -1 */
	bool has_static;
};
/* binder.go FindPodVolumes for pod p on node n; r->pv has p's nvols
 * entries (caller's). */
void vb_find(const struct cluster *c, const struct pod *p, const struct node *n, struct vb_result *r);

/* What a binding changed, for undo. */
struct vol_undo {
	uint32_t npvs, npvcs;       /* object counts before */
	struct { uint32_t id; sym_t volume_name; bool bind_completed; sym_t selected_node; } *pvc;
	uint32_t npvc;
	struct { uint32_t id; sym_t claim_ns, claim_name; uint8_t phase; } *pv;
	uint32_t npv;
	char *note;                 /* what was bound or provisioned, for explain */
};
/* volume_binding.go Reserve and PreBind with the PV controller's part:
 * pod p (bound to node) gets its delayed claims bound, to the PV
 * FindPodVolumes matches or to one provisioned with node affinity on
 * the node's zone. *u records it (zeroed first). 1, 0 on OOM. */
int vb_bind(struct cluster *c, uint32_t pod, uint32_t node, struct vol_undo *u);
void vb_unbind(struct cluster *c, struct vol_undo *u);
void vol_undo_fini(struct vol_undo *u);

#endif
