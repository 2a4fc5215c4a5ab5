/* The family registry: one row per family. Adding a family is one row here
 * (and its table's declaration in family.h); see docs/families.md, "Adding a
 * family". bf_family_name/from_name, sizing, bf_filter_new and the native
 * loaders all look families up here. */
#include "families/family.h"

static const bf_family_ops *const registry[] = {
    &bf__sbbf_ops,
    &bf__bloom_ops,
    &bf__counting_ops,
    &bf__cuckoo_ops,
    &bf__scalable_ops,
    &bf__blocked_ops,
};

#define REGISTRY_ROWS (sizeof registry / sizeof registry[0])

size_t bf__family_count(void) { return REGISTRY_ROWS; }

const bf_family_ops *bf__family_at(size_t i) {
    return i < REGISTRY_ROWS ? registry[i] : NULL;
}

const bf_family_ops *bf__family_ops(bf_family id) {
    for (size_t i = 0; i < REGISTRY_ROWS; i++)
        if (registry[i]->id == id)
            return registry[i]->version == BF_FAMILY_OPS_VERSION ? registry[i] : NULL;
    return NULL;
}
