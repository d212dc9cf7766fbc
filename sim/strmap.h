/* A string -> index hash map (open addressing, FNV-1a). Keys are not
 * copied: they must outlive the map (the loader's keys point into ELF
 * string tables or strings it owns). */
#ifndef FTV_SIM_STRMAP_H
#define FTV_SIM_STRMAP_H

#include <stddef.h>

struct sim_strmap {
	const char **keys;
	size_t *vals;
	size_t cap, n;
};

/* Inserts or replaces; returns -1 when out of memory. */
int sim_strmap_put(struct sim_strmap *m, const char *key, size_t val);
/* Returns 1 and sets *val when found, else 0. */
int sim_strmap_get(const struct sim_strmap *m, const char *key, size_t *val);
void sim_strmap_free(struct sim_strmap *m);

#endif
