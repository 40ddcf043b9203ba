package io.hotrap.bench.workload;

/**
 * The load phase of a generated workload on one thread: inserts of the ids {@code [from, to)},
 * each exactly once, in a scattered order. Position i of the thread's range writes id
 * {@code from + (a·i + c) mod m}, with {@code m = to - from} and a multiplier a near
 * {@code m / φ} that is coprime to m (so the map is a bijection): consecutive inserts land far
 * apart and every stretch of them covers the range evenly, as YCSB's hashed insert order does. A
 * sorted load would instead let the LSM-tree move whole files down untouched and leave every level
 * but the last one empty, unlike the paper's loaded state.
 *
 * <p>Not thread-safe.
 */
final class RangeLoader implements OperationGenerator {

  private static final double INVERSE_GOLDEN_RATIO = 0.6180339887498949;

  private final long from;
  private final long m;
  private final long a;
  private final long c;
  private final int valueBytes;
  private final String phase;
  private long i;

  RangeLoader(long from, long to, long offsetSeed, int valueBytes, String phase) {
    this.from = from;
    this.m = to - from;
    this.a = m <= 1 ? 1 : coprimeNear((long) (m * INVERSE_GOLDEN_RATIO), m);
    this.c = m <= 1 ? 0 : Math.floorMod(offsetSeed, m);
    this.valueBytes = valueBytes;
    this.phase = phase;
  }

  @Override
  public boolean next(Operation op) {
    if (i >= m) {
      return false;
    }
    // a, i < m <= 2^31, so a·i + c cannot overflow.
    long id = from + (a * i + c) % m;
    i++;
    op.type = Operation.Type.INSERT;
    op.key = Keys.key(id);
    op.keyId = id;
    op.valueBytes = valueBytes;
    op.phase = phase;
    return true;
  }

  /** The smallest number at or above {@code start} (wrapping to 1) that is coprime to m. */
  static long coprimeNear(long start, long m) {
    long a = Math.max(1, start);
    while (gcd(a, m) != 1) {
      a = a + 1 < m ? a + 1 : 1;
    }
    return a;
  }

  private static long gcd(long x, long y) {
    while (y != 0) {
      long t = x % y;
      x = y;
      y = t;
    }
    return x;
  }
}
