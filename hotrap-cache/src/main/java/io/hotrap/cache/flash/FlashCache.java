package io.hotrap.cache.flash;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * A hybrid DRAM + flash cache of byte-array keys and values, after CacheLib's hybrid cache, with
 * SAS-Cache's three optimizations as general features (DESIGN.md §14).
 *
 * <ul>
 *   <li><b>DRAM tier:</b> a Caffeine cache (W-TinyLFU) bounded by {@code dramBytes}. Items it evicts
 *       for size are offered to flash; a flash hit is copied back into DRAM.
 *   <li><b>Flash tier:</b> a log of large regions in one file, filled in memory and written
 *       sequentially, with an index from key to location and whole-region eviction that reinserts
 *       items that were read ({@link FlashTier}, format at {@link RegionBuffer}). The index lives
 *       on the heap or, with Chronicle Map, off it ({@link FlashIndexKind}). Every item is
 *       checksummed: a damaged item is a miss, never a wrong value.
 *   <li><b>Bypass filter:</b> a cuckoo filter over the keys on flash; a lookup it rejects skips the
 *       flash tier and counts in {@link FlashCacheStats#bypassedLookups()} (SAS-Cache §IV-C).
 *   <li><b>Groups:</b> every item may belong to a group (for a block cache under an LSM-tree, the
 *       SST file of the block). {@link #invalidateGroup} drops the group's items from both tiers
 *       in the background and rejects puts into it while it is among the last
 *       {@code invalidGroupsRemembered} groups invalidated (insertion control, §IV-D);
 *       {@link #groupCreated} hands a new group to the prefetch hook (compaction-aware
 *       replacement, §IV-E).
 *   <li><b>Warm restart:</b> a clean {@link #close()} writes what DRAM holds to flash and saves the
 *       index (the on-heap one into the checkpoint file, the off-heap one stays in its map file,
 *       which the checkpoint vouches for); the next open restores it. After a crash the cache
 *       starts cold, and a saved index that is damaged or does not match the regions is refused
 *       ({@link FlashCacheStats#rejectedCheckpoints()}): misses, never wrong values
 *       ({@link Checkpoint}).
 * </ul>
 *
 * <p><b>Arrays.</b> The cache keeps the key and value arrays it is given and may return the same
 * value array from {@link #get}: neither side may modify them afterwards.
 *
 * <p><b>Limits.</b> A key may have up to {@value RegionBuffer#MAX_KEY_BYTES} bytes, and an item
 * (key, value and a {@value RegionBuffer#HEADER_BYTES}-byte header) must fit in one region. Null
 * arguments throw {@link NullPointerException} naming the argument; every method but
 * {@link #close()} and {@link #stats()} throws {@link IllegalStateException} after close.
 *
 * <h2>Concurrency</h2>
 * All methods are thread-safe. What keeps a get from returning a value that was overwritten or
 * invalidated before it began, with DRAM evictions, flash region evictions and purges running:
 * <ol>
 *   <li><b>One atomic step per key for DRAM-side changes.</b> {@link #put} and {@link #invalidate}
 *       remove the key from the flash index <em>inside</em> Caffeine's atomic compute of the key,
 *       and Caffeine calls the eviction listener, which writes the evicted value to flash and
 *       indexes it, inside its atomic removal of the key. So an eviction of the old value either
 *       completes before the put or invalidation (which then removes what it indexed) or cannot
 *       happen any more. Without this, an old value evicted concurrently could be indexed after
 *       the put removed the key and be served once DRAM drops the new one.
 *   <li><b>Promotion checks the location.</b> A flash hit is copied into DRAM by a compute that
 *       stores it only if DRAM has no entry for the key and the flash index still holds the
 *       location just read. A put or invalidation that ran since removed that location, inside
 *       the same per-key step, so a value read before a put cannot overwrite it in DRAM.
 *   <li><b>Conditional background changes.</b> Region eviction, reinsertion and purges change an
 *       index entry only if it still holds the location they read (the same append, see
 *       {@link Location}), and DRAM purges remove only the entry they saw.
 *   <li><b>Validated reads.</b> A flash read checks the region's generation before and after it
 *       copies, then the item's checksum, generation, lengths and key ({@link RegionStore}), so a
 *       read racing with the eviction and refill of its region misses.
 *   <li><b>Groups re-checked after insert.</b> A put, an admission to flash and a promotion check
 *       the item's group after they inserted and remove their own entry if it became invalid;
 *       a purge walks the tiers after the group was marked, so every item of the group is either
 *       seen by the walk or removed by its writer ({@link InvalidGroups}). Until the purge ends,
 *       gets treat items of the group as misses.
 * </ol>
 * A get that overlaps a put or invalidation of its key may return the old or the new state.
 * {@link #close()} waits for calls in progress, then finishes; it is idempotent.
 */
public final class FlashCache implements AutoCloseable {
  /** The group of items put without one; it cannot be invalidated as a group. */
  public static final long NO_GROUP = Long.MIN_VALUE;
  /** File that marks the directory as used by an open cache. */
  static final String LOCK_FILE = "LOCK";

  private static final System.Logger LOG = System.getLogger(FlashCache.class.getName());

  private final Path directory;
  private final int regionBytes;
  private final boolean warmRestart;
  private final FlashCounters counters = new FlashCounters();
  private final InvalidGroups groups;
  private final LongConsumer prefetcher;
  private final LongConsumer admissionObserver;
  private final FlashTier flash;
  private final Cache<ItemKey, DramEntry> dram;
  private final ConcurrentMap<ItemKey, DramEntry> dramMap;
  private final ExecutorService background;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final LongAdder inFlight = new LongAdder();
  private final Object closeLock = new Object();
  private volatile boolean closed;

  /** A builder; {@code directory}, {@code flashBytes} and {@code dramBytes} are required. */
  public static FlashCacheBuilder builder() {
    return new FlashCacheBuilder();
  }

  FlashCache(FlashCacheBuilder b, int regionBytes, int regionCount, int buffers)
      throws IOException {
    this.directory = b.directory();
    this.regionBytes = regionBytes;
    this.warmRestart = b.warmRestart();
    this.prefetcher = b.prefetcher();
    this.admissionObserver = b.admissionObserver();
    this.groups = new InvalidGroups(b.invalidGroupsRemembered());
    Files.createDirectories(directory);
    this.lockChannel = FileChannel.open(directory.resolve(LOCK_FILE), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    FileLock l;
    try {
      l = lockChannel.tryLock();
    } catch (OverlappingFileLockException e) {
      l = null;
    }
    if (l == null) {
      lockChannel.close();
      throw new IllegalStateException("directory " + directory + " is used by another open cache");
    }
    this.lock = l;
    FlashTier tier = null;
    try {
      long expectedItems = Math.max(1, (long) regionBytes * regionCount / b.averageItemBytes());
      tier = new FlashTier(directory, regionBytes, regionCount, buffers, b.evictionPolicy(),
          new ReinsertionPolicy(b.reinsertionHits(), b.reinsertionBudget()),
          b.bypassFilter() ? expectedItems : 0, expectedItems, warmRestart, b.indexKind(), groups,
          counters, this::inDram);
    } finally {
      if (tier == null) {
        lock.release();
        lockChannel.close();
      }
    }
    this.flash = tier;
    this.dram = Caffeine.newBuilder()
        .maximumWeight(b.dramBytes())
        .weigher(DramEntry::weigh)
        .executor(Runnable::run)
        .evictionListener(this::evicted)
        .build();
    this.dramMap = dram.asMap();
    // The factory must not capture this cache: on JDK 17 the executor is finalizable, and a
    // closed cache it reached would stay on the heap until the finalizer had run.
    String threadName = "hotrap-flash-groups-" + directory.getFileName();
    this.background = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * The value cached for {@code key}, or {@code null}. Tries DRAM, then (if the bypass filter
   * lets it) flash; a flash hit is copied into DRAM.
   */
  public byte[] get(byte[] key) {
    Objects.requireNonNull(key, "key");
    enter();
    try {
      ItemKey k = new ItemKey(key);
      long[] invalid = groups.snapshot(); // before reading the tiers: see the class javadoc
      DramEntry e = dram.getIfPresent(k);
      if (e != null) {
        if (InvalidGroups.contains(invalid, e.group)) {
          counters.misses.increment();
          return null;
        }
        counters.dramHits.increment();
        return e.value;
      }
      if (!flash.mightContain(k)) {
        counters.bypassedLookups.increment();
        counters.misses.increment();
        return null;
      }
      Location loc = flash.locate(k);
      byte[] value = loc == null || InvalidGroups.contains(invalid, loc.group)
          ? null : flash.lookup(k, loc);
      if (value == null) {
        counters.misses.increment();
        return null;
      }
      counters.flashHits.increment();
      promote(k, loc, value);
      return value;
    } finally {
      exit();
    }
  }

  /** Copies a flash hit into DRAM unless a put or invalidation of the key came in between. */
  private void promote(ItemKey k, Location loc, byte[] value) {
    DramEntry promoted = new DramEntry(value, loc.group, true);
    int ticket = groups.beginInsert();
    try {
      if (groups.contains(loc.group)) {
        return;
      }
      dramMap.compute(k, (key, old) ->
          old != null || !loc.equals(flash.locate(key)) ? old : promoted);
    } finally {
      groups.endInsert(ticket);
    }
  }

  /** Caches {@code value} for {@code key} without a group; see {@link #put(byte[], byte[], long)}. */
  public void put(byte[] key, byte[] value) {
    put(key, value, NO_GROUP);
  }

  /**
   * Caches {@code value} for {@code key} in {@code group}, replacing any cached value of the key
   * in both tiers. The item goes to DRAM; flash receives it when DRAM evicts it. A put into a
   * group invalidated recently ({@link #invalidateGroup}) is dropped and counted in
   * {@link FlashCacheStats#droppedInserts()}, and the key is invalidated.
   *
   * @throws IllegalArgumentException if the key is longer than {@value RegionBuffer#MAX_KEY_BYTES}
   *     bytes or the item does not fit in a region; the key is invalidated first, so the cache
   *     never keeps a value older than the one it was offered
   */
  public void put(byte[] key, byte[] value, long group) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    enter();
    try {
      ItemKey k = new ItemKey(key);
      if (key.length > RegionBuffer.MAX_KEY_BYTES
          || RegionBuffer.itemLength(key.length, value.length) > regionBytes) {
        invalidate(k);
        throw new IllegalArgumentException(String.format(
            "item of a %d-byte key and a %d-byte value exceeds the limits: keys up to %d bytes, "
                + "items up to the region size %d bytes including a %d-byte header",
            key.length, value.length, RegionBuffer.MAX_KEY_BYTES, regionBytes,
            RegionBuffer.HEADER_BYTES));
      }
      int ticket = groups.beginInsert();
      try {
        if (groups.contains(group)) {
          invalidate(k);
          counters.droppedInserts.increment();
          return;
        }
        DramEntry entry = new DramEntry(value, group, false);
        dramMap.compute(k, (kk, old) -> {
          flash.remove(kk);
          return entry;
        });
      } finally {
        groups.endInsert(ticket);
      }
    } finally {
      exit();
    }
  }

  /** Removes any value of {@code key} from both tiers. */
  public void invalidate(byte[] key) {
    Objects.requireNonNull(key, "key");
    enter();
    try {
      invalidate(new ItemKey(key));
    } finally {
      exit();
    }
  }

  private void invalidate(ItemKey k) {
    dramMap.compute(k, (kk, old) -> {
      flash.remove(kk);
      return null;
    });
  }

  /**
   * Invalidates every item of {@code group}: from now on gets miss them and puts into the group
   * are dropped; a background task removes them from both tiers. Puts stay dropped while the
   * group is among the last {@code invalidGroupsRemembered} groups invalidated, and at least
   * until the removal finished ({@link #awaitQuiescence()} waits for it).
   *
   * @throws IllegalArgumentException for {@link #NO_GROUP}
   */
  public void invalidateGroup(long group) {
    if (group == NO_GROUP) {
      throw new IllegalArgumentException("NO_GROUP cannot be invalidated; invalidate keys instead");
    }
    enter();
    try {
      groups.invalidate(group);
      counters.groupInvalidations.increment();
      background.execute(() -> purge(group));
    } finally {
      exit();
    }
  }

  private void purge(long group) {
    try {
      groups.awaitEarlierInserts(); // see InvalidGroups: no insert that saw the group valid is left
      long purged = 0;
      for (Map.Entry<ItemKey, DramEntry> e : dramMap.entrySet()) {
        if (e.getValue().group == group && dramMap.remove(e.getKey(), e.getValue())) {
          purged++;
        }
      }
      purged += flash.purgeGroup(group);
      counters.purgedItems.add(purged);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "purging group " + group + " failed", e);
    } finally {
      groups.purged(group);
    }
  }

  /**
   * Tells the cache that {@code group} was created (for a block cache, a new SST file): the
   * prefetch hook set with {@link FlashCacheBuilder#prefetcher}, if any, is called with it on the
   * cache's background thread, after every group invalidation requested before, and may put the
   * group's items. Nothing happens for a group that is invalid.
   */
  public void groupCreated(long group) {
    enter();
    try {
      if (prefetcher == null || group == NO_GROUP || groups.contains(group)) {
        return;
      }
      background.execute(() -> {
        try {
          prefetcher.accept(group);
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.WARNING, "prefetch of group " + group + " failed", e);
        }
      });
    } finally {
      exit();
    }
  }

  /**
   * Waits until background work requested so far is done: group purges and prefetches, region
   * writes, and the eviction that keeps clean regions in reserve. For tests and benchmarks.
   */
  public void awaitQuiescence() throws InterruptedException {
    enter();
    try {
      background.submit(() -> { }).get();
      flash.awaitQuiescence();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } finally {
      exit();
    }
  }

  /** The counters since open; works after close too. */
  public FlashCacheStats stats() {
    long flashItems = 0;
    long dramWeight = 0;
    // Counted in flight like a call, so that close cannot unmap an off-heap index while this
    // reads its size; after close the sizes are 0.
    inFlight.increment();
    try {
      if (!closed) {
        flashItems = flash.size();
        dramWeight = dram.policy().eviction().map(p -> p.weightedSize().orElse(0)).orElse(0L);
      }
    } finally {
      inFlight.decrement();
    }
    FlashCounters c = counters;
    return new FlashCacheStats(c.dramHits.sum(), c.flashHits.sum(), c.misses.sum(),
        c.bypassedLookups.sum(), c.corruptMisses.sum(), c.flashBytesWritten.sum(),
        c.flashItemsAdmitted.sum(), c.flashBytesAdmitted.sum(), c.reinsertions.sum(),
        c.reinsertedBytes.sum(), c.regionEvictions.sum(), c.evictions.sum(),
        c.droppedInserts.sum(), c.groupInvalidations.sum(), c.purgedItems.sum(),
        c.ioErrors.sum(), c.restoredItems, c.rejectedCheckpoints, flashItems, dramWeight);
  }

  /** Micrometer meters of this cache ({@code hotrap.flash.*}); see {@link FlashCacheMetrics}. */
  public MeterBinder metrics() {
    return new FlashCacheMetrics(this);
  }

  /**
   * Deletes the index a clean close saved in {@code directory}, if any, so that the next open
   * starts cold: for an owner that knows the cached items may be stale (its data changed while the
   * cache was closed). The cache in that directory must not be open. Does nothing when the
   * directory or the checkpoint does not exist.
   *
   * @throws UncheckedIOException if the checkpoint exists and cannot be deleted
   */
  public static void discardCheckpoint(Path directory) {
    Objects.requireNonNull(directory, "directory");
    if (!Files.isDirectory(directory)) {
      return;
    }
    try {
      Checkpoint.delete(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the checkpoint in " + directory, e);
    }
  }

  /**
   * The kind of flash index in use: the one {@link FlashCacheBuilder#indexKind} asked for, or
   * {@link FlashIndexKind#ON_HEAP} if the off-heap index could not run.
   */
  public FlashIndexKind indexKind() {
    return flash.indexKind();
  }

  /** Bytes of one region: the largest item, header included. */
  public int regionBytes() {
    return regionBytes;
  }

  /** The cache's directory. */
  public Path directory() {
    return directory;
  }

  private void evicted(ItemKey key, DramEntry entry, RemovalCause cause) {
    if (key != null && entry != null && cause == RemovalCause.SIZE) {
      if (admissionObserver != null) {
        try {
          admissionObserver.accept(entry.group);
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.WARNING, "admission observer failed", e);
        }
      }
      flash.admit(key, entry.value, entry.group, entry.flashClean);
    }
  }

  private boolean inDram(ItemKey key) {
    ConcurrentMap<ItemKey, DramEntry> m = dramMap;
    return m != null && m.containsKey(key);
  }

  private void enter() {
    inFlight.increment();
    if (closed) {
      inFlight.decrement();
      throw new IllegalStateException("flash cache in " + directory + " is closed");
    }
  }

  private void exit() {
    inFlight.decrement();
  }

  /**
   * Closes the cache: waits for calls in progress and background work, then, with warm restart
   * on, writes the DRAM tier's items to flash, writes every region and saves the index. Calling
   * it again does nothing.
   *
   * @throws UncheckedIOException if the files cannot be written (the cache is closed anyway)
   */
  @Override
  public void close() {
    close(warmRestart);
  }

  /**
   * Closes the cache the way a crash leaves it: DRAM's items are lost and no checkpoint is
   * written, so the next open starts cold. For tests.
   */
  void closeWithoutCheckpoint() {
    close(false);
  }

  private void close(boolean checkpoint) {
    synchronized (closeLock) {
      if (closed) {
        return;
      }
      closed = true;
      boolean interrupted = false;
      background.shutdown();
      try {
        while (!background.awaitTermination(1, TimeUnit.MINUTES)) {
          LOG.log(System.Logger.Level.WARNING, "waiting for the flash cache's background tasks");
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
      while (inFlight.sum() != 0) {
        LockSupport.parkNanos(100_000);
      }
      IOException failure = null;
      try {
        if (checkpoint) {
          for (Map.Entry<ItemKey, DramEntry> e : dramMap.entrySet()) {
            DramEntry v = e.getValue();
            if (!groups.contains(v.group)) {
              flash.admit(e.getKey(), v.value, v.group, v.flashClean);
            }
          }
        }
        dram.invalidateAll();
        flash.close(checkpoint);
      } catch (IOException e) {
        failure = e;
      } finally {
        try {
          lock.release();
          lockChannel.close();
        } catch (IOException e) {
          if (failure == null) {
            failure = e;
          }
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      if (failure != null) {
        throw new UncheckedIOException("closing flash cache in " + directory, failure);
      }
    }
  }
}
