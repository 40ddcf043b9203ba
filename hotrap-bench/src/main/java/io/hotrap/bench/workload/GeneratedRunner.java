package io.hotrap.bench.workload;

import java.util.SplittableRandom;

/**
 * The run phase of a generated (not replayed) workload on one thread: {@code share} operations,
 * each a read with probability {@code readShare}, else a write. Reads and updates draw a popularity
 * rank from the current phase's distribution and map it to a key id; inserts take fresh ids.
 *
 * <p>Key ids, by rank r:
 *
 * <ul>
 *   <li>scrambled distributions: {@code rankToId[r]}, a seeded permutation shared by all threads,
 *       so hot keys lie all over the key space rather than in one range;
 *   <li>recency ({@code latest}): {@code newest - r}, where newest is the highest id loaded or, with
 *       inserts, the highest id below {@link InsertSequence#written()};
 *   <li>uniform: r itself.
 * </ul>
 *
 * <p>Insert ids are {@code records + thread + k·threads} for this thread's k-th insert, so threads
 * never collide and the sequence depends only on the thread; {@code latest} instead claims ids from
 * the workload's shared {@link InsertSequence} and acknowledges each on the following call.
 *
 * <p>Nothing is allocated per operation but the key. Not thread-safe.
 */
final class GeneratedRunner implements OperationGenerator {

  private final SplittableRandom random;
  private final long share;
  private final double readShare;
  private final Operation.Type writeType;
  private final RankDistribution[] distributions;
  private final String[] phaseNames;
  private final int[] rankToId;
  private final boolean recency;
  private final InsertSequence sequence;
  private final long records;
  private final int valueBytes;
  private final int thread;
  private final int threads;

  private long index;
  private long inserts;
  /** An id claimed from {@link #sequence} whose insert has not been acknowledged, or -1. */
  private long unacknowledged = -1;

  GeneratedRunner(SplittableRandom random, long share, Mix mix, RankDistribution[] distributions,
      String[] phaseNames, int[] rankToId, boolean recency, InsertSequence sequence, long records,
      int valueBytes, int thread, int threads) {
    this.random = random;
    this.share = share;
    this.readShare = mix.readShare();
    this.writeType = mix.writesInsert() ? Operation.Type.INSERT : Operation.Type.UPDATE;
    this.distributions = distributions;
    this.phaseNames = phaseNames;
    this.rankToId = rankToId;
    this.recency = recency;
    this.sequence = sequence;
    this.records = records;
    this.valueBytes = valueBytes;
    this.thread = thread;
    this.threads = threads;
  }

  @Override
  public boolean next(Operation op) {
    if (unacknowledged >= 0) {
      sequence.acknowledge(unacknowledged);
      unacknowledged = -1;
    }
    if (index >= share) {
      return false;
    }
    // Phase p covers indexes [p·share/phases, (p+1)·share/phases): equal shares, give or take one.
    int phase = distributions.length == 1 ? 0 : (int) (index * distributions.length / share);
    index++;
    boolean read = readShare >= 1 || random.nextDouble() < readShare;
    long id;
    if (!read && writeType == Operation.Type.INSERT) {
      if (sequence != null) {
        id = sequence.claim();
        unacknowledged = id;
      } else {
        id = records + thread + inserts * threads;
      }
      inserts++;
    } else {
      int rank = distributions[phase].next(random);
      if (recency) {
        long newest = sequence == null ? records - 1 : sequence.written() - 1;
        id = newest - rank;
      } else {
        id = rankToId == null ? rank : rankToId[rank];
      }
    }
    op.type = read ? Operation.Type.READ : writeType;
    op.key = Keys.key(id);
    op.keyId = id;
    op.valueBytes = valueBytes;
    op.phase = phaseNames[phase];
    return true;
  }
}
