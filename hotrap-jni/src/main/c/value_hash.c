#include "value_hash.h"

static const uint64_t PRIME1 = 0x9E3779B185EBCA87ULL;
static const uint64_t PRIME2 = 0xC2B2AE3D27D4EB4FULL;
static const uint64_t PRIME3 = 0x165667B19E3779F9ULL;
static const uint64_t PRIME4 = 0x85EBCA77C2B2AE63ULL;
static const uint64_t PRIME5 = 0x27D4EB2F165667C5ULL;

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/* Little-endian loads byte by byte: no alignment and no host byte order assumed (compilers fuse them). */
static inline uint64_t read64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) {
    v = (v << 8) | p[i];
  }
  return v;
}

static inline uint32_t read32(const unsigned char *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint64_t round64(uint64_t acc, uint64_t input) {
  acc += input * PRIME2;
  acc = rotl64(acc, 31);
  return acc * PRIME1;
}

static inline uint64_t merge_round(uint64_t acc, uint64_t val) {
  acc ^= round64(0, val);
  return acc * PRIME1 + PRIME4;
}

uint64_t hotrap_xxh64(const void *data, size_t len, uint64_t seed) {
  static const unsigned char empty[1] = {0};
  const unsigned char *p = data != NULL ? (const unsigned char *)data : empty;
  const unsigned char *end = p + (data != NULL ? len : 0);
  if (data == NULL) {
    len = 0;
  }
  uint64_t h;
  if (len >= 32) {
    const unsigned char *limit = end - 32;
    uint64_t v1 = seed + PRIME1 + PRIME2;
    uint64_t v2 = seed + PRIME2;
    uint64_t v3 = seed;
    uint64_t v4 = seed - PRIME1;
    do {
      v1 = round64(v1, read64(p));
      v2 = round64(v2, read64(p + 8));
      v3 = round64(v3, read64(p + 16));
      v4 = round64(v4, read64(p + 24));
      p += 32;
    } while (p <= limit);
    h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
    h = merge_round(h, v1);
    h = merge_round(h, v2);
    h = merge_round(h, v3);
    h = merge_round(h, v4);
  } else {
    h = seed + PRIME5;
  }
  h += (uint64_t)len;
  while (p + 8 <= end) {
    h ^= round64(0, read64(p));
    h = rotl64(h, 27) * PRIME1 + PRIME4;
    p += 8;
  }
  if (p + 4 <= end) {
    h ^= (uint64_t)read32(p) * PRIME1;
    h = rotl64(h, 23) * PRIME2 + PRIME3;
    p += 4;
  }
  while (p < end) {
    h ^= (uint64_t)(*p) * PRIME5;
    h = rotl64(h, 11) * PRIME1;
    p++;
  }
  h ^= h >> 33;
  h *= PRIME2;
  h ^= h >> 29;
  h *= PRIME3;
  h ^= h >> 32;
  return h;
}
