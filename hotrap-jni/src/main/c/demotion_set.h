/*
 * The demotion set: (key, value hash) pairs that the demotion filter drops, in native memory so that
 * RocksDB's compaction threads read it without calling back into the JVM.
 *
 * Locking: one pthread rwlock per set. Lookups (the filter, contains, size) take it shared; add,
 * remove, clear take it exclusive. The lock prefers writers, so that a user write, which removes its
 * key before it writes, is not starved by compaction threads that probe the set once per record.
 * Entries are allocated and freed outside the lock.
 *
 * Lifetime: reference counted. The Java DemotionSet holds one reference and every filter state one
 * more; demotion_set_release frees the set when the last reference goes. The Java owner closes with
 * demotion_set_close, which empties the set first, so a filter that outlives it keeps every record.
 */
#ifndef HOTRAP_DEMOTION_SET_H
#define HOTRAP_DEMOTION_SET_H

#include <stddef.h>
#include <stdint.h>

typedef struct demotion_set demotion_set;

/* A new empty set holding one reference, or NULL when memory ran out. */
demotion_set *demotion_set_create(void);

/* Takes one more reference. */
void demotion_set_retain(demotion_set *set);

/* Drops one reference; frees the set with the last. NULL is ignored. */
void demotion_set_release(demotion_set *set);

/* Empties the set and drops the caller's reference. */
void demotion_set_close(demotion_set *set);

/* 1 when added, 0 when the pair was present, -1 when memory ran out (the set is unchanged). */
int demotion_set_add(demotion_set *set, const void *key, size_t key_len, uint64_t value_hash);

/* Removes every pair of the key; returns how many. */
size_t demotion_set_remove(demotion_set *set, const void *key, size_t key_len);

/* 1 when the pair is present, else 0. */
int demotion_set_contains(demotion_set *set, const void *key, size_t key_len, uint64_t value_hash);

/*
 * 1 when (key, hotrap_xxh64(value)) is present, else 0. The value is hashed only when the key has a
 * pair at all, so records of unregistered keys cost one key hash and one bucket probe.
 */
int demotion_set_matches(demotion_set *set, const void *key, size_t key_len, const void *value,
                         size_t value_len);

size_t demotion_set_size(demotion_set *set);

void demotion_set_clear(demotion_set *set);

/* Sets not yet freed, process-wide; for leak tests. */
long demotion_set_live_count(void);

#endif
