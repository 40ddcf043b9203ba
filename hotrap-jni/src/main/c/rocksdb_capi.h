/*
 * The few functions of RocksDB's C API (include/rocksdb/c.h) that the demotion filter uses, found at
 * run time in the rocksdbjni library that RocksJava has already loaded. No RocksDB header is
 * included: the signatures below are declared here and were checked against RocksDB 11.8.1.
 *
 * rocksdb_compactionfilter_set_ignore_snapshots is not needed: the filter ignores snapshots by
 * default, and since RocksDB 6 a filter that does not is refused (compaction_filter.h).
 *
 * rocksdb_compactionfilter_t is defined in RocksDB's db/c.cc as
 *   struct rocksdb_compactionfilter_t : public CompactionFilter { state, callbacks, ignore_snapshots }
 * CompactionFilter is its only base class (itself a single chain: Customizable, Configurable) and is
 * polymorphic, so under the Itanium C++ ABI the base subobject sits at offset 0: the pointer that
 * rocksdb_compactionfilter_create returns is also a valid rocksdb::CompactionFilter*, which is what
 * RocksJava's AbstractCompactionFilter handle and ColumnFamilyOptions.setCompactionFilterHandle expect.
 */
#ifndef HOTRAP_ROCKSDB_CAPI_H
#define HOTRAP_ROCKSDB_CAPI_H

#include <stddef.h>

typedef struct rocksdb_compactionfilter_t rocksdb_compactionfilter_t;

/* Returns nonzero to drop the record. The value_changed path is not used here. */
typedef unsigned char (*rocksdb_filter_fn)(void *state, int level, const char *key, size_t key_length,
                                           const char *existing_value, size_t value_length,
                                           char **new_value, size_t *new_value_length,
                                           unsigned char *value_changed);

typedef struct rocksdb_capi {
  rocksdb_compactionfilter_t *(*compactionfilter_create)(void *state, void (*destructor)(void *),
                                                         rocksdb_filter_fn filter,
                                                         const char *(*name)(void *));
  void (*compactionfilter_destroy)(rocksdb_compactionfilter_t *);
} rocksdb_capi;

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Returns a dlopen handle (never closed) on the one loaded library named *rocksdbjni* that exports
 * the symbol `marker`, or NULL with a message in buf (of buf_len bytes) saying why there is none.
 */
void *rocksdb_library_open(const char *marker, char *buf, size_t buf_len);

/*
 * Finds the loaded rocksdbjni library and resolves the functions above into *api. Returns NULL on
 * success, else a message saying what is missing, written into buf (of buf_len bytes).
 */
const char *rocksdb_capi_resolve(rocksdb_capi *api, char *buf, size_t buf_len);

#ifdef __cplusplus
}
#endif

#endif
