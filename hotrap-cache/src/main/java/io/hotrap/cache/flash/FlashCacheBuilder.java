package io.hotrap.cache.flash;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Builds a {@link FlashCache}; get one from {@link FlashCache#builder()}. {@link #directory},
 * {@link #flashBytes} and {@link #dramBytes} are required; everything else has the default named
 * at its setter. A setter fails fast on a bad value ({@link IllegalArgumentException}) and on an
 * option set twice ({@link IllegalStateException}), with a message that names the value.
 */
public final class FlashCacheBuilder {
  /** Smallest region the default picks: 1 MiB. */
  public static final int MIN_DEFAULT_REGION_BYTES = 1 << 20;
  /** Largest region the default picks: 16 MiB (Navy's usual region size). */
  public static final int MAX_DEFAULT_REGION_BYTES = 16 << 20;
  /** The default region size is the flash size divided by this, then clamped and page-aligned. */
  public static final int DEFAULT_REGIONS = 64;
  /** Smallest region {@link #regionBytes} accepts: 64 KiB. */
  public static final int MIN_REGION_BYTES = 64 << 10;
  /** Largest region {@link #regionBytes} accepts: 64 MiB. */
  public static final int MAX_REGION_BYTES = 64 << 20;
  /** Fewest regions a cache may have: buffers, the clean reserve and stored regions to evict. */
  public static final int MIN_REGIONS = 8;
  /** Default of {@link #reinsertionHits}: reinsert items read at least once since written. */
  public static final int DEFAULT_REINSERTION_HITS = 1;
  /** Default of {@link #reinsertionBudget}: reinsert at most 8% of the bytes admitted. */
  public static final double DEFAULT_REINSERTION_BUDGET = 0.08;
  /** Default of {@link #averageItemBytes}, which sizes the bypass filter. */
  public static final int DEFAULT_AVERAGE_ITEM_BYTES = 512;
  /** Default of {@link #invalidGroupsRemembered}: SAS-Cache's queue of 10 (§IV-D). */
  public static final int DEFAULT_INVALID_GROUPS = 10;
  /** Default of {@link #inMemoryBuffers}: one being filled, one being written. */
  public static final int DEFAULT_BUFFERS = 2;
  /** Default of {@link #indexKind}; see there for why. */
  public static final FlashIndexKind DEFAULT_INDEX_KIND = FlashIndexKind.ON_HEAP;

  private Path directory;
  private long flashBytes = -1;
  private long dramBytes = -1;
  private int regionBytes = -1;
  private RegionEvictionPolicy evictionPolicy;
  private int reinsertionHits = -1;
  private double reinsertionBudget = -1;
  private Boolean bypassFilter;
  private int averageItemBytes = -1;
  private int invalidGroups = -1;
  private int buffers = -1;
  private Boolean warmRestart;
  private FlashIndexKind indexKind;
  private LongConsumer prefetcher;
  private LongConsumer admissionObserver;

  FlashCacheBuilder() {}

  /** Directory of the region file and the checkpoint; created if missing. Required. */
  public FlashCacheBuilder directory(Path directory) {
    Objects.requireNonNull(directory, "directory");
    check(this.directory == null, "directory was already set to %s", this.directory);
    this.directory = directory;
    return this;
  }

  /** Bytes of the region file: the flash tier's capacity, in whole regions. Required. */
  public FlashCacheBuilder flashBytes(long flashBytes) {
    check(this.flashBytes < 0, "flashBytes was already set to %s", this.flashBytes);
    checkArgument(flashBytes > 0, "flashBytes must be positive, was %s", flashBytes);
    this.flashBytes = flashBytes;
    return this;
  }

  /**
   * Bytes of the DRAM tier, charged as key + value + {@value DramEntry#OVERHEAD_BYTES} per item;
   * 0 sends every put straight to flash. Required.
   */
  public FlashCacheBuilder dramBytes(long dramBytes) {
    check(this.dramBytes < 0, "dramBytes was already set to %s", this.dramBytes);
    checkArgument(dramBytes >= 0, "dramBytes must not be negative, was %s", dramBytes);
    this.dramBytes = dramBytes;
    return this;
  }

  /**
   * Bytes of one region, a multiple of 4 KiB in [64 KiB, 64 MiB]; also the largest item (key,
   * value and {@value RegionBuffer#HEADER_BYTES} bytes of header). Default: flashBytes / 64,
   * clamped to [1 MiB, 16 MiB] and rounded down to 4 KiB.
   */
  public FlashCacheBuilder regionBytes(int regionBytes) {
    check(this.regionBytes < 0, "regionBytes was already set to %s", this.regionBytes);
    checkArgument(regionBytes >= MIN_REGION_BYTES && regionBytes <= MAX_REGION_BYTES
        && regionBytes % RegionBuffer.PAGE_BYTES == 0,
        "regionBytes must be a multiple of 4096 in [65536, 67108864], was %s", regionBytes);
    this.regionBytes = regionBytes;
    return this;
  }

  /** Which region to evict. Default: {@link RegionEvictionPolicy#LRU}. */
  public FlashCacheBuilder evictionPolicy(RegionEvictionPolicy policy) {
    Objects.requireNonNull(policy, "policy");
    check(this.evictionPolicy == null, "evictionPolicy was already set to %s", this.evictionPolicy);
    this.evictionPolicy = policy;
    return this;
  }

  /**
   * Reads since written that make an item of an evicted region a candidate to be written again
   * (within {@link #reinsertionBudget}); 0 turns reinsertion off. Default
   * {@value #DEFAULT_REINSERTION_HITS}.
   */
  public FlashCacheBuilder reinsertionHits(int hits) {
    check(this.reinsertionHits < 0, "reinsertionHits was already set to %s", this.reinsertionHits);
    checkArgument(hits >= 0 && hits <= Region.MAX_HITS, "reinsertionHits must be in [0, 255], was %s",
        hits);
    this.reinsertionHits = hits;
    return this;
  }

  /**
   * Bytes that reinsertion may write per byte admitted from DRAM, counted since open: write
   * amplification stays below about {@code 1 + budget}. Items qualified by
   * {@link #reinsertionHits} are reinserted most-read first within it; 0 turns reinsertion off.
   * Default {@value #DEFAULT_REINSERTION_BUDGET}.
   */
  public FlashCacheBuilder reinsertionBudget(double budget) {
    check(this.reinsertionBudget < 0, "reinsertionBudget was already set to %s",
        this.reinsertionBudget);
    checkArgument(budget >= 0 && budget <= 10, "reinsertionBudget must be in [0, 10], was %s",
        budget);
    this.reinsertionBudget = budget;
    return this;
  }

  /**
   * Whether lookups pass the cuckoo bypass filter before the flash index. Default {@code true}.
   * SAS-Cache notes it stops paying once nearly every lookup would hit anyway (§IV-F).
   */
  public FlashCacheBuilder bypassFilter(boolean enabled) {
    check(this.bypassFilter == null, "bypassFilter was already set to %s", this.bypassFilter);
    this.bypassFilter = enabled;
    return this;
  }

  /**
   * Expected bytes per item on flash (header, key and value), which sizes the bypass filter for
   * flashBytes / averageItemBytes keys (16 bits per slot at 90% load). Items beyond the filter's
   * room are not admitted to flash and count in droppedInserts. Default
   * {@value #DEFAULT_AVERAGE_ITEM_BYTES}.
   */
  public FlashCacheBuilder averageItemBytes(int bytes) {
    check(this.averageItemBytes < 0, "averageItemBytes was already set to %s",
        this.averageItemBytes);
    checkArgument(bytes >= RegionBuffer.HEADER_BYTES, "averageItemBytes must be at least %s, was %s",
        RegionBuffer.HEADER_BYTES, bytes);
    this.averageItemBytes = bytes;
    return this;
  }

  /**
   * Length of the FIFO of recently invalidated groups whose puts are dropped (insertion
   * control). Default {@value #DEFAULT_INVALID_GROUPS}; 0 keeps a group invalid only while it is
   * being purged.
   */
  public FlashCacheBuilder invalidGroupsRemembered(int groups) {
    check(this.invalidGroups < 0, "invalidGroupsRemembered was already set to %s",
        this.invalidGroups);
    checkArgument(groups >= 0 && groups <= 1 << 16, "invalidGroupsRemembered must be in [0, 65536], was %s",
        groups);
    this.invalidGroups = groups;
    return this;
  }

  /** Region buffers in memory, at least 2. Default {@value #DEFAULT_BUFFERS}. */
  public FlashCacheBuilder inMemoryBuffers(int buffers) {
    check(this.buffers < 0, "inMemoryBuffers was already set to %s", this.buffers);
    checkArgument(buffers >= 2 && buffers <= 64, "inMemoryBuffers must be in [2, 64], was %s", buffers);
    this.buffers = buffers;
    return this;
  }

  /**
   * Whether a clean close saves the index and the next open restores it. Default {@code true}.
   * Off, close writes nothing more and open starts cold.
   */
  public FlashCacheBuilder warmRestart(boolean enabled) {
    check(this.warmRestart == null, "warmRestart was already set to %s", this.warmRestart);
    this.warmRestart = enabled;
    return this;
  }

  /**
   * Where the flash index lives: on the heap, saved item by item into the checkpoint file by a
   * clean close, or off the heap in a Chronicle Map file in the directory, which needs JVM options
   * and falls back to the heap without them ({@link FlashIndexKind}).
   *
   * <p>Default {@link FlashIndexKind#ON_HEAP}, because it is the faster index and needs nothing of
   * the JVM. Measured with a million items on JDK 17 and 25 (docs/results/NOTES.md, "The flash
   * index on and off the heap"): a get the index misses took 0.3 µs on the heap against 0.6–0.9 µs
   * off it, a flash hit (its lookups and a read from the page cache) 2.3–2.5 µs against 3.1–4.0
   * µs, and filling took 40–70% longer off the heap; the off-heap index also costs about two
   * seconds at its first use in a JVM. Choose {@link FlashIndexKind#OFF_HEAP} where the heap is
   * what limits the cache: it saves about 90 bytes of heap per item on flash (30 against 123 bytes
   * per item, with a 13-byte key), a clean close does not write the index out (0.16–0.18 s
   * against 0.6–0.75 s for a million items), and its warm open is no slower (0.7–0.8 s against
   * 0.7–1.5 s).
   */
  public FlashCacheBuilder indexKind(FlashIndexKind kind) {
    Objects.requireNonNull(kind, "kind");
    check(this.indexKind == null, "indexKind was already set to %s", this.indexKind);
    this.indexKind = kind;
    return this;
  }

  /**
   * The prefetch hook: called with a group passed to {@link FlashCache#groupCreated}, on the
   * cache's background thread, to put that group's items (SAS-Cache warms up the blocks of the
   * files a compaction wrote, §IV-E). It may call any method of the cache but {@code close}; an
   * exception it throws is logged and ignored. Default: none.
   */
  public FlashCacheBuilder prefetcher(LongConsumer prefetcher) {
    Objects.requireNonNull(prefetcher, "prefetcher");
    check(this.prefetcher == null, "prefetcher was already set to %s", this.prefetcher);
    this.prefetcher = prefetcher;
    return this;
  }

  /**
   * Called with the group of every item DRAM evicts and offers to flash, before the flash tier
   * decides whether to take it (insertion control may drop it): lets an owner measure, for
   * example, what share of insertions comes from groups it knows to be dead (SAS-Cache's IBIR,
   * §III-B). Runs on the evicting thread inside the key's atomic removal, so it must be quick and
   * must not call the cache; an exception it throws is logged and ignored. Default: none.
   */
  public FlashCacheBuilder admissionObserver(LongConsumer observer) {
    Objects.requireNonNull(observer, "observer");
    check(this.admissionObserver == null, "admissionObserver was already set to %s",
        this.admissionObserver);
    this.admissionObserver = observer;
    return this;
  }

  /**
   * Opens the cache: creates the directory, restores a checkpoint left by a clean close (and
   * deletes it), and starts the background threads.
   *
   * @throws IllegalStateException if a required option is missing, the options conflict, or
   *     another open cache uses the directory
   * @throws UncheckedIOException if the directory or its files cannot be opened
   */
  public FlashCache build() {
    check(directory != null, "directory was not set");
    check(flashBytes > 0, "flashBytes was not set");
    check(dramBytes >= 0, "dramBytes was not set");
    int region = regionBytes > 0 ? regionBytes : defaultRegionBytes(flashBytes);
    long regions = flashBytes / region;
    if (regions < MIN_REGIONS) {
      throw new IllegalStateException(String.format(
          "flashBytes %d holds %d regions of %d bytes; at least %d are needed", flashBytes,
          regions, region, MIN_REGIONS));
    }
    if (regions > Integer.MAX_VALUE) {
      throw new IllegalStateException(String.format(
          "flashBytes %d holds %d regions of %d bytes; at most %d are supported", flashBytes,
          regions, region, Integer.MAX_VALUE));
    }
    int buf = buffers > 0 ? buffers : DEFAULT_BUFFERS;
    if (buf + RegionStore.CLEAN_TARGET + 2 > regions) {
      throw new IllegalStateException(String.format(
          "inMemoryBuffers %d leaves too few of the %d regions to store items", buf, regions));
    }
    try {
      return new FlashCache(this, region, (int) regions, buf);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open flash cache in " + directory, e);
    }
  }

  static int defaultRegionBytes(long flashBytes) {
    long r = flashBytes / DEFAULT_REGIONS;
    r = Math.max(MIN_DEFAULT_REGION_BYTES, Math.min(MAX_DEFAULT_REGION_BYTES, r));
    return (int) (r / RegionBuffer.PAGE_BYTES * RegionBuffer.PAGE_BYTES);
  }

  Path directory() {
    return directory;
  }

  long flashBytes() {
    return flashBytes;
  }

  long dramBytes() {
    return dramBytes;
  }

  RegionEvictionPolicy evictionPolicy() {
    return evictionPolicy != null ? evictionPolicy : RegionEvictionPolicy.LRU;
  }

  int reinsertionHits() {
    return reinsertionHits >= 0 ? reinsertionHits : DEFAULT_REINSERTION_HITS;
  }

  double reinsertionBudget() {
    return reinsertionBudget >= 0 ? reinsertionBudget : DEFAULT_REINSERTION_BUDGET;
  }

  boolean bypassFilter() {
    return bypassFilter == null || bypassFilter;
  }

  int averageItemBytes() {
    return averageItemBytes > 0 ? averageItemBytes : DEFAULT_AVERAGE_ITEM_BYTES;
  }

  int invalidGroupsRemembered() {
    return invalidGroups >= 0 ? invalidGroups : DEFAULT_INVALID_GROUPS;
  }

  boolean warmRestart() {
    return warmRestart == null || warmRestart;
  }

  FlashIndexKind indexKind() {
    return indexKind != null ? indexKind : DEFAULT_INDEX_KIND;
  }

  LongConsumer prefetcher() {
    return prefetcher;
  }

  LongConsumer admissionObserver() {
    return admissionObserver;
  }

  private static void checkArgument(boolean ok, String format, Object... args) {
    if (!ok) {
      throw new IllegalArgumentException(String.format(format, args));
    }
  }

  private static void check(boolean ok, String format, Object... args) {
    if (!ok) {
      throw new IllegalStateException(String.format(format, args));
    }
  }
}
