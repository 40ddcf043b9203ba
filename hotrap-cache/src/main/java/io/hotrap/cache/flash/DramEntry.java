package io.hotrap.cache.flash;

/**
 * A value in the DRAM tier with its group. {@code flashClean} marks a copy read from flash whose
 * flash copy was current when it was promoted: when DRAM evicts it and the flash index still holds
 * the key, the flash tier already has this value and it is not written again (CacheLib keeps such
 * items "NVM-clean" for the same reason — rewriting them would add flash writes for nothing).
 *
 * <p>Entries are compared by identity, so a conditional remove takes out only the entry its
 * caller put.
 */
final class DramEntry {
  /** Bytes charged per entry on top of key and value: node, entry, key object and array headers. */
  static final int OVERHEAD_BYTES = 96;

  final byte[] value;
  final long group;
  final boolean flashClean;

  DramEntry(byte[] value, long group, boolean flashClean) {
    this.value = value;
    this.group = group;
    this.flashClean = flashClean;
  }

  static int weigh(ItemKey key, DramEntry entry) {
    return key.bytes.length + entry.value.length + OVERHEAD_BYTES;
  }
}
