package io.hotrap.cache.flash;

/**
 * Where one item lies on flash: the value of the flash index. A location names one fill of one
 * region ({@code region}, {@code generation}), so it can never point into a later fill of the same
 * region: a read checks the generation before and after it copies the bytes, and the item header
 * carries it too (see {@link RegionBuffer}).
 *
 * <p>Locations are compared by identity: the index replaces or removes an entry only if it still
 * holds the very location the caller read, so a reinsertion or a purge never undoes a newer put.
 */
final class Location {
  /** Largest hit count kept; the checkpoint stores it in one byte. */
  static final int MAX_HITS = 255;

  final int region;
  final long generation;
  final int offset;
  final int length;
  final long group;
  /**
   * Reads served from this location since it was written, capped at {@link #MAX_HITS}. Updated
   * without synchronization: concurrent hits may count as one, which only makes reinsertion a
   * little less eager.
   */
  int hits;

  Location(int region, long generation, int offset, int length, long group) {
    this.region = region;
    this.generation = generation;
    this.offset = offset;
    this.length = length;
    this.group = group;
  }

  void hit() {
    int h = hits;
    if (h < MAX_HITS) {
      hits = h + 1;
    }
  }

  @Override
  public String toString() {
    return "Location[region=" + region + ", generation=" + generation + ", offset=" + offset
        + ", length=" + length + ", group=" + group + ", hits=" + hits + "]";
  }
}
