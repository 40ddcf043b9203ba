/*
 * The value hash shared by Java (io.hotrap.jni.ValueHash) and the compaction filter: XXH64 with
 * seed 0, written from the algorithm's published description. Both sides must agree bit for bit,
 * because Java registers hash(value) and the filter recomputes it from the bytes RocksDB hands over;
 * ValueHashTest checks them against each other and against reference vectors.
 */
#ifndef HOTRAP_VALUE_HASH_H
#define HOTRAP_VALUE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* XXH64 of len bytes at data; data may be NULL when len is 0. */
uint64_t hotrap_xxh64(const void *data, size_t len, uint64_t seed);

#endif
