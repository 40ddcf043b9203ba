package io.hotrap.core;

import io.hotrap.cache.flash.FlashCache;
import io.hotrap.cache.flash.FlashCacheMetrics;
import io.hotrap.cache.flash.FlashCacheStats;
import io.hotrap.cache.flash.FlashIndexKind;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The record-level flash cache in front of the slow tier's gets ({@link FlashCacheOptions},
 * DESIGN.md §14): a {@link FlashCache} (DRAM tier and flash regions on the fast disk) holding copies
 * of records read from the slow tier, keyed by the user key.
 *
 * <p><b>Why record level.</b> The first choice was a block-level RocksDB
 * {@code SecondaryCache} under the slow tier's block cache, through {@code hotrap-jni}. That needs
 * C++ compiled against RocksDB 11.8.1's headers, which no package registry serves and which are
 * not ours to copy; it is not built. This class is the fallback the design names: the get path
 * probes the slow tier's memtables and block cache without I/O, then this cache, then the slow
 * disk ({@link HotRapDB}). Compaction never changes a record's value, so nothing here depends on
 * SST files; only the bypass filter of SAS-Cache's three ideas applies.
 *
 * <p><b>What the cache may hold.</b> Only the newest version of a key, or nothing. Three kinds of
 * change could make a cached copy stale, and each is covered:
 * <ol>
 *   <li><em>User writes</em> ({@code put}, {@code delete}, batches): the writer invalidates the key
 *       here inside {@link CommitGate#markWritten}, under the key's stripe lock, after its RocksDB
 *       write and before it returns.
 *   <li><em>A reader's insert racing a write</em> — the reader read the old value from the slow
 *       tier, a writer wrote and invalidated, then the reader inserts the old value. Closed by rule
 *       P2, the protocol {@link Promoter} uses for the promotion cache: the reader reads its key's
 *       stripe write counter before its fast-tier lookup ({@link StripedWriteCounters}), and
 *       {@link #offer} inserts under the stripe lock only if the counter has not moved. A writer
 *       bumps the counter and invalidates under that same lock after its RocksDB write, so a write
 *       either lands before the check (the insert is aborted and counted) or after the insert (and
 *       removes it). A write the reader's fast lookup already saw never reaches this path.
 *   <li><em>Movers</em>: migration copies a record's newest version from the fast tier to the slow
 *       one, and promotion copies a slow-tier version to the fast tier. Neither creates a version,
 *       so the copy here stays the newest: it was inserted after the key's last user write (an
 *       earlier insert was removed by that write, a racing one aborted by P2), and a reader whose
 *       fast lookup missed after that write read the version migration had already moved down.
 * </ol>
 * Reads at a snapshot neither use nor fill the cache: it holds only newest versions.
 *
 * <p><b>Cost of the lock.</b> The insert runs under the stripe lock, as the promotion cache's does.
 * It lands in the cache's DRAM tier; when that is full, Caffeine evicts on the inserting thread and
 * the evicted item is copied into an in-memory region buffer, which may wait for the cache's writer
 * to free one. Writers of keys in the same stripe (1 in {@link HotRapOptions#lockStripes()}) wait
 * that long; writers of other keys do not.
 *
 * <p><b>Failures.</b> A lookup or insert that fails (an I/O error of the cache's file is a miss
 * inside {@link FlashCache}) is logged and treated as a miss or skipped: the cache never fails a
 * get. Invalidation cannot fail while the store is open.
 *
 * <p>Thread-safe.
 */
final class SlowTierCache implements CommitGate.PromotionInvalidator, AutoCloseable {
  private static final Logger LOG = Logger.getLogger(SlowTierCache.class.getName());
  /**
   * Records above this share of a region are not cached: one would take a region's worth of
   * room and would fail the cache's item limit near the top.
   */
  static final int MAX_ITEM_SHARE_OF_REGION = 4;

  /** Written by a clean close: the store and sequence number the saved items belong to. */
  static final String STATE_FILE = "STORE_STATE";

  private final FlashCache cache;
  private final Path directory;
  private final StripedWriteCounters stripes;
  private final StoreCounters counters;
  private final int maxRecordBytes;
  /** Test seam: runs after a slow-tier read, before the insert's P2 check. */
  private volatile Consumer<byte[]> afterSlowRead = key -> { };

  private SlowTierCache(FlashCache cache, Path directory, StripedWriteCounters stripes,
      StoreCounters counters) {
    this.cache = cache;
    this.directory = directory;
    this.stripes = stripes;
    this.counters = counters;
    this.maxRecordBytes = cache.regionBytes() / MAX_ITEM_SHARE_OF_REGION;
  }

  /**
   * Opens the cache {@code options} describe for the store {@code storeId} whose newest sequence
   * number is {@code latestSequence}. The items a clean close saved are kept only if the
   * {@value #STATE_FILE} file that close wrote names this store and this sequence number: else the
   * store changed while the cache was closed (opened without it, or by a crash and recovery) and
   * the cache starts cold. The file is deleted here, so a crash from now on leaves none.
   *
   * @throws IllegalArgumentException if its directory cannot be created or written, or another
   *     open cache uses it; the message names the directory
   */
  static SlowTierCache open(HotRapOptions options, StripedWriteCounters stripes,
      StoreCounters counters, String storeId, long latestSequence) {
    FlashCacheOptions o = options.flashCache();
    Path dir = options.flashCacheDirectory();
    FlashCache cache;
    try {
      Path state = dir.resolve(STATE_FILE);
      String expected = stateLine(storeId, latestSequence);
      boolean current = Files.isRegularFile(state)
          && expected.equals(Files.readString(state, StandardCharsets.UTF_8));
      if (!current) {
        FlashCache.discardCheckpoint(dir);
      }
      Files.deleteIfExists(state);
      cache = FlashCache.builder()
          .directory(options.flashCacheDirectory())
          .flashBytes(o.flashBytes())
          .dramBytes(o.dramBytes())
          .bypassFilter(o.bypassFilter())
          .indexKind(o.offHeapIndex() ? FlashIndexKind.OFF_HEAP : FlashIndexKind.ON_HEAP)
          .build();
    } catch (IOException | UncheckedIOException | IllegalStateException e) {
      throw new IllegalArgumentException("cannot open the flash cache in " + dir + ": "
          + e.getMessage(), e);
    }
    return new SlowTierCache(cache, dir, stripes, counters);
  }

  private static String stateLine(String storeId, long sequence) {
    return "store=" + storeId + " sequence=" + sequence + "\n";
  }

  /** The cached value of {@code key}, or null; a hit counts as a get served by the flash cache. */
  byte[] lookup(byte[] key) {
    byte[] v;
    try {
      v = cache.get(key);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "flash cache lookup failed; read from the slow tier", e);
      return null;
    }
    if (v == null) {
      return null;
    }
    counters.getsServedFlash.increment();
    // The cache may hand out the array it holds; the caller owns what a get returns.
    return v.clone();
  }

  /**
   * Rule P2's second half: caches {@code value}, just read from the slow tier, if no write of
   * {@code key}'s stripe happened since {@code counterBeforeFast} was read (before the reader's
   * fast-tier lookup).
   */
  void offer(byte[] key, byte[] value, long counterBeforeFast) {
    afterSlowRead.accept(key);
    if (key.length + value.length > maxRecordBytes) {
      return;
    }
    int stripe = stripes.stripeOf(key);
    synchronized (stripes.lock(stripe)) {
      if (stripes.counter(stripe) != counterBeforeFast) {
        counters.flashInsertsAborted.increment();
        return;
      }
      try {
        cache.put(key.clone(), value.clone());
      } catch (RuntimeException e) {
        // The cache invalidates the key before it rejects an item, so nothing stale stays behind.
        LOG.log(Level.FINE, "flash cache insert skipped", e);
      }
    }
  }

  /** Called by writers under the key's stripe lock ({@link CommitGate#markWritten}). */
  @Override
  public void invalidate(byte[] key) {
    cache.invalidate(key);
  }

  /** What the cache holds for {@code key}, without counting a get of the store; for tests. */
  byte[] peek(byte[] key) {
    return cache.get(key);
  }

  /** The flash index in use: the one asked for, or the on-heap one if the JVM refused it. */
  FlashIndexKind indexKind() {
    return cache.indexKind();
  }

  FlashCacheStats stats() {
    return cache.stats();
  }

  /** The cache's {@code hotrap.flash.*} meters, tagged with {@code tags}. */
  MeterBinder metrics(Iterable<Tag> tags) {
    return new FlashCacheMetrics(cache, tags);
  }

  /** Waits for the cache's background work (region writes, evictions); for tests. */
  void awaitQuiescence() throws InterruptedException {
    cache.awaitQuiescence();
  }

  void setAfterSlowRead(Consumer<byte[]> hook) {
    this.afterSlowRead = hook;
  }

  /**
   * Closes the cache, which saves its index, and records that the saved items are current for the
   * store {@code storeId} at sequence number {@code latestSequence}; call after the last write of
   * the store. A failure to record it only costs the next open its warm start.
   */
  void close(String storeId, long latestSequence) {
    cache.close();
    try {
      Path tmp = directory.resolve(STATE_FILE + ".tmp");
      Files.writeString(tmp, stateLine(storeId, latestSequence), StandardCharsets.UTF_8);
      Files.move(tmp, directory.resolve(STATE_FILE), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot record the flash cache's state; it will start cold", e);
    }
  }

  /** Closes the cache without recording its state: the next open starts cold. */
  @Override
  public void close() {
    cache.close();
  }
}
