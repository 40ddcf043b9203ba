package io.hotrap.bench.harness;

import io.hotrap.bench.report.AccessSequence;
import io.hotrap.bench.report.ReplayHitRates;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The operations of a run phase in the order the client threads issue them, kept for
 * {@link ReplayHitRates}: per operation, the record's id and whether it is a write, four bytes in
 * the encoding of {@link AccessSequence}.
 *
 * <p>Concurrency: {@link #append} takes no lock. One atomic increment of a shared counter claims
 * the next slot, and with it the operation's place in the order; the slot lies in a chunk of
 * {@value #CHUNK_OPS} operations that the first thread to reach it allocates (compare-and-set; a
 * thread that loses the race drops its copy). The slot itself is a plain store: the log is read by
 * {@link #replay} only after every client thread has ended, and {@link Thread#join} orders their
 * stores before that read. A client thus pays one atomic add and one store per operation (10 to
 * 20 ns measured with four threads on two cores), against a get of microseconds.
 *
 * <p>Bounds: the log keeps at most {@code maxOperations} operations
 * ({@link #DEFAULT_MAX_OPERATIONS}, 200 MB, part of the run's resident set while it runs). Beyond
 * that it only counts, and {@link #replay} reports NaN with the reason instead of replaying a part
 * of the run, whose warm-up and final window would not be the run's. Likewise for a record id
 * beyond {@link Integer#MAX_VALUE}, which the encoding cannot hold.
 */
final class AccessLog {

  /** The most operations a log keeps unless told otherwise: about 15 minutes at 50,000 ops/s. */
  static final long DEFAULT_MAX_OPERATIONS = 50_000_000;
  /** Operations per chunk (4 MiB): few allocations, little waste in the last chunk. */
  static final int CHUNK_OPS = 1 << 20;

  private final long maxOperations;
  private final AtomicLong next = new AtomicLong();
  private final AtomicReferenceArray<int[]> chunks;
  /**
   * A record id too large to log, or -1. Written without synchronization by whichever client
   * meets one; any such id will do, and {@link #replay} reads it after the clients ended.
   */
  private long rejectedId = -1;
  private boolean replayed;

  AccessLog(long maxOperations) {
    if (maxOperations <= 0 || maxOperations > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "maxOperations must be in [1, " + Integer.MAX_VALUE + "] but was " + maxOperations);
    }
    this.maxOperations = maxOperations;
    this.chunks = new AtomicReferenceArray<>((int) ((maxOperations + CHUNK_OPS - 1) / CHUNK_OPS));
  }

  /** Logs a get ({@code write} false) or a write of record {@code id}. Thread-safe, lock-free. */
  void append(long id, boolean write) {
    long at = next.getAndIncrement();
    if (at >= maxOperations) {
      return;
    }
    if (id > Integer.MAX_VALUE || id < 0) {
      rejectedId = id;
      return;
    }
    int index = (int) (at / CHUNK_OPS);
    int[] chunk = chunks.get(index);
    if (chunk == null) {
      chunk = new int[CHUNK_OPS];
      if (!chunks.compareAndSet(index, null, chunk)) {
        chunk = chunks.get(index);
      }
    }
    int record = (int) id;
    chunk[(int) (at % CHUNK_OPS)] =
        write ? AccessSequence.write(record) : AccessSequence.get(record);
  }

  /** The number of operations appended, kept or not. */
  long operations() {
    return next.get();
  }

  /**
   * Why the log cannot be replayed, or null when it can: it holds every operation of the run.
   * Call it after every appending thread has ended.
   */
  String unavailableReason() {
    long n = next.get();
    if (n > maxOperations) {
      return String.format(Locale.ROOT,
          "the run issued %,d operations, more than the %,d the replay keeps", n, maxOperations);
    }
    if (rejectedId != -1) {
      return "record id " + rejectedId + " does not fit the replay's int encoding";
    }
    return null;
  }

  /**
   * Replays the logged operations with room for {@code capacityRecords} records, counting the
   * final {@code finalShare} of the gets; NaN rates with the {@link #unavailableReason} if there
   * is one. Call it after every appending thread has ended, and once.
   */
  ReplayHitRates replay(long capacityRecords, double finalShare) {
    String reason = unavailableReason();
    if (reason != null) {
      return ReplayHitRates.unavailable(reason);
    }
    return ReplayHitRates.of(sequence(finalShare), capacityRecords);
  }

  /**
   * The logged operations as a sequence; the log hands its memory over, so this may be called
   * once. Call it after every appending thread has ended.
   *
   * @throws IllegalStateException when called again, or when {@link #unavailableReason} is not
   *     null
   */
  AccessSequence sequence(double finalShare) {
    if (replayed) {
      throw new IllegalStateException("the log was already replayed");
    }
    String reason = unavailableReason();
    if (reason != null) {
      throw new IllegalStateException(reason);
    }
    replayed = true;
    int length = (int) next.get();
    int[] ops = new int[length];
    for (int c = 0; (long) c * CHUNK_OPS < length; c++) {
      int from = c * CHUNK_OPS;
      // Released chunk by chunk, so the log and its copy do not both stay whole.
      System.arraycopy(chunks.getAndSet(c, null), 0, ops, from, Math.min(CHUNK_OPS, length - from));
    }
    return AccessSequence.of(ops, length, finalShare);
  }
}
