package io.hotrap.cache.flash;

import java.io.Closeable;
import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The regions of the flash tier and the file that holds them: hands out room for items in the
 * active region's buffer, writes full regions sequentially, reads items back, and gives regions to
 * evict to the one worker thread that reclaims them. It knows nothing of the index; what an item
 * means is {@link FlashTier}'s business. The file and item formats are documented at
 * {@link RegionBuffer}.
 *
 * <p><b>Buffers and clean regions.</b> A fixed pool of {@code buffers} region-sized buffers holds
 * the active region and the sealed ones waiting to be written. A region can be activated only when
 * a buffer is free and a region is clean; the worker keeps {@link #CLEAN_TARGET} regions clean by
 * evicting stored ones. An append that finds neither waits for the worker (back-pressure) if its
 * caller allows it, for at most {@link #APPEND_WAIT_NANOS}, else it fails and the item is dropped
 * (as Navy rejects inserts when it has no clean region).
 *
 * <h2>Concurrency</h2>
 * Appends, state changes and the queues are guarded by one lock; the worker writes and reads the
 * file outside it. Reads take no lock and are validated instead (a seqlock over the generation):
 * <ol>
 *   <li>a read checks that the region still holds the expected generation, copies the bytes from
 *       the region's buffer if the buffer still carries that generation as its stamp, else from
 *       the file, then checks both again after a load fence;
 *   <li>a region's generation changes (to {@link Region#NO_GENERATION} when it is freed, then to a
 *       new one when activated) and a buffer's stamp changes before a single byte of the new fill
 *       is written, each followed by a full fence; a region's {@code buffer} is cleared only after
 *       the file holds its bytes;
 * </ol>
 * so a read that returns bytes read them while they belonged to the fill it asked for. The race
 * this prevents: a reader that found an index entry, then lost the processor while the region was
 * evicted and refilled, would otherwise return a slice of the new fill.
 */
final class RegionStore implements Closeable {
  static final String FILE_NAME = "regions";
  /** Clean regions the worker keeps in reserve, so reinsertions and bursts find room. */
  static final int CLEAN_TARGET = 2;
  /** Longest an append waits for the worker before it drops its item. */
  static final long APPEND_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

  private static final System.Logger LOG = System.getLogger(RegionStore.class.getName());

  private final int regionBytes;
  private final Region[] regions;
  private final FileChannel channel;
  private final FlashCounters counters;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Region> clean = new ArrayDeque<>();
  private final ArrayDeque<RegionBuffer> freeBuffers = new ArrayDeque<>();
  private final ArrayDeque<Region> sealed = new ArrayDeque<>();
  private Region active;
  private int unwritten;
  private int reclaiming;
  private boolean stopping;
  private long nextGeneration;
  private volatile long epoch;
  private volatile boolean failed;

  /**
   * Opens (creating if needed) the region file in {@code dir}. Every region starts clean; a
   * checkpoint restores stored ones with {@link #restore}.
   */
  RegionStore(Path dir, int regionBytes, int regionCount, int buffers, long firstGeneration,
      FlashCounters counters) throws IOException {
    this.regionBytes = regionBytes;
    this.counters = counters;
    this.regions = new Region[regionCount];
    for (int i = 0; i < regionCount; i++) {
      regions[i] = new Region(i);
    }
    for (int i = 0; i < buffers; i++) {
      freeBuffers.add(new RegionBuffer(regionBytes));
    }
    this.nextGeneration = Math.max(1, firstGeneration);
    this.epoch = nextGeneration;
    this.channel = FileChannel.open(dir.resolve(FILE_NAME), StandardOpenOption.CREATE,
        StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  int regionBytes() {
    return regionBytes;
  }

  int regionCount() {
    return regions.length;
  }

  Region region(int id) {
    return regions[id];
  }

  /** The current access epoch: the generation of the newest fill. */
  long epoch() {
    return epoch;
  }

  boolean failed() {
    return failed;
  }

  /**
   * Marks region {@code id} stored with a fill restored from a checkpoint, whose items had the
   * hit counts {@code hits} (one per slot). Before any append.
   */
  void restore(int id, long generation, long lastAccess, int used, byte[] hits) {
    lock.lock();
    try {
      Region r = regions[id];
      r.generation = generation;
      r.lastAccess = lastAccess;
      r.used = used;
      r.restoreItems(hits);
      r.state = Region.State.STORED;
      nextGeneration = Math.max(nextGeneration, generation + 1);
      epoch = Math.max(epoch, lastAccess);
    } finally {
      lock.unlock();
    }
  }

  /** Queues every region not restored as clean; call once after the {@link #restore} calls. */
  void startServing() {
    lock.lock();
    try {
      for (Region r : regions) {
        if (r.state == Region.State.CLEAN) {
          clean.add(r);
        }
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Generation the next activated region will get (persisted by the checkpoint). */
  long nextGeneration() {
    lock.lock();
    try {
      return nextGeneration;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Appends one item to the active region.
   *
   * @param wait whether to wait for a free buffer and a clean region when there is none
   * @return where the item lies, or {@code null} if there was no room (the item is dropped)
   */
  Location append(ItemKey key, byte[] value, long group, boolean wait) {
    int length = RegionBuffer.itemLength(key.bytes.length, value.length);
    if (length > regionBytes) {
      return null;
    }
    long deadline = 0;
    lock.lock();
    try {
      while (true) {
        if (failed || stopping) {
          return null;
        }
        Region a = active;
        if (a != null && a.buffer.remaining() >= length) {
          RegionBuffer b = a.buffer;
          int offset = b.append(key.bytes, value, group, a.generation);
          a.used = b.position();
          a.keys.add(key);
          return new Location(a.id, a.generation, offset, length, group, a.nextSlot());
        }
        if (a != null) {
          sealActive();
        }
        if (!clean.isEmpty() && !freeBuffers.isEmpty()) {
          activate(clean.poll(), freeBuffers.poll());
          continue;
        }
        changed.signalAll(); // the worker: flush or reclaim
        if (!wait) {
          return null;
        }
        long now = System.nanoTime();
        if (deadline == 0) {
          deadline = now + APPEND_WAIT_NANOS;
        } else if (now - deadline >= 0) {
          return null;
        }
        changed.awaitNanos(deadline - now);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } finally {
      lock.unlock();
    }
  }

  /** Seals the active region, if any, so that the worker writes it. */
  void sealActive() {
    lock.lock();
    try {
      Region a = active;
      if (a != null) {
        active = null;
        a.state = Region.State.SEALED;
        sealed.add(a);
        unwritten++;
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private void activate(Region r, RegionBuffer b) {
    long g = nextGeneration++;
    // Stamp and generation change before the first byte of the fill (class javadoc, step 2).
    b.reset(g);
    r.generation = g;
    VarHandle.fullFence();
    r.buffer = b;
    r.used = 0;
    r.clearItems();
    r.lastAccess = g;
    r.state = Region.State.ACTIVE;
    active = r;
    epoch = g;
    if (clean.size() < CLEAN_TARGET) {
      changed.signalAll(); // the worker: refill the clean reserve
    }
  }

  /**
   * Blocks until there is a region to write or to reclaim.
   *
   * @return {@code false} once {@link #stop} was called
   */
  boolean awaitWork() throws InterruptedException {
    lock.lock();
    try {
      while (!stopping && sealed.isEmpty() && !needsReclaimLocked()) {
        changed.await();
      }
      return !stopping;
    } finally {
      lock.unlock();
    }
  }

  /** Stops handing out work: {@link #awaitWork} returns {@code false} and appends fail. */
  void stop() {
    lock.lock();
    try {
      stopping = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The oldest sealed region, removed from the queue, or {@code null}. */
  Region pollSealed() {
    lock.lock();
    try {
      return sealed.poll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Writes a sealed region's buffer to the file and frees the buffer. On an I/O error the flash
   * tier fails: every later append and read misses.
   */
  void write(Region r) {
    RegionBuffer b = r.buffer;
    int length = b.writeLength();
    try {
      ByteBuffer src = ByteBuffer.wrap(b.data, 0, length);
      long pos = (long) r.id * regionBytes;
      while (src.hasRemaining()) {
        pos += channel.write(src, pos);
      }
      counters.flashBytesWritten.add(length);
    } catch (IOException e) {
      fail("writing region " + r.id, e);
      return;
    }
    lock.lock();
    try {
      r.buffer = null; // only now: the file holds the bytes (class javadoc, step 2)
      r.state = Region.State.STORED;
      b.stamp = RegionBuffer.NO_STAMP;
      VarHandle.fullFence();
      freeBuffers.add(b);
      unwritten--;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Whether fewer than {@link #CLEAN_TARGET} regions are clean and a stored one can be evicted. */
  boolean needsReclaim() {
    lock.lock();
    try {
      return needsReclaimLocked();
    } finally {
      lock.unlock();
    }
  }

  private boolean needsReclaimLocked() {
    if (clean.size() >= CLEAN_TARGET) {
      return false;
    }
    for (Region r : regions) {
      if (r.state == Region.State.STORED) {
        return true;
      }
    }
    return false;
  }

  /** Takes the stored region {@code policy} ranks first and marks it reclaiming; or {@code null}. */
  Region takeVictim(RegionEvictionPolicy policy) {
    lock.lock();
    try {
      Region best = null;
      long bestRank = Long.MAX_VALUE;
      for (Region r : regions) {
        if (r.state != Region.State.STORED) {
          continue;
        }
        long rank = policy.rank(r.generation, r.lastAccess);
        if (best == null || rank < bestRank || rank == bestRank && r.generation < best.generation) {
          best = r;
          bestRank = rank;
        }
      }
      if (best != null) {
        best.state = Region.State.RECLAIMING;
        reclaiming++;
      }
      return best;
    } finally {
      lock.unlock();
    }
  }

  /** Returns a reclaimed region to the clean queue; its old fill can no longer be read. */
  void free(Region r) {
    lock.lock();
    try {
      r.generation = Region.NO_GENERATION;
      VarHandle.fullFence();
      r.clearItems();
      r.keys.trimToSize();
      r.used = 0;
      r.state = Region.State.CLEAN;
      reclaiming--;
      clean.add(r);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Waits until every sealed region is written (or the tier failed). */
  void awaitWritten() throws InterruptedException {
    lock.lock();
    try {
      while (unwritten > 0 && !failed) {
        changed.await();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Waits until the worker has nothing to write or reclaim (or the tier failed). */
  void awaitIdle() throws InterruptedException {
    lock.lock();
    try {
      while (!failed && (unwritten > 0 || reclaiming > 0 || needsReclaimLocked())) {
        changed.await();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Writes every sealed region on the calling thread; for close, after the worker stopped. */
  void writeAllSealed() {
    Region r;
    while ((r = pollSealed()) != null) {
      write(r);
    }
  }

  /**
   * The value of {@code key} at {@code loc}, or {@code null}: a stale location (the fill is gone)
   * or a damaged item, which is then counted in {@code corruptMisses}.
   */
  byte[] read(ItemKey key, Location loc) {
    if (failed) {
      return null;
    }
    Region r = regions[loc.region];
    long g = loc.generation;
    if (r.generation != g) {
      return null;
    }
    byte[] bytes = null;
    RegionBuffer b = r.buffer;
    if (b != null && b.stamp == g) {
      bytes = new byte[loc.length];
      System.arraycopy(b.data, loc.offset, bytes, 0, loc.length);
      VarHandle.acquireFence();
      if (b.stamp != g) {
        bytes = null; // written and recycled meanwhile: the file has the bytes now
      }
    }
    if (bytes == null) {
      bytes = readFile(r, loc.offset, loc.length);
      if (bytes == null) {
        return null;
      }
      VarHandle.acquireFence();
    }
    if (r.generation != g) {
      return null;
    }
    byte[] value = RegionBuffer.decode(bytes, 0, bytes.length, key.bytes, g);
    if (value == null) {
      counters.corruptMisses.increment();
    }
    return value;
  }

  /** Reads a stored region's bytes (its used prefix) for reinsertion; {@code null} on error. */
  byte[] readRegion(Region r) {
    return readFile(r, 0, r.used);
  }

  private byte[] readFile(Region r, int offset, int length) {
    byte[] bytes = new byte[length];
    ByteBuffer dst = ByteBuffer.wrap(bytes);
    long pos = (long) r.id * regionBytes + offset;
    try {
      while (dst.hasRemaining()) {
        int n = channel.read(dst, pos + dst.position());
        if (n < 0) {
          return bytes; // past the end: a region never written whole; decode rejects it
        }
      }
      return bytes;
    } catch (IOException e) {
      if (!channel.isOpen()) {
        return null; // closed under a late reader
      }
      counters.ioErrors.increment();
      LOG.log(System.Logger.Level.WARNING, "reading region " + r.id + " failed", e);
      return null;
    }
  }

  private void fail(String what, IOException e) {
    counters.ioErrors.increment();
    LOG.log(System.Logger.Level.ERROR, what + " failed; the flash tier stops caching", e);
    lock.lock();
    try {
      failed = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Forces the file's content to the device. */
  void sync() throws IOException {
    channel.force(false);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
