package io.hotrap.ralt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * RALT, the Recent Access Lookup Table of HotRAP (§3.2, §3.7): an on-disk tracker of record accesses
 * that tells which keys are hot while holding only a few bytes of memory per hot key.
 *
 * <p>Each access is logged as (key, value length) into an unsorted in-memory buffer. A full buffer is
 * aggregated, sorted and written as a run of level 0; runs merge level by level, and records of the
 * same key merge their scores (exponential smoothing by default: {@code α^(Δtick)·old + new}). The
 * <em>hot set</em> is the highest-ranked records whose hot sizes (key + value length) fit the hot-set
 * limit; stable records (accessed repeatedly, Algorithm 1) rank above all others, and until the first
 * eviction only stable records are hot. When the hot set or the files outgrow their limits — and once
 * every decay period R — an eviction samples ranks, keeps the best {@code 1 − β} of the physical
 * limit and keeps {@code 1 − hotSetBeta} of the hot-set limit hot, merges everything into one run
 * and, with auto-tuning on, sets both limits from the stable records' size.
 *
 * <p>Hotness is decided when a record is written and stored with it: each file keeps a Bloom filter of
 * its hot keys and prefix sums of hot bytes per block, in memory. So {@link #isHot} and
 * {@link #hotSizeInRange} never read the disk, and a key's hotness changes when its records merge or an
 * eviction moves the threshold. A record already hot in an older run is not marked hot again in a newer
 * one until they merge, so hot bytes are not counted twice; such a record is marked shadowed, and
 * shadowed bytes do not count against the physical limit (they are copies of keys already tracked,
 * at most a few buffers' worth, folded in by the next eviction) — otherwise every buffer of a skewed
 * workload would trigger a full eviction.
 *
 * <h2>Auto-tuning (Algorithm 1)</h2>
 * A key becomes stable when it is seen twice while tracked; each access adds Δc decay periods (R
 * bytes accessed each) to its counter, up to c_max, and it stays stable while the counter lasts.
 * After every eviction the hot-set limit becomes the stable records' hot bytes plus room for
 * unstable records (a share of the stable bytes, at most D_hs, or twice their growth per decay
 * period while they grow), within [L_hs, R_hs], and the physical limit twice the physical
 * bytes of a hot set that size: the records beyond the stable ones are the window in which a new
 * key must be seen twice, and a window much larger than the hot set makes chance repeats of
 * uniform access look stable. Besides the limit
 * triggers, an eviction runs once every R bytes accessed so that the limits follow the workload.
 *
 * <h2>Threads</h2>
 * All methods are thread-safe. {@link #record} appends under a short lock and returns; when the buffer
 * is full it is handed to the background thread, and the caller waits only if a full buffer is
 * already queued (back-pressure instead of unbounded memory), or while the files are at the physical limit and an eviction is making room. One background thread per tracker writes
 * level-0 runs, merges and evicts; during a long merge it keeps writing newly queued buffers, so
 * callers never wait for a merge. Readers use an immutable {@link Version}: lookups read the current
 * one without locking, iterators pin theirs so that its files outlive later merges.
 *
 * <h2>Files</h2>
 * {@code MANIFEST} ({@link Manifest}) lists the runs and keeps the clock; {@code seg-*.ralt}
 * ({@link Segment}) hold records. Merges publish progress after every output file and delete input
 * files as soon as the merge has passed them, so temporary disk space stays within a few files.
 * On open, damaged or missing files are logged and skipped, and the tracker continues from what is
 * intact — or empty; open never fails because of the files' content.
 */
public final class Ralt implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(Ralt.class.getName());
  /** Full buffers that may wait for the background thread before {@link #record} blocks. */
  private static final int QUEUED_BUFFERS = 1;

  private final RaltOptions options;
  private final Path dir;
  private final Clock clock;
  private final IoStats io;
  private final Random random = new Random(0x5EED);

  // Buffer state, guarded by bufferLock.
  private final Object bufferLock = new Object();
  private AccessBuffer active;
  private long accessClock;
  private long accesses;
  /** Access clock at the last hand-off of the active buffer. */
  private long handedOffAt;
  /** Access bytes and missed bytes since R was last paced (see {@link #record(byte[], int, boolean)}). */
  private long pacingAccessBytes;
  private long pacingMissedBytes;
  private final BlockingQueue<AccessBuffer> spareBuffers = new ArrayBlockingQueue<>(QUEUED_BUFFERS + 1);
  private final BlockingQueue<Object> tasks = new LinkedBlockingQueue<>();
  /** Counts queued buffers; bounds the queue without bounding barrier and stop tasks. */
  private final java.util.concurrent.Semaphore bufferSlots =
      new java.util.concurrent.Semaphore(QUEUED_BUFFERS);

  // Published state.
  private final Object versionLock = new Object();
  private volatile Version current;
  private volatile long publishedClock;
  private volatile long hotSetLimit;
  private volatile long physicalLimit;
  private volatile long stableHotBytes;
  private volatile long evictions;
  private volatile boolean closed;

  // Background-thread state.
  private HotThreshold threshold;
  private long nextFileId;
  private long flushedClock;
  private long lastEvictionClock;
  private long flushesSinceEviction;
  /**
   * Growth of the stable bytes over the last full decay period (R bytes accessed), and where the
   * current period started: the room for unstable records follows it, or the current period's
   * pace once half of it has passed (HotSetTuner#growthPerPeriod).
   */
  private long stableGrowth;
  private long growthPeriodStartClock;
  private long growthPeriodStartStable;
  private final Thread worker;
  /** The merge engine; used on the background thread only. */
  private final RunMerger merger;
  private volatile boolean stopping;
  /**
   * The error that stopped the background thread's work, or null. Once set, every call but
   * {@link #close()} throws {@link IllegalStateException}, and the thread only drains its queue
   * (releasing buffer slots, failing waiters) so that no caller blocks on a hand-off that would
   * never be served.
   */
  private volatile Throwable fatal;
  /** Runs before each background task; a seam for tests that inject failures. */
  volatile java.util.function.Consumer<Object> beforeTask = t -> { };

  private static final Object STOP = new Object();
  /** The longest key RALT records, bytes (its record format stores the length in two bytes). */
  public static final int MAX_KEY_BYTES = AccessRecord.MAX_KEY_LENGTH;

  private Ralt(RaltOptions options) {
    this.options = options;
    this.dir = options.directory();
    this.clock = new Clock(options);
    this.io = new IoStats(() -> physicalLimit);
    this.active = new AccessBuffer((int) options.bufferBytes());
    this.merger = new RunMerger(clock, dir, options, io, new RunMerger.Host() {
      @Override
      public long nextFileId() {
        return nextFileId++;
      }

      @Override
      public void replaceRuns(List<Run> removed, List<Run> added) throws IOException {
        Ralt.this.replaceRuns(removed, added, true);
      }

      @Override
      public void betweenFiles() throws IOException {
        flushQueuedBuffers(true);
      }

      @Override
      public boolean stopping() {
        return stopping;
      }
    });
    this.worker = new Thread(this::backgroundLoop, "ralt-" + dir.getFileName());
    this.worker.setDaemon(true);
  }

  /**
   * Opens the tracker in {@code options.directory()}, creating it if needed. Missing, truncated or
   * corrupt files are logged and skipped; the tracker then holds what was intact, or nothing.
   *
   * @throws UncheckedIOException only if the directory cannot be created or listed
   */
  public static Ralt open(RaltOptions options) {
    Objects.requireNonNull(options, "options");
    Ralt ralt = new Ralt(options);
    ralt.load();
    ralt.worker.start();
    return ralt;
  }

  /** Takes over what {@link RaltRecovery} found on disk, or starts empty. */
  private void load() {
    RaltRecovery.Recovered r = RaltRecovery.recover(dir, options, io);
    Manifest m = r.manifest();
    if (m != null) {
      accessClock = m.clock();
      handedOffAt = accessClock;
      flushedClock = m.clock();
      clock.reset(m.clock(), m.decayClock());
      evictions = m.evictions();
      lastEvictionClock = m.lastEvictionClock();
      threshold = m.threshold();
      hotSetLimit = m.hotSetLimit();
      physicalLimit = m.physicalLimit();
      stableHotBytes = m.stableHotBytes();
    } else {
      threshold = HotThreshold.STABLE_ONLY;
      hotSetLimit = options.initialHotSetLimit();
      physicalLimit = options.initialPhysicalLimit();
    }
    nextFileId = r.nextFileId();
    publishedClock = accessClock;
    Version v = new Version(r.runs());
    for (Run run : r.runs()) {
      for (Segment s : run.segments) {
        s.release(); // the version holds them now
      }
    }
    current = v;
  }

  // ---------------------------------------------------------------------------------------------
  // Public API

  /**
   * Logs one access of {@code key} whose value is {@code valueLength} bytes long, as one the fast
   * tier missed: {@code record(key, valueLength, true)}.
   *
   * @throws NullPointerException if {@code key} is null
   * @throws IllegalArgumentException if {@code valueLength} is negative or the key is longer than
   *     65535 bytes
   * @throws IllegalStateException if the tracker is closed
   */
  public void record(byte[] key, int valueLength) {
    record(key, valueLength, true);
  }

  /**
   * Logs one access of {@code key} whose value is {@code valueLength} bytes long; {@code missed}
   * says whether the fast tier could not serve it. Returns after an in-memory append; waits only
   * when a full buffer already waits for the background thread.
   *
   * <p><b>Pacing.</b> Algorithm 1 decrements every counter once per R bytes accessed. With R fixed
   * at R_hs (the paper's choice) a record stays stable only if it comes back within about
   * Δc·R_hs bytes of accesses. But the fast tier's content turns over only at the rate of its
   * misses: what it holds is replaced by R_hs bytes of misses, not of accesses. So after every
   * buffer's worth of accesses R is set to {@code counterDecayPeriodBytes} times the inverse of the
   * missed share of those accesses, capped at {@link RaltOptions#maxDecayStretch()}: under uniform
   * access nearly every access misses and R stays the paper's; under a skew served mostly from the
   * fast tier a record need only come back as often as an LRU cache of the hot set's size would
   * keep it. Measured on Zipf 0.99 at a 16 MiB budget (hotrap-bench ro-zipf): R fixed held a stable
   * set of 4.4 MiB against the 11.2 MiB the fast tier had room for, at a fast hit rate of 0.60
   * against an exact LRU's 0.69 on the same trace; R three times as long, 11 MiB and 0.69.
   *
   * @throws NullPointerException if {@code key} is null
   * @throws IllegalArgumentException if {@code valueLength} is negative or the key is longer than
   *     65535 bytes
   * @throws IllegalStateException if the tracker is closed
   */
  public void record(byte[] key, int valueLength, boolean missed) {
    Objects.requireNonNull(key, "key");
    if (valueLength < 0) {
      throw new IllegalArgumentException("valueLength must be >= 0 but was " + valueLength);
    }
    if (key.length > AccessRecord.MAX_KEY_LENGTH) {
      throw new IllegalArgumentException("key length " + key.length + " exceeds the limit of "
          + AccessRecord.MAX_KEY_LENGTH + " bytes");
    }
    synchronized (bufferLock) {
      checkOpen();
      long bytes = (long) key.length + valueLength;
      long time = accessClock + bytes;
      if (!active.add(key, valueLength, time)) {
        handOffActive();
        if (!active.add(key, valueLength, time)) {
          throw new IllegalArgumentException("key of " + key.length
              + " bytes does not fit the access buffer of " + options.bufferBytes() + " bytes");
        }
      }
      accessClock = time;
      accesses++;
      pacingAccessBytes += bytes;
      if (missed) {
        pacingMissedBytes += bytes;
      }
      paceIfDue();
      if (accessClock - handedOffAt >= clock.counterDecayPeriodBytes()) {
        handOffActive();
      }
    }
  }

  /**
   * Must hold bufferLock. Sets R from the accesses since the last pacing once they make half a
   * buffer's bytes (keys and values: a buffer holds keys only, so many times more accesses fit in
   * it), from the current access on. Called after every access, so R follows a change in the
   * missed share within that many bytes, not within a buffer of keys.
   */
  private void paceIfDue() {
    if (pacingAccessBytes < options.bufferBytes() / 2) {
      return;
    }
    double stretch = pacingMissedBytes == 0 ? options.maxDecayStretch()
        : Math.min(options.maxDecayStretch(), (double) pacingAccessBytes / pacingMissedBytes);
    clock.pace(stretch, accessClock);
    pacingAccessBytes = 0;
    pacingMissedBytes = 0;
  }

  /** Must hold bufferLock. */
  private void handOffActive() {
    handedOffAt = accessClock;
    if (active.isEmpty()) {
      return;
    }
    bufferSlots.acquireUninterruptibly();
    tasks.add(active);
    AccessBuffer next = spareBuffers.poll();
    active = next != null ? next : new AccessBuffer((int) options.bufferBytes());
  }

  /**
   * Whether {@code key} is in the hot set, from in-memory Bloom filters only (a false positive is
   * possible at the filters' rate; a false negative is not, for keys marked hot on disk).
   *
   * @throws NullPointerException if {@code key} is null
   * @throws IllegalStateException if the tracker is closed
   */
  public boolean isHot(byte[] key) {
    return inHotFilters(key, false);
  }

  /**
   * Whether {@code key} is in the hot set and was stable — seen repeatedly, Algorithm 1 — when it
   * was marked hot, or came back while it was in the hot set; from in-memory Bloom filters only. The
   * hot set also holds some unstable records (at most D_hs once it is steady), mostly the most
   * recently accessed ones; a caller that acts on hotness at some cost (promotion copies a record
   * to the fast disk) should ask this rather than {@link #isHot}, or uniform access would look hot
   * for as long as it is recent.
   *
   * @throws NullPointerException if {@code key} is null
   * @throws IllegalStateException if the tracker is closed
   */
  public boolean isStableHot(byte[] key) {
    return inHotFilters(key, true);
  }

  private boolean inHotFilters(byte[] key, boolean stableOnly) {
    Objects.requireNonNull(key, "key");
    checkOpen();
    long h = KeyHash.hash(key);
    for (Run r : current.runs) {
      if (r.hotCount == 0) {
        continue;
      }
      Segment s = r.find(key);
      if (s != null && (stableOnly ? s.mightBeStableHot(h) : s.mightBeHot(h))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Hot bytes (key + value length) of the hot keys in [lowInclusive, highInclusive], from in-memory
   * prefix sums only. Never below the exact figure; above it by at most the two boundary blocks of
   * each run.
   *
   * @throws NullPointerException if a bound is null
   * @throws IllegalStateException if the tracker is closed
   */
  public long hotSizeInRange(byte[] lowInclusive, byte[] highInclusive) {
    Objects.requireNonNull(lowInclusive, "lowInclusive");
    Objects.requireNonNull(highInclusive, "highInclusive");
    checkOpen();
    return hotBytesOfRuns(lowInclusive, highInclusive, false);
  }

  /**
   * The most by which {@link #hotSizeInRange} may exceed the exact hot bytes of [lowInclusive,
   * highInclusive]: the hot bytes of each run's boundary blocks, in the version current now.
   */
  long hotSizeInRangeSlack(byte[] lowInclusive, byte[] highInclusive) {
    return hotBytesOfRuns(lowInclusive, highInclusive, true);
  }

  private long hotBytesOfRuns(byte[] lowInclusive, byte[] highInclusive, boolean boundaryOnly) {
    if (java.util.Arrays.compareUnsigned(lowInclusive, highInclusive) > 0) {
      return 0;
    }
    long sum = 0;
    for (Run r : current.runs) {
      sum += r.hotBytesInRange(lowInclusive, highInclusive, boundaryOnly);
    }
    return sum;
  }

  /**
   * The hot keys of [lowInclusive, highInclusive] in unsigned order, each once. The iterator reads
   * the files of the version current now and pins them until closed.
   *
   * @throws NullPointerException if a bound is null
   * @throws IllegalStateException if the tracker is closed
   */
  public HotKeyIterator hotKeys(byte[] lowInclusive, byte[] highInclusive) {
    return keys(lowInclusive, highInclusive, true);
  }

  /**
   * Every key of [lowInclusive, highInclusive] that the files track — accessed recently enough not
   * to have been evicted, hot or not — in unsigned order, each once; {@link HotKeyIterator#hot()}
   * tells the hot ones. Reads the same records as {@link #hotKeys}, which only skips the cold ones.
   * Accesses still in the buffer are not seen. The iterator pins the files until closed.
   *
   * @throws NullPointerException if a bound is null
   * @throws IllegalStateException if the tracker is closed
   */
  public HotKeyIterator trackedKeys(byte[] lowInclusive, byte[] highInclusive) {
    return keys(lowInclusive, highInclusive, false);
  }

  private HotKeyIterator keys(byte[] lowInclusive, byte[] highInclusive, boolean hotOnly) {
    Objects.requireNonNull(lowInclusive, "lowInclusive");
    Objects.requireNonNull(highInclusive, "highInclusive");
    Version v;
    synchronized (versionLock) {
      checkOpen();
      v = current;
      v.retain();
    }
    return new MergingHotKeyIterator(v, lowInclusive.clone(), highInclusive.clone(), hotOnly);
  }

  /**
   * The hot-set limit now, in hot bytes (key + value length); auto-tuning moves it after every
   * eviction. The same as {@code stats().hotSetLimit()}, without taking the buffer's lock or
   * counting the rest of the statistics, for callers that ask often.
   *
   * @throws IllegalStateException if the tracker is closed
   */
  public long hotSetLimit() {
    checkOpen();
    return hotSetLimit;
  }

  /**
   * Hot bytes of the hot set now, as in {@code stats().hotSetBytes()}, without the lock.
   *
   * @throws IllegalStateException if the tracker is closed
   */
  public long hotSetBytes() {
    checkOpen();
    return current.hotBytes;
  }

  /**
   * A snapshot of sizes, limits, clock, shape and I/O.
   *
   * @throws IllegalStateException if the tracker is closed
   */
  public RaltStats stats() {
    checkOpen();
    Version v = current;
    long clockNow;
    long n;
    synchronized (bufferLock) {
      clockNow = accessClock;
      n = accesses;
    }
    int levels = Math.max(1, v.maxLevel() + 1);
    int[] runsPerLevel = new int[levels];
    for (Run r : v.runs) {
      runsPerLevel[r.level]++;
    }
    return new RaltStats(v.hotBytes, stableHotBytes, io.diskBytes.get(), hotSetLimit, physicalLimit,
        clock.tick(clockNow), clockNow, n, runsPerLevel, io.bytesRead.get(), io.bytesWritten.get(),
        evictions, v.memoryBytes(), v.hotCount, v.recordCount, io.maxOvershoot.get(),
        clock.counterDecayPeriodBytes());
  }

  /**
   * Hands the buffered accesses to the background thread and waits until they are written and every
   * merge and eviction they make due is done. For tests and benchmarks; concurrent {@link #record}
   * calls may keep the background thread busy longer.
   *
   * @throws IllegalStateException if the tracker is closed
   */
  public void awaitQuiescence() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    synchronized (bufferLock) {
      checkOpen();
      handOffActive();
      tasks.add(done);
    }
    try {
      done.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for RALT", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("RALT background work failed", e.getCause());
    }
  }

  /**
   * Makes the accesses recorded so far visible to {@link #isHot} and {@link #isStableHot}, as
   * {@link #awaitQuiescence} does, but only when they fill at least {@code minBufferShare} of the
   * buffer; returns whether it did. A caller that needs recent accesses seen (a promotion check)
   * calls this often, and the floor keeps it from writing many tiny runs.
   *
   * @throws IllegalArgumentException if {@code minBufferShare} is not in [0, 1]
   * @throws IllegalStateException if the tracker is closed
   */
  public boolean flushIfBuffered(double minBufferShare) {
    if (!(minBufferShare >= 0 && minBufferShare <= 1)) {
      throw new IllegalArgumentException(
          "minBufferShare must be in [0, 1] but was " + minBufferShare);
    }
    synchronized (bufferLock) {
      checkOpen();
      if (active.isEmpty() || active.recordBytes() < minBufferShare * options.bufferBytes()) {
        return false;
      }
    }
    awaitQuiescence();
    return true;
  }

  /**
   * Writes the buffered accesses, stops background work at the next file boundary and saves the
   * manifest. Idempotent. Open iterators stay readable until they are closed.
   */
  @Override
  public void close() {
    synchronized (bufferLock) {
      if (closed) {
        return;
      }
      handOffActive();
      stopping = true;
      tasks.add(STOP);
      closed = true;
    }
    boolean interrupted = false;
    while (true) {
      try {
        worker.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    synchronized (versionLock) {
      Version v = current;
      for (Run r : v.runs) {
        for (Segment s : r.segments) {
          s.keepFile();
        }
      }
      v.release();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("RALT at " + dir + " is closed");
    }
    Throwable f = fatal;
    if (f != null) {
      throw new IllegalStateException("RALT at " + dir + " stopped after its background thread failed", f);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Background thread

  private void backgroundLoop() {
    while (true) {
      Object task;
      try {
        task = tasks.take();
      } catch (InterruptedException e) {
        continue; // only close() ends this thread, through STOP
      }
      if (task == STOP) {
        finishOnStop();
        return;
      }
      // A buffer not yet passed to flushBuffer (which recycles it whatever happens) is recycled
      // here on failure, so its slot is never lost.
      AccessBuffer pending = task instanceof AccessBuffer b ? b : null;
      try {
        beforeTask.accept(task);
        if (pending != null) {
          if (!roomForBuffer()) {
            runDueWorkDroppingDamagedFiles(); // make room first: evict before writing more
          }
          AccessBuffer b = pending;
          pending = null;
          flushBuffer(b);
        }
        runDueWorkDroppingDamagedFiles();
        if (task instanceof CompletableFuture<?> f) {
          ((CompletableFuture<?>) f).complete(null);
        }
      } catch (RuntimeException | IOException e) {
        LOG.log(Level.WARNING, "RALT background work in " + dir + " failed; tracking continues", e);
        if (pending != null) {
          recycle(pending);
        }
        if (task instanceof CompletableFuture<?> f) {
          f.completeExceptionally(e);
        }
      } catch (Throwable t) {
        // An Error leaves the in-memory state unknown: stop tracking rather than trust it.
        fatal = t;
        LOG.log(Level.ERROR, "RALT background thread in " + dir + " failed; tracking stops", t);
        if (pending != null) {
          recycle(pending);
        }
        if (task instanceof CompletableFuture<?> f) {
          f.completeExceptionally(t);
        }
        drainAfterFailure(t);
        return;
      }
    }
  }

  /** Serves the queue without doing its work until {@link #close()} sends STOP. */
  private void drainAfterFailure(Throwable cause) {
    while (true) {
      Object task;
      try {
        task = tasks.take();
      } catch (InterruptedException e) {
        continue;
      }
      if (task == STOP) {
        return;
      }
      if (task instanceof AccessBuffer b) {
        recycle(b);
      } else if (task instanceof CompletableFuture<?> f) {
        f.completeExceptionally(cause);
      }
    }
  }

  /** Returns a handed-off buffer to the spares and its slot to producers. */
  private void recycle(AccessBuffer b) {
    b.clear();
    spareBuffers.offer(b);
    bufferSlots.release();
  }

  /**
   * Runs due merges and evictions. A file found damaged while merging would fail every later merge
   * that reads it, so it is taken out of the tracker — its records are lost, the tracking of
   * everything else goes on — and the work is tried again.
   */
  private void runDueWorkDroppingDamagedFiles() throws IOException {
    for (int attempt = 0; ; attempt++) {
      try {
        runDueWork();
        return;
      } catch (IOException | RuntimeException e) {
        if (attempt >= 16 || !dropIfCorrupt(e)) {
          throw e;
        }
      }
    }
  }

  private boolean dropIfCorrupt(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CorruptSegmentException c) {
        Version v = current;
        for (Run r : v.runs) {
          for (Segment s : r.segments) {
            if (s == c.segment) {
              List<Segment> rest = new ArrayList<>(List.of(r.segments));
              rest.remove(s);
              LOG.log(Level.WARNING, "RALT file " + s.path + " is damaged; dropped its "
                  + s.recordCount + " records");
              try {
                replaceRuns(List.of(r), rest.isEmpty() ? List.of() : List.of(new Run(r.id, r.level,
                    rest)), true);
              } catch (IOException | RuntimeException again) {
                LOG.log(Level.WARNING, "RALT could not drop " + s.path, again);
                return false;
              }
              return true;
            }
          }
        }
        return false;
      }
    }
    return false;
  }

  private void finishOnStop() {
    try {
      for (Object t; (t = tasks.poll()) != null; ) {
        if (t instanceof AccessBuffer b) {
          flushBuffer(b);
        } else if (t instanceof CompletableFuture<?> f) {
          f.complete(null);
        }
      }
      writeManifest(true);
    } catch (RuntimeException | IOException e) {
      LOG.log(Level.WARNING, "RALT in " + dir + " could not save all state on close", e);
    }
  }

  /**
   * Writes the buffers queued at the head of the task queue. Between merge steps it writes them only
   * while the files leave room under the physical limit, so a merge that is making room (an eviction)
   * is not outrun by new level-0 runs; callers then wait for room, not for the merge to finish.
   */
  private void flushQueuedBuffers(boolean duringMerge) throws IOException {
    while (tasks.peek() instanceof AccessBuffer) {
      if (!roomForBuffer() && (duringMerge || evictionDue(current))) {
        return;
      }
      flushBuffer((AccessBuffer) tasks.poll());
    }
  }

  /**
   * Whether one more buffer may be written now without taking the files past the physical limit
   * plus one buffer — leaving room for a merge's next output file and the input file it may not
   * have let go yet.
   */
  private boolean roomForBuffer() {
    return io.diskBytes.get() + 2 * options.segmentBytes() < physicalLimit;
  }

  private void flushBuffer(AccessBuffer b) throws IOException {
    try {
      b.aggregateAndSort(clock);
      long now = b.lastTime();
      long decayNow = clock.decayAt(now);
      Run[] deeper = runsBelowLevel0(current);
      Run[] level0 = runsOnLevel0(current);
      SegmentSink sink = new SegmentSink(dir, options, io, () -> nextFileId++);
      AccessRecord r = new AccessRecord();
      boolean ok = false;
      try {
        for (int i = 0, n = b.distinctCount(); i < n; i++) {
          b.load(i, r);
          annotate(r, decayNow, deeper, level0, threshold);
          sink.add(r);
        }
        sink.finishFile();
        ok = true;
      } finally {
        if (!ok) {
          sink.abort();
        }
      }
      flushedClock = Math.max(flushedClock, now);
      flushesSinceEviction++;
      if (!sink.segments.isEmpty()) {
        replaceRuns(List.of(), List.of(new Run(nextFileId++, 0, sink.segments)), true);
        sink.releaseAll();
      }
    } finally {
      b.clear();
      spareBuffers.offer(b);
      bufferSlots.release();
    }
  }

  /**
   * The runs below level 0: a key hot there is not marked hot again in a new level-0 run. Level 0
   * is left out to keep flushing cheap when many level-0 runs wait for a merge.
   */
  private static Run[] runsBelowLevel0(Version v) {
    int n = 0;
    for (Run r : v.runs) {
      if (r.level > 0) {
        n++;
      }
    }
    Run[] out = new Run[n];
    int i = 0;
    for (Run r : v.runs) {
      if (r.level > 0) {
        out[i++] = r;
      }
    }
    return out;
  }

  /** The runs on level 0, newest included. */
  private static Run[] runsOnLevel0(Version v) {
    return java.util.Arrays.stream(v.runs).filter(r -> r.level == 0).toArray(Run[]::new);
  }

  /**
   * Marks {@code r}, a newly flushed access, hot if it ranks above the threshold and no deeper run
   * already has it hot (then it is shadowed). A key that was hot in any older run when it came back
   * is also put in the stable-hot filter, without counting its bytes again: its two accesses sit in
   * different runs and only a merge would fold them into one tagged record, which leaves a hot key
   * unrecognised for as long as level 0 waits for a merge. Coming back while still in the hot set
   * is a stricter test than Algorithm 1's (back before the counter runs out): the hot set's
   * unstable room is at most D_hs while it is steady, and never more than R_hs, far less than Δc·R
   * of accesses.
   */
  private void annotate(AccessRecord r, long decayNow, Run[] deeperRuns, Run[] level0Runs,
      HotThreshold t) {
    r.shadowed = RunMerger.hotInAny(deeperRuns, r);
    boolean stable = r.isStable(decayNow);
    r.hot = !r.shadowed && t.admits(stable, clock.rank(r, stable, decayNow));
    boolean returned = r.shadowed || RunMerger.hotInAny(level0Runs, r);
    r.stableHot = (r.hot && stable) || returned;
  }

  private void runDueWork() throws IOException {
    while (!stopping) {
      flushQueuedBuffers(false);
      Version v = current;
      if (evictionDue(v)) {
        evict(v);
        continue;
      }
      if (v.runsOnLevel(0) >= options.level0RunLimit()) {
        mergeLevel(v, 0);
        continue;
      }
      int maxLevel = v.maxLevel();
      boolean merged = false;
      for (int level = 1; level <= maxLevel; level++) {
        if (v.levelBytes(level) > levelCapacity(level)) {
          mergeLevel(v, level);
          merged = true;
          break;
        }
      }
      if (!merged) {
        return;
      }
    }
  }

  private long levelCapacity(int level) {
    double cap = (double) options.bufferBytes() * options.level0RunLimit();
    for (int i = 1; i < level; i++) {
      cap *= options.levelSizeRatio();
    }
    return (long) Math.min(cap, Long.MAX_VALUE / 2);
  }

  private boolean evictionDue(Version v) {
    if (v.runs.length == 0 || flushesSinceEviction == 0) {
      return false;
    }
    if (v.hotBytes > hotSetLimit
        || v.fileBytes - v.shadowedBytes > physicalLimit - evictionReserve(v)) {
      return true;
    }
    return options.autoTuning()
        && flushedClock - lastEvictionClock >= clock.counterDecayPeriodBytes();
  }

  /**
   * Disk space an eviction may need beyond its inputs while it runs: its output file in progress and,
   * per input run, one file it has passed halfway. Evicting this much early keeps the files within
   * the limit plus one buffer throughout.
   */
  private long evictionReserve(Version v) {
    return Math.min(physicalLimit / 4, (v.runs.length + 1L) * options.segmentBytes());
  }

  private void mergeLevel(Version v, int level) throws IOException {
    List<Run> inputs = new ArrayList<>();
    List<Run> older = new ArrayList<>();
    for (Run r : v.runs) {
      if (r.level == level || r.level == level + 1) {
        inputs.add(r);
      } else if (r.level > level + 1) {
        older.add(r);
      }
    }
    merger.merge(inputs, level + 1, older.toArray(new Run[0]), threshold, null, flushedClock);
  }

  private void evict(Version v) throws IOException {
    long now = flushedClock;
    long hotTarget = (long) ((1 - options.hotSetBeta()) * hotSetLimit);
    // The target leaves the eviction reserve free, so the next eviction is not due at once.
    long physicalTarget = (long) ((1 - options.beta()) * (physicalLimit - evictionReserve(v)));
    EvictionPlanner.Plan plan = EvictionPlanner.plan(v, clock, now, hotTarget, physicalTarget,
        options.evictionSampleBlocks(), random);
    List<Run> inputs = List.of(v.runs);
    // The output goes where it fits: at least as deep as the deepest input, and on a level whose
    // capacity holds it, so that the next level-0 merge does not rewrite all of it.
    int level = Math.max(1, v.maxLevel());
    while (levelCapacity(level) < v.fileBytes) {
      level++;
    }
    RunMerger.EvictionTotals totals = new RunMerger.EvictionTotals();
    long flushesBefore = flushesSinceEviction;
    boolean complete = merger.merge(inputs, level, new Run[0], plan.hot(),
        new RunMerger.Eviction(plan.keep(), totals),
        now);
    threshold = plan.hot();
    evictions++;
    lastEvictionClock = now;
    flushesSinceEviction -= flushesBefore; // runs written while evicting are not evicted yet
    if (complete) {
      stableHotBytes = totals.stableHotBytes;
      long period = clock.counterDecayPeriodBytes();
      long elapsed = now - growthPeriodStartClock;
      long growth = HotSetTuner.growthPerPeriod(stableGrowth,
          stableHotBytes - growthPeriodStartStable, elapsed, period);
      if (elapsed >= period) {
        stableGrowth = growth;
        growthPeriodStartClock = now;
        growthPeriodStartStable = stableHotBytes;
      }
      if (options.autoTuning()) {
        HotSetTuner.Limits limits = HotSetTuner.retune(options, totals, growth);
        if (limits.hotSetLimit() < hotSetLimit || limits.physicalLimit() < physicalLimit) {
          flushesSinceEviction = 1; // shrunk below what the last eviction aimed at: evict once more
        }
        hotSetLimit = limits.hotSetLimit();
        physicalLimit = limits.physicalLimit();
      }
    }
    writeManifest(false);
  }


  /**
   * Replaces runs in the current version and saves the manifest. Runs are matched by id, so a
   * shrunken copy of an input run replaces the published one.
   */
  private void replaceRuns(List<Run> removed, List<Run> added, boolean saveManifest)
      throws IOException {
    Set<Long> removedIds = new HashSet<>();
    for (Run r : removed) {
      removedIds.add(r.id);
    }
    for (Run r : added) {
      removedIds.add(r.id);
    }
    Version old;
    synchronized (versionLock) {
      old = current;
      List<Run> runs = new ArrayList<>();
      for (Run r : old.runs) {
        if (!removedIds.contains(r.id)) {
          runs.add(r);
        }
      }
      runs.addAll(added);
      runs.sort((a, b) -> a.level != b.level ? Integer.compare(a.level, b.level)
          : Long.compare(b.id, a.id));
      current = new Version(runs);
      publishedClock = flushedClock;
    }
    old.release();
    if (saveManifest) {
      writeManifest(false);
    }
  }

  private void writeManifest(boolean sync) throws IOException {
    Version v = current;
    List<Manifest.RunEntry> entries = new ArrayList<>();
    for (Run r : v.runs) {
      long[] ids = new long[r.segments.length];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = r.segments[i].id;
      }
      entries.add(new Manifest.RunEntry(r.id, r.level, ids));
    }
    new Manifest(flushedClock, clock.decayAt(flushedClock), nextFileId, evictions,
        lastEvictionClock, threshold, hotSetLimit, physicalLimit, stableHotBytes, entries)
        .write(dir, sync);
  }

}
