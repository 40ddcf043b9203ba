#define _GNU_SOURCE
#include "demotion_set.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "value_hash.h"

/* Independent of the value hash's seed 0, so that key and value hashes do not correlate. */
static const uint64_t KEY_SEED = 0x6A09E667F3BCC908ULL;
static const size_t INITIAL_BUCKETS = 64;

typedef struct entry {
  struct entry *next;
  uint64_t key_hash;
  uint64_t value_hash;
  size_t key_len;
  unsigned char key[];
} entry;

struct demotion_set {
  pthread_rwlock_t lock;
  entry **buckets;     /* bucket_count chains; guarded by lock */
  size_t bucket_count; /* a power of two; guarded by lock */
  size_t size;         /* pairs; guarded by lock */
  long refs;           /* atomic */
};

static long live_sets; /* atomic */

long demotion_set_live_count(void) { return __atomic_load_n(&live_sets, __ATOMIC_RELAXED); }

static void free_chain(entry *e) {
  while (e != NULL) {
    entry *next = e->next;
    free(e);
    e = next;
  }
}

demotion_set *demotion_set_create(void) {
  demotion_set *set = calloc(1, sizeof(*set));
  if (set == NULL) {
    return NULL;
  }
  set->buckets = calloc(INITIAL_BUCKETS, sizeof(entry *));
  if (set->buckets == NULL) {
    free(set);
    return NULL;
  }
  set->bucket_count = INITIAL_BUCKETS;
  pthread_rwlockattr_t attr;
  int ok = pthread_rwlockattr_init(&attr) == 0;
  if (ok) {
    /* Writers first: see the header. Readers never take the lock recursively. */
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    ok = pthread_rwlock_init(&set->lock, &attr) == 0;
    pthread_rwlockattr_destroy(&attr);
  }
  if (!ok) {
    free(set->buckets);
    free(set);
    return NULL;
  }
  set->refs = 1;
  __atomic_add_fetch(&live_sets, 1, __ATOMIC_RELAXED);
  return set;
}

void demotion_set_retain(demotion_set *set) { __atomic_add_fetch(&set->refs, 1, __ATOMIC_RELAXED); }

void demotion_set_release(demotion_set *set) {
  if (set == NULL || __atomic_sub_fetch(&set->refs, 1, __ATOMIC_ACQ_REL) != 0) {
    return;
  }
  for (size_t i = 0; i < set->bucket_count; i++) {
    free_chain(set->buckets[i]);
  }
  free(set->buckets);
  pthread_rwlock_destroy(&set->lock);
  free(set);
  __atomic_sub_fetch(&live_sets, 1, __ATOMIC_RELAXED);
}

void demotion_set_close(demotion_set *set) {
  if (set == NULL) {
    return;
  }
  demotion_set_clear(set);
  demotion_set_release(set);
}

static inline int same_key(const entry *e, uint64_t key_hash, const void *key, size_t key_len) {
  return e->key_hash == key_hash && e->key_len == key_len &&
         (key_len == 0 || memcmp(e->key, key, key_len) == 0);
}

/* Doubles the bucket array when the load passes 3/4; on allocation failure the chains grow longer. */
static void maybe_grow(demotion_set *set) {
  if (set->size < set->bucket_count / 4 * 3 || set->bucket_count > (SIZE_MAX / sizeof(entry *)) / 2) {
    return;
  }
  size_t count = set->bucket_count * 2;
  entry **buckets = calloc(count, sizeof(entry *));
  if (buckets == NULL) {
    return;
  }
  for (size_t i = 0; i < set->bucket_count; i++) {
    entry *e = set->buckets[i];
    while (e != NULL) {
      entry *next = e->next;
      size_t b = (size_t)e->key_hash & (count - 1);
      e->next = buckets[b];
      buckets[b] = e;
      e = next;
    }
  }
  free(set->buckets);
  set->buckets = buckets;
  set->bucket_count = count;
}

