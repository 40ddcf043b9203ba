package io.hotrap.ralt;

/**
 * An immutable Bloom filter over the hot keys of one file, held in memory so that
 * {@link Ralt#isHot(byte[])} never reads the disk (HotRAP §3.2 keeps one per run, over hot keys only).
 *
 * <p>Cache-blocked: a key's probes all fall in one 512-bit block chosen by the high half of its
 * hash, so a lookup touches one cache line. Probe positions come from double hashing of the low half.
 * Blocking costs a little false-positive rate against a plain filter of the same size, and buys
 * the speed that lets a lookup check a dozen runs in well under a microsecond.
 */
final class HotKeyFilter {
  private static final int BLOCK_WORDS = 8; // 512 bits: one cache line
  private static final HotKeyFilter EMPTY = new HotKeyFilter(new long[0], 0);

  private final long[] words;
  private final int probes;
  private final int blocks;

  private HotKeyFilter(long[] words, int probes) {
    this.words = words;
    this.probes = probes;
    this.blocks = words.length / BLOCK_WORDS;
  }

  /** A filter of the given key hashes ({@code count} of them) at {@code bitsPerKey} bits each. */
  static HotKeyFilter build(long[] hashes, int count, int bitsPerKey) {
    if (count == 0) {
      return EMPTY;
    }
    long bits = Math.max(512L, (long) count * bitsPerKey);
    int blocks = (int) Math.min(Integer.MAX_VALUE / BLOCK_WORDS, (bits + 511) / 512);
    // ln 2 · bits per key probes minimise the false-positive rate of a plain filter.
    int probes = Math.max(1, Math.min(30, (int) Math.round(bitsPerKey * 0.69)));
    HotKeyFilter f = new HotKeyFilter(new long[blocks * BLOCK_WORDS], probes);
    for (int i = 0; i < count; i++) {
      f.add(hashes[i]);
    }
    return f;
  }

  private void add(long hash) {
    int base = blockOf(hash) * BLOCK_WORDS;
    int h1 = (int) hash;
    int h2 = (int) (hash >>> 17) | 1;
    for (int i = 0; i < probes; i++) {
      int bit = (h1 + i * h2) & 511;
      words[base + (bit >>> 6)] |= 1L << bit;
    }
  }

  /** False only if the key is certainly not among the filter's keys. */
  boolean mightContain(long hash) {
    if (blocks == 0) {
      return false;
    }
    int base = blockOf(hash) * BLOCK_WORDS;
    int h1 = (int) hash;
    int h2 = (int) (hash >>> 17) | 1;
    for (int i = 0; i < probes; i++) {
      int bit = (h1 + i * h2) & 511;
      if ((words[base + (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  private int blockOf(long hash) {
    return (int) (((hash >>> 32) * blocks) >>> 32);
  }

  /** Heap bytes held by the bit array. */
  long memoryBytes() {
    return 16L + words.length * 8L;
  }
}
