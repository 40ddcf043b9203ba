package io.hotrap.cache.flash;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The flash tier, after CacheLib's Navy block cache: items packed into large regions
 * ({@link RegionStore}), an index from key to location ({@link FlashIndex}, on the heap or off
 * it, see {@link FlashIndexKind}) with the bypass filter kept in step, and one worker thread that
 * writes full regions and evicts whole regions to keep a few clean. On eviction, items read since
 * they were written are written again as the {@link ReinsertionPolicy} allows (Navy's hits-based
 * reinsertion, within a write budget), unless they sit in DRAM, from where they come back to flash
 * when DRAM evicts them; everything else in the region is dropped. Items are written once per stay on flash plus the budgeted
 * reinsertions, so flash bytes written stay close to the bytes admitted (see
 * {@link FlashCacheStats#writeAmplification()}).
 *
 * <p><b>The index invariant.</b> The index maps a key only to a location holding the key's newest
 * value, or not at all. Every writer keeps it: {@link #admit} indexes the value DRAM just evicted,
 * which is the newest (DRAM's eviction is atomic with it, see {@link FlashCache}); reinsertion and
 * purges change an entry only if it still holds the location they read; a put or invalidation in
 * DRAM removes the key from the index. A read therefore returns either a value that was current
 * when it read the index, or a miss.
 *
 * <h2>Concurrency</h2>
 * {@link #lookup}, {@link #admit}, {@link #remove} and {@link #purgeGroup} are thread-safe and may
 * run concurrently with the worker. The worker is the only thread that writes regions to the file
 * and reclaims them; it takes no lock of the DRAM tier and never waits for a caller, which is why
 * {@link #admit} may wait for it (for a free buffer or a clean region) while DRAM holds its locks.
 * {@link #close} must not run concurrently with anything else.
 */
final class FlashTier implements Closeable {
  private static final System.Logger LOG = System.getLogger(FlashTier.class.getName());

  private final Path dir;
  private final RegionStore store;
  private final FlashIndex index;
  private final FlashIndexKind indexKind;
  private final InvalidGroups groups;
  private final FlashCounters counters;
  private final RegionEvictionPolicy policy;
  private final ReinsertionPolicy reinsertion;
  private final Predicate<ItemKey> inDram;
  private final Thread worker;
  private boolean closed;

  /**
   * Opens the tier in {@code dir}, restoring the index a clean close saved if {@code warmRestart}
   * ({@link IndexLoader}), and starts the worker.
   *
   * @param filterCapacity keys the bypass filter is sized for, or 0 for no filter
   * @param expectedItems items an off-heap index is sized for
   * @param inDram whether a key is in the DRAM tier; called by the worker, must not block
   */
  FlashTier(Path dir, int regionBytes, int regionCount, int buffers, RegionEvictionPolicy policy,
      ReinsertionPolicy reinsertion, long filterCapacity, long expectedItems, boolean warmRestart,
      FlashIndexKind indexKind, InvalidGroups groups, FlashCounters counters,
      Predicate<ItemKey> inDram) throws IOException {
    this.dir = dir;
    this.groups = groups;
    this.counters = counters;
    this.policy = policy;
    this.reinsertion = reinsertion;
    this.inDram = inDram;
    IndexLoader.Loaded loaded = new IndexLoader(dir, regionCount, expectedItems, filterCapacity)
        .load(regionBytes, warmRestart, indexKind);
    this.index = loaded.index();
    this.indexKind = loaded.kind();
    Checkpoint.Contents saved = loaded.saved();
    RegionStore s = null;
    try {
      s = new RegionStore(dir, regionBytes, regionCount, buffers,
          saved == null ? 1 : saved.nextGeneration(), counters);
    } finally {
      if (s == null) {
        index.close();
      }
    }
    this.store = s;
    if (saved != null) {
      for (Checkpoint.StoredRegion r : saved.regions()) {
        store.restore(r.id(), r.generation(), r.lastAccess(), r.used(), r.hits());
        store.region(r.id()).keys.addAll(loaded.keysByRegion().get(r.id()));
      }
      groups.restore(saved.invalidGroups());
    }
    counters.restoredItems = loaded.restored();
    counters.rejectedCheckpoints = loaded.rejected() ? 1 : 0;
    store.startServing();
    this.worker = new Thread(this::work, "hotrap-flash-" + dir.getFileName());
    worker.setDaemon(true);
    worker.start();
  }

  /** The kind of index in use: the one asked for, or the on-heap one it fell back to. */
  FlashIndexKind indexKind() {
    return indexKind;
  }

  /** Whether the bypass filter lets a lookup of {@code key} through. */
  boolean mightContain(ItemKey key) {
    return index.mightContain(key);
  }

  /** The key's current location, or {@code null}. */
  Location locate(ItemKey key) {
    return index.get(key);
  }

  /** Whether the index holds the key. */
  boolean contains(ItemKey key) {
    return index.containsKey(key);
  }

  /**
   * Reads the value at {@code loc}, which the caller got from {@link #locate}; counts the hit for
   * reinsertion and LRU. A damaged item is removed from the index.
   *
   * @return the value, or {@code null} if the location is stale or the item damaged
   */
  byte[] lookup(ItemKey key, Location loc) {
    byte[] value = store.read(key, loc);
    if (value == null) {
      Region r = store.region(loc.region);
      if (r.generation == loc.generation) {
        index.remove(key, loc); // damaged: do not read it again
      }
      return null;
    }
    Region r = store.region(loc.region);
    r.countHit(loc);
    r.touch(store.epoch());
    return value;
  }

  /**
   * Writes an item DRAM evicted and indexes it. Called inside DRAM's atomic eviction of the key.
   *
   * @param flashClean whether the value was read from flash and not changed since (then it is
   *     written only if the index lost the key meanwhile)
   */
  void admit(ItemKey key, byte[] value, long group, boolean flashClean) {
    int ticket = groups.beginInsert();
    try {
      if (groups.contains(group)) {
        counters.droppedInserts.increment();
        return;
      }
      if (flashClean && index.containsKey(key)) {
        return;
      }
      Location loc = store.append(key, value, group, true);
      if (loc == null) {
        counters.droppedInserts.increment();
        return;
      }
      counters.flashItemsAdmitted.increment();
      counters.flashBytesAdmitted.add(loc.length);
      if (!index.put(key, loc)) {
        counters.droppedInserts.increment();
      }
    } finally {
      groups.endInsert(ticket);
    }
  }

  /** Drops the key from the index; its bytes stay until their region is evicted. */
  void remove(ItemKey key) {
    index.remove(key);
  }

  /** Drops every indexed item of {@code group}; returns how many. Weakly consistent walk. */
  long purgeGroup(long group) {
    return index.removeGroup(group);
  }

  long size() {
    return index.size();
  }

  long regionBytes() {
    return store.regionBytes();
  }

  /** Waits until the worker has written every sealed region and refilled the clean reserve. */
  void awaitQuiescence() throws InterruptedException {
    store.awaitIdle();
  }

  private void work() {
    try {
      while (store.awaitWork()) {
        writeSealed();
        while (store.needsReclaim()) {
          Region victim = store.takeVictim(policy);
          if (victim == null) {
            break;
          }
          evict(victim);
          store.free(victim);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      LOG.log(System.Logger.Level.ERROR, "flash cache worker failed", e);
      throw e;
    }
  }

  /**
   * Drops or reinserts every live item of a region being reclaimed (worker only): the items the
   * reinsertion policy picks, most-read first within its allowance, are written again; the rest
   * leave the index.
   */
  private void evict(Region victim) {
    long generation = victim.generation;
    List<ItemKey> keys = new ArrayList<>();
    List<Location> candidates = new ArrayList<>();
    for (ItemKey key : victim.keys) {
      Location loc = index.get(key);
      if (loc == null || loc.region != victim.id || loc.generation != generation) {
        continue; // removed, or moved by a later put or reinsertion
      }
      if (reinsertion.qualifies(victim.hits(loc.slot)) && !groups.contains(loc.group)
          && !inDram.test(key)) {
        keys.add(key);
        candidates.add(loc);
      } else if (index.remove(key, loc)) {
        counters.evictions.increment();
      }
    }
    if (!candidates.isEmpty()) {
      reinsertSome(victim, keys, candidates);
    }
    counters.regionEvictions.increment();
  }

  private void reinsertSome(Region victim, List<ItemKey> keys, List<Location> candidates) {
    Integer[] order = new Integer[candidates.size()];
    // Readers count hits in the region while this sorts: sorting by the live counts broke the
    // comparator's contract now and then (TimSort threw, and the worker died). Sort by a copy.
    int[] hits = new int[order.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      hits[i] = victim.hits(candidates.get(i).slot);
    }
    Arrays.sort(order, (a, b) -> Integer.compare(hits[b], hits[a]));
    long allowance = reinsertion.allowance(counters.flashBytesAdmitted.sum());
    byte[] image = allowance > 0 ? store.readRegion(victim) : null;
    for (int i : order) {
      ItemKey key = keys.get(i);
      Location loc = candidates.get(i);
      if (image != null && loc.length <= allowance && reinsert(key, loc, image)) {
        allowance -= loc.length;
        continue;
      }
      if (index.remove(key, loc)) {
        counters.evictions.increment();
      }
    }
  }

  /**
   * Writes every sealed region (worker only); returns whether there was one. Reinsertion calls it
   * when an append finds no room: the appends of a reinsertion must not wait, since the worker
   * that would make room is the thread appending, but a buffer held by a sealed region is room
   * only the worker can free, and a victim's items fit in the active region's rest and one fresh
   * region. Otherwise two evictions in a row whose items were read would drop items: the first's
   * reinsertions seal the active region, and the second finds both buffers taken, one by a region
   * waiting for the very thread that needs the buffer.
   */
  private boolean writeSealed() {
    boolean wrote = false;
    Region r;
    while ((r = store.pollSealed()) != null) {
      store.write(r);
      wrote = true;
    }
    return wrote;
  }

  /**
   * Writes the item at {@code loc} again and moves its index entry there if it is still
   * {@code loc}. The append does not wait for room (see {@link #writeSealed}): with no clean
   * region left, because puts took the reserve while the worker was evicting, the item is dropped
   * and a later get misses.
   *
   * @return whether the item was written again; {@code false} if it was damaged, its group is
   *     invalid or there was no room, and the caller drops it
   */
  private boolean reinsert(ItemKey key, Location loc, byte[] image) {
    byte[] value = RegionBuffer.decode(image, loc.offset, loc.length, key.bytes, loc.generation);
    if (value == null) {
      counters.corruptMisses.increment();
      return false;
    }
    int ticket = groups.beginInsert();
    try {
      if (groups.contains(loc.group)) {
        return false;
      }
      Location moved = store.append(key, value, loc.group, false);
      if (moved == null && writeSealed()) {
        moved = store.append(key, value, loc.group, false);
      }
      if (moved == null) {
        return false;
      }
      if (index.replace(key, loc, moved)) {
        counters.reinsertions.increment();
        counters.reinsertedBytes.add(moved.length);
        reinsertion.reinserted(moved.length);
      }
      return true; // if the entry changed meanwhile, the newer one stays; the copy is dead bytes
    } finally {
      groups.endInsert(ticket);
    }
  }

  /**
   * Stops the worker, writes the partly filled region and every sealed one, and, if
   * {@code checkpoint}, forces the file and saves the index for a warm restart.
   */
  @Override
  public void close() throws IOException {
    close(true);
  }

  void close(boolean checkpoint) throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      store.stop();
      worker.join();
      store.sealActive();
      store.writeAllSealed();
      if (checkpoint && !store.failed()) {
        store.sync();
        writeCheckpoint();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while closing the flash tier", e);
    } finally {
      try {
        index.close();
      } finally {
        store.close();
      }
    }
  }

  /**
   * Saves the index (see {@link Checkpoint} for the order of the writes): the on-heap index item by
   * item into the checkpoint; the off-heap index is unmapped and forced, and the checkpoint
   * records its file's length and CRC32C.
   */
  private void writeCheckpoint() throws IOException {
    List<Checkpoint.StoredRegion> stored = new ArrayList<>();
    for (int i = 0; i < store.regionCount(); i++) {
      Region r = store.region(i);
      if (r.state == Region.State.STORED) {
        stored.add(new Checkpoint.StoredRegion(r.id, r.generation, r.lastAccess, r.used,
            r.hitCounts()));
      }
    }
    Checkpoint.MapFile map = null;
    if (indexKind == FlashIndexKind.OFF_HEAP) {
      ChronicleIndex offHeap = (ChronicleIndex) index;
      long entries = offHeap.size();
      offHeap.close();
      map = Checkpoint.digest(offHeap.file(), entries);
    }
    try (Checkpoint.Writer w = Checkpoint.writer(dir, store.regionBytes(), store.regionCount(),
        store.nextGeneration(), groups.recent(), stored, map)) {
      if (indexKind == FlashIndexKind.ON_HEAP) {
        writeItems((HeapIndex) index, w);
      }
      w.commit();
    }
  }

  private void writeItems(HeapIndex onHeap, Checkpoint.Writer w) throws IOException {
    IOException[] failure = {null};
    onHeap.forEach((key, loc) -> {
      Region r = store.region(loc.region);
      if (failure[0] != null || r.state != Region.State.STORED
          || r.generation != loc.generation) {
        return;
      }
      try {
        w.item(key, loc);
      } catch (IOException e) {
        failure[0] = e;
      }
    });
    if (failure[0] != null) {
      throw failure[0];
    }
  }
}
