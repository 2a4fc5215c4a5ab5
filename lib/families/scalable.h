/* The scalable SBBF's internals beyond its table of operations
 * (bf__scalable_ops in lib/families/family.h, which the tests also call directly for
 * the native payload). Not installed. */
#ifndef BF_SCALABLE_H
#define BF_SCALABLE_H

#include "common/internal.h"

/* Compound model FPR of the chain params build after n distinct keys are
 * added (layers filled oldest first, each at its exact SBBF model), and the
 * bytes the chain then holds. BF_EFULL if a non-scaling chain cannot hold
 * n keys; BF_ETOOBIG / BF_EINVAL as bf_scalable_new and growth. */
BF_HIDDEN int bf__scalable_model(const bf_scalable_params *params, uint64_t n,
                                 double *model_fpp, uint64_t *num_bytes);

#endif
