package io.hotrap.cache.flash;

/**
 * Where one item lies on flash: the value of the flash index. A location names one fill of one
 * region ({@code region}, {@code generation}), so it can never point into a later fill of the same
 * region: a read checks the generation before and after it copies the bytes, and the item header
 * carries it too (see {@link RegionBuffer}). {@code slot} numbers the item among the fill's
 * appends, so that the region can count the item's hits ({@link Region#hit}).
 *
 * <p><b>Equality is the append.</b> Two locations are equal when they have the same region,
 * generation and offset; the other fields follow from those three. The index replaces or removes
 * an entry only if it still equals the location the caller read, so a reinsertion or a purge
 * never undoes a newer put. Comparing these three fields is as strict as comparing the objects
 * the index once held: every fill gets a generation no fill of any region had before (the store
 * counts them up, and a warm restart carries the counter over in the checkpoint; a cold start
 * begins again at 1 but with an empty index), and within a fill appends only move forward, so
 * each (region, generation, offset) names exactly one append. A newer put of the key is another
 * append and so another location, even if it were to hold the same bytes. This is what lets the
 * off-heap index, which hands out a fresh copy of a location on every read, keep the protocol.
 */
final class Location {
  final int region;
  final long generation;
  final int offset;
  final int length;
  final long group;
  final int slot;

  Location(int region, long generation, int offset, int length, long group, int slot) {
    this.region = region;
    this.generation = generation;
    this.offset = offset;
    this.length = length;
    this.group = group;
    this.slot = slot;
  }

  /** Whether {@code other} names the same append; {@code null} names none. */
  boolean sameAppend(Location other) {
    return other != null && other.region == region && other.generation == generation
        && other.offset == offset;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Location other && sameAppend(other);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(generation) * 31 + offset;
  }

  @Override
  public String toString() {
    return "Location[region=" + region + ", generation=" + generation + ", offset=" + offset
        + ", length=" + length + ", group=" + group + ", slot=" + slot + "]";
  }
}
