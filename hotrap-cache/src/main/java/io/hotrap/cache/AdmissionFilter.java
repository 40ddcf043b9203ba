package io.hotrap.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Which records read from the slow tier the promotion cache stores: a key is admitted when it was
 * read within a window of recent slow-tier reads, that is on its second read (the doorkeeper of
 * TinyLFU). The filter also keeps the share of recent read bytes that it admitted.
 *
 * <p><b>Why.</b> Promotion promotes only keys that came back (RALT's stable-hot keys, HotRAP §3.7,
 * or keys read again within the window). A record read once cannot be promoted, so copying it
 * into the cache costs every cold read a key and value copy, a skip-list insert and its share of
 * the frozen tables that a checker thread wakes for. Under reads spread over far more data than
 * the window, almost every slow-tier read is such a record. Measured on cold uniform gets
 * ({@code ColdGetBenchmark}): promotion on ran at about 0.8× promotion off with every read cached,
 * and at 0.94–1.0× with this filter (medians of paired trials).
 *
 * <p><b>The window.</b> Two generations of a blocked Bloom filter: a key is remembered from the read
 * that adds it until two generations later, so for the last {@code window} to {@code 2·window}
 * reads. A generation holds {@code window} keys: {@code windowBytes} in records of the size of the
 * first record read, then, each time one fills, of the mean size of the generation that filled,
 * clamped to [{@value #MIN_WINDOW}, maxWindow]. The store derives {@code windowBytes} from RALT's
 * hot-set limit: a hot set that fits the limit, read in passes, is remembered from one pass to the
 * next, while reads over data much larger than the hot set come back within the window only by
 * chance. Each key sets
 * {@value #PROBES} bits in one 64-bit word of at least {@value #BITS_PER_KEY} bits per key of
 * capacity (rounded up to a power of two): one memory access per generation probed, at most about
 * 0.5% false positives per full generation, 1% with both full. A false positive caches a record
 * on its first read, as if there were no filter.
 *
 * <p><b>The admitted share.</b> {@link #admittedShare()} is an exponentially weighted share of
 * admitted bytes among the bytes of reads that got past the fast tier, with a horizon of {@code
 * horizonBytes} (the cache's target size: one table's worth of reads). Gets that the cache served
 * count as admitted ({@link #cacheHit}): they read records that came back, and once most of a hot
 * set waits in the cache, they are most of its reads. A table full of admitted records says little when they
 * are a few chance returns gathered over reads of many times its size; the promotion check asks
 * the share whether the records that came back stood out from the reads around them, as a table
 * that held every read would have shown by its own mix.
 *
 * <h2>Concurrency</h2>
 * Thread-safe and lock-free: no read waits for another. Bits are set with an atomic OR, so no key
 * added within the window is lost to a concurrent add. {@link #admit} follows this protocol:
 * <ol>
 *   <li>It reads the pair of generations once and adds the key to that pair's current generation,
 *       probing its previous one.
 *   <li>Every add that leaves the current generation at or past its capacity, not only the one
 *       that reaches it, rolls the pair: it builds the next pair (a new generation, then the full
 *       one) and installs it with a compare-and-set on the very pair it read. One roll of a pair
 *       succeeds; the others fail and are dropped, and a reader that finds the pair already
 *       replaced builds none. The pairs therefore form one chain, each generation current in one
 *       pair and previous in the next.
 * </ol>
 * This prevents two races of a reader descheduled while it rolls, between the add that fills the
 * generation and the install:
 * <ul>
 *   <li>The full generation taking keys without bound. Were only the add that reaches the capacity
 *       to roll, every other reader would go on adding to the full generation until the stalled
 *       one ran again (on loaded cores, tens of thousands of keys into a generation of a thousand),
 *       and its bits would then report nearly every key as read until it aged out. Here the next
 *       add rolls it instead, so a generation takes at most one key per reading thread past its
 *       capacity.
 *   <li>Undoing later rolls. Since every add past the capacity rolls, the stalled reader's pair
 *       may have been rolled once or more by others meanwhile. A plain write of its next pair
 *       would then bring back the full generation and drop the newer ones, with the last window's
 *       keys; the compare-and-set fails instead.
 * </ul>
 * An add racing with a roll lands in the generation it read, which is then the previous one and
 * still probed. Only a reader descheduled between reading the pair and adding for two rolls or
 * more adds to a generation no longer probed: that one key is forgotten early, and admitted on a
 * later read. The admitted share is updated without synchronization: concurrent updates may lose
 * one another's contribution, admitted and not admitted alike, which leaves an estimate that is
 * good enough to compare with a half.
 */
public final class AdmissionFilter {
  /** Bits per key of a generation's capacity. */
  public static final int BITS_PER_KEY = 16;
  /** Bits each key sets, all in one 64-bit word. */
  public static final int PROBES = 4;
  /** Smallest window, in keys. */
  public static final int MIN_WINDOW = 64;

  private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle GENERATIONS;

  static {
    try {
      GENERATIONS = MethodHandles.lookup()
          .findVarHandle(AdmissionFilter.class, "generations", Generations.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final long horizonBytes;
  private final LongSupplier windowBytes;
  private final int maxWindow;
  /** Both generations, replaced together; {@link Generations#UNSIZED} until the first read. */
  private volatile Generations generations = Generations.UNSIZED;
  /** See {@link #admittedShare()}; racy by design (class javadoc). */
  private volatile double admittedShare;

  /**
   * @param horizonBytes bytes of reads over which {@link #admittedShare()} is averaged
   * @param windowBytes bytes of records a generation should cover; read at the first read, sized
   *     by that record, and whenever a generation fills
   * @param maxWindow the largest window in keys; bounds memory at {@code 2 · maxWindow ·}
   *     {@value #BITS_PER_KEY} bits
   * @throws IllegalArgumentException if {@code horizonBytes} is not positive or {@code maxWindow}
   *     is under {@value #MIN_WINDOW}
   */
  public AdmissionFilter(long horizonBytes, LongSupplier windowBytes, int maxWindow) {
    if (horizonBytes <= 0) {
      throw new IllegalArgumentException("horizonBytes must be positive but was " + horizonBytes);
    }
    if (maxWindow < MIN_WINDOW) {
      throw new IllegalArgumentException(
          "maxWindow must be at least " + MIN_WINDOW + " but was " + maxWindow);
    }
    this.horizonBytes = horizonBytes;
    this.windowBytes = Objects.requireNonNull(windowBytes, "windowBytes");
    this.maxWindow = maxWindow;
  }

  /**
   * Records a read of {@code key}, a record of {@code recordBytes} bytes (key and value), and tells
   * whether the key was read within the window before it: whether the cache should store it.
   */
  public boolean admit(byte[] key, int recordBytes) {
    return admit(key, recordBytes, false);
  }

  /**
   * As {@link #admit(byte[], int)}, for a read the caller knows to be a return whatever the window
   * says when {@code returned} is true (the store: a record read while in the fast tier, then
   * demoted); such a read is admitted and counts as admitted toward {@link #admittedShare()}.
   */
  public boolean admit(byte[] key, int recordBytes, boolean returned) {
    Objects.requireNonNull(key, "key");
    long h = hash(key);
    Generations g = generations;
    if (g == Generations.UNSIZED) {
      Generations sized = new Generations(
          new Generation(clamp(windowBytes.getAsLong() / Math.max(1, recordBytes))), Generation.EMPTY);
      g = GENERATIONS.compareAndSet(this, g, sized) ? sized : generations;
    }
    long m = Generation.mask(h);
    boolean seen = g.current.add(h, m) | g.previous.contains(h, m) | returned;
    if (g.current.full(recordBytes)) {
      roll(g);
    }
    share(seen, recordBytes);
    return seen;
  }

  /**
   * Replaces {@code read}, whose current generation is full, by the next pair, unless another read
   * has replaced it (class javadoc, Concurrency).
   */
  private void roll(Generations read) {
    if (generations != read) {
      return;
    }
    Generations next = new Generations(new Generation(nextWindow(read.current)), read.current);
    GENERATIONS.compareAndSet(this, read, next);
  }

  /**
   * Records a read of a {@code recordBytes} record that the promotion cache served: a record that
   * came back, since the cache holds only admitted ones, read without reaching the slow tier. It
   * counts toward {@link #admittedShare()} as an admitted read and leaves the window alone.
   */
  public void cacheHit(int recordBytes) {
    share(true, recordBytes);
  }

  private void share(boolean admitted, int recordBytes) {
    double w = Math.min(1.0, (double) recordBytes / horizonBytes);
    double s = admittedShare;
    admittedShare = s + ((admitted ? 1.0 : 0.0) - s) * w;
  }

  /**
   * Whether {@code key} was read within the window, without recording a read.
   */
  public boolean mightContain(byte[] key) {
    Objects.requireNonNull(key, "key");
    long h = hash(key);
    long m = Generation.mask(h);
    Generations g = generations;
    return g.current.contains(h, m) || g.previous.contains(h, m);
  }

  /**
   * The share of admitted bytes among the bytes read past the fast tier ({@link #admit}, and
   * {@link #cacheHit} as admitted), weighted toward the last {@code horizonBytes}: each read of
   * {@code b} bytes moves it by {@code b / horizonBytes} of the way toward 1 (admitted) or 0.
   * Starts at 0.
   */
  public double admittedShare() {
    return admittedShare;
  }

  /** Keys the current generation holds when full; 0 before the first read. */
  public int window() {
    return generations.current.capacity;
  }

  /** Heap bytes of both generations' bits. */
  public long memoryBytes() {
    Generations g = generations;
    return 8L * (g.current.words.length + g.previous.words.length);
  }

  private int nextWindow(Generation filled) {
    long meanRecordBytes = Math.max(1, filled.bytes.get() / Math.max(1, filled.added.get()));
    return clamp(windowBytes.getAsLong() / meanRecordBytes);
  }

  private int clamp(long window) {
    return (int) Math.max(MIN_WINDOW, Math.min(maxWindow, window));
  }

  static long hash(byte[] key) {
    return KeyHash.hash64(key);
  }

  private static final class Generations {
    static final Generations UNSIZED = new Generations(Generation.EMPTY, Generation.EMPTY);

    final Generation current;
    final Generation previous;

    Generations(Generation current, Generation previous) {
      this.current = current;
      this.previous = previous;
    }
  }

  /** One generation: a blocked Bloom filter of up to {@code capacity} keys. */
  private static final class Generation {
    static final Generation EMPTY = new Generation(0);

    final int capacity;
    final long[] words;
    final AtomicInteger added = new AtomicInteger();
    final AtomicLong bytes = new AtomicLong();

    Generation(int capacity) {
      this.capacity = capacity;
      long bits = Math.max(64, (long) capacity * BITS_PER_KEY);
      this.words = new long[(int) (Long.highestOneBit(bits - 1) << 1 >>> 6)];
    }

    /** The probes: four 6-bit slices of the hash's high half. The word: its low bits. */
    static long mask(long h) {
      int bits = (int) (h >>> 32);
      long m = 0;
      for (int i = 0; i < PROBES; i++) {
        m |= 1L << ((bits >>> (6 * i)) & 63);
      }
      return m;
    }

    boolean contains(long h, long m) {
      return ((long) WORDS.getOpaque(words, (int) h & (words.length - 1)) & m) == m;
    }

    /** Sets the key's bits; returns whether all were set before. */
    boolean add(long h, long m) {
      int i = (int) h & (words.length - 1);
      long before = (long) WORDS.getOpaque(words, i);
      if ((before & m) == m) {
        return true;
      }
      return ((long) WORDS.getAndBitwiseOr(words, i, m) & m) == m;
    }

    /**
     * Counts an add of a record of {@code recordBytes}; true if the generation then holds its
     * capacity or more: for every add from the one that fills it on, so that one stalled reader
     * cannot keep it from being rolled.
     */
    boolean full(int recordBytes) {
      bytes.addAndGet(recordBytes);
      return added.incrementAndGet() >= capacity;
    }
  }
}
