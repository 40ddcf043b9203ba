#define _GNU_SOURCE
#include "rocksdb_capi.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CANDIDATES 8

typedef struct candidates {
  char *paths[MAX_CANDIDATES];
  int count;
  int overflow;
} candidates;

static int collect(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  candidates *c = data;
  const char *name = info->dlpi_name;
  if (name == NULL || name[0] == '\0') {
    return 0;
  }
  const char *base = strrchr(name, '/');
  base = base != NULL ? base + 1 : name;
  if (strstr(base, "rocksdbjni") == NULL) {
    return 0;
  }
  if (c->count == MAX_CANDIDATES) {
    c->overflow = 1;
    return 0;
  }
  char *copy = strdup(name);
  if (copy != NULL) {
    c->paths[c->count++] = copy;
  }
  return 0;
}

void *rocksdb_library_open(const char *marker, char *buf, size_t buf_len) {
  candidates c;
  memset(&c, 0, sizeof(c));
  /* Paths are copied out first: dlopen is not called while dl_iterate_phdr holds the loader's lock. */
  dl_iterate_phdr(collect, &c);

  void *found = NULL;
  int matches = 0;
  const char *first = NULL;
  for (int i = 0; i < c.count; i++) {
    /* RTLD_NOLOAD: only a library already in the process; the handle is kept for its lifetime. */
    void *handle = dlopen(c.paths[i], RTLD_NOLOAD | RTLD_NOW);
    if (handle == NULL) {
      continue;
    }
    if (dlsym(handle, marker) == NULL) {
      dlclose(handle);
      continue;
    }
    if (++matches == 1) {
      first = c.paths[i];
      found = handle;
    } else {
      dlclose(handle);
    }
  }

  if (matches == 0) {
    if (c.count == 0) {
      snprintf(buf, buf_len, "no library named *rocksdbjni* is loaded in this process");
    } else {
      snprintf(buf, buf_len, "no loaded *rocksdbjni* library exports %s (%s)", marker, c.paths[0]);
    }
  } else if (matches > 1 || c.overflow) {
    /* RocksJava's classes are bound to one of them and we cannot tell which. */
    snprintf(buf, buf_len, "%d rocksdbjni libraries are loaded (first: %s); refusing to guess",
             matches, first);
    dlclose(found);
    found = NULL;
  }
  for (int i = 0; i < c.count; i++) {
    free(c.paths[i]);
  }
  return found;
}

const char *rocksdb_capi_resolve(rocksdb_capi *api, char *buf, size_t buf_len) {
  void *handle = rocksdb_library_open("rocksdb_compactionfilter_create", buf, buf_len);
  if (handle == NULL) {
    return buf;
  }
  void *create = dlsym(handle, "rocksdb_compactionfilter_create");
  void *destroy = dlsym(handle, "rocksdb_compactionfilter_destroy");
  if (create == NULL || destroy == NULL) {
    snprintf(buf, buf_len, "the rocksdbjni library exports rocksdb_compactionfilter_create"
             " but not rocksdb_compactionfilter_destroy");
    return buf;
  }
  *(void **)&api->compactionfilter_create = create;
  *(void **)&api->compactionfilter_destroy = destroy;
  return NULL;
}