int demotion_set_add(demotion_set *set, const void *key, size_t key_len, uint64_t value_hash) {
  if (set == NULL || (key == NULL && key_len != 0) || key_len > SIZE_MAX - sizeof(entry)) {
    return -1;
  }
  entry *fresh = malloc(sizeof(entry) + key_len);
  if (fresh == NULL) {
    return -1;
  }
  fresh->key_hash = hotrap_xxh64(key, key_len, KEY_SEED);
  fresh->value_hash = value_hash;
  fresh->key_len = key_len;
  if (key_len != 0) {
    memcpy(fresh->key, key, key_len);
  }
  int added = 1;
  pthread_rwlock_wrlock(&set->lock);
  size_t b = (size_t)fresh->key_hash & (set->bucket_count - 1);
  for (entry *e = set->buckets[b]; e != NULL; e = e->next) {
    if (e->value_hash == value_hash && same_key(e, fresh->key_hash, key, key_len)) {
      added = 0;
      break;
    }
  }
  if (added) {
    fresh->next = set->buckets[b];
    set->buckets[b] = fresh;
    set->size++;
    maybe_grow(set);
  }
  pthread_rwlock_unlock(&set->lock);
  if (!added) {
    free(fresh);
  }
  return added;
}

size_t demotion_set_remove(demotion_set *set, const void *key, size_t key_len) {
  if (set == NULL || (key == NULL && key_len != 0)) {
    return 0;
  }
  uint64_t key_hash = hotrap_xxh64(key, key_len, KEY_SEED);
  entry *removed = NULL;
  size_t count = 0;
  pthread_rwlock_wrlock(&set->lock);
  entry **link = &set->buckets[(size_t)key_hash & (set->bucket_count - 1)];
  while (*link != NULL) {
    entry *e = *link;
    if (same_key(e, key_hash, key, key_len)) {
      *link = e->next;
      e->next = removed;
      removed = e;
      count++;
    } else {
      link = &e->next;
    }
  }
  set->size -= count;
  pthread_rwlock_unlock(&set->lock);
  free_chain(removed);
  return count;
}

int demotion_set_contains(demotion_set *set, const void *key, size_t key_len, uint64_t value_hash) {
  if (set == NULL || (key == NULL && key_len != 0)) {
    return 0;
  }
  uint64_t key_hash = hotrap_xxh64(key, key_len, KEY_SEED);
  int found = 0;
  pthread_rwlock_rdlock(&set->lock);
  for (entry *e = set->buckets[(size_t)key_hash & (set->bucket_count - 1)]; e != NULL; e = e->next) {
    if (e->value_hash == value_hash && same_key(e, key_hash, key, key_len)) {
      found = 1;
      break;
    }
  }
  pthread_rwlock_unlock(&set->lock);
  return found;
}

int demotion_set_matches(demotion_set *set, const void *key, size_t key_len, const void *value,
                         size_t value_len) {
  if (set == NULL || (key == NULL && key_len != 0) || (value == NULL && value_len != 0)) {
    return 0;
  }
  uint64_t key_hash = hotrap_xxh64(key, key_len, KEY_SEED);
  int found = 0;
  int hashed = 0;
  uint64_t value_hash = 0;
  pthread_rwlock_rdlock(&set->lock);
  for (entry *e = set->buckets[(size_t)key_hash & (set->bucket_count - 1)]; e != NULL; e = e->next) {
    if (!same_key(e, key_hash, key, key_len)) {
      continue;
    }
    if (!hashed) {
      value_hash = hotrap_xxh64(value, value_len, 0);
      hashed = 1;
    }
    if (e->value_hash == value_hash) {
      found = 1;
      break;
    }
  }
  pthread_rwlock_unlock(&set->lock);
  return found;
}

size_t demotion_set_size(demotion_set *set) {
  if (set == NULL) {
    return 0;
  }
  pthread_rwlock_rdlock(&set->lock);
  size_t size = set->size;
  pthread_rwlock_unlock(&set->lock);
  return size;
}

void demotion_set_clear(demotion_set *set) {
  if (set == NULL) {
    return;
  }
  /* Back to the initial size, so that a set cleared after a large migration gives its memory back. */
  entry **fresh = calloc(INITIAL_BUCKETS, sizeof(entry *));
  entry **old = NULL;
  size_t old_count = 0;
  entry *all = NULL;
  pthread_rwlock_wrlock(&set->lock);
  if (fresh != NULL) {
    old = set->buckets;
    old_count = set->bucket_count;
    set->buckets = fresh;
    set->bucket_count = INITIAL_BUCKETS;
  } else {
    for (size_t i = 0; i < set->bucket_count; i++) {
      entry *e = set->buckets[i];
      while (e != NULL) {
        entry *next = e->next;
        e->next = all;
        all = e;
        e = next;
      }
      set->buckets[i] = NULL;
    }
  }
  set->size = 0;
  pthread_rwlock_unlock(&set->lock);
  free_chain(all);
  for (size_t i = 0; i < old_count; i++) {
    free_chain(old[i]);
  }
  free(old);
}
