package io.hotrap.bench.workload;

import java.util.SplittableRandom;

/**
 * How popular each popularity rank of a key space {@code [0, n)} is: rank 0 is (one of) the most
 * popular. A {@link Workload} maps ranks to key ids; the distribution knows nothing of keys.
 *
 * <p>Immutable and thread-safe: draws use the caller's random source.
 */
abstract class RankDistribution {

  final int n;

  RankDistribution(int n) {
    if (n <= 0) {
      throw new IllegalArgumentException("n must be positive but was " + n);
    }
    this.n = n;
  }

  /** A rank in {@code [0, n)}. */
  abstract int next(SplittableRandom random);

  /**
   * The share of draws that go to the {@code count} most popular ranks: the hit rate of a cache
   * that holds exactly those (the oracle of DESIGN.md §12).
   */
  abstract double topShare(long count);

  /** Every rank equally likely. */
  static RankDistribution uniform(int n) {
    return new Uniform(n);
  }

  /**
   * {@code hotShare} of the draws go uniformly to the {@code hotCount} ranks starting at
   * {@code firstHot}, the rest uniformly to the other ranks.
   */
  static RankDistribution hotspot(int n, int firstHot, int hotCount, double hotShare) {
    return new Hotspot(n, firstHot, hotCount, hotShare);
  }

  /** Zipfian with exponent {@code s}. */
  static RankDistribution zipfian(int n, double s) {
    return new Zipfian(n, s);
  }

  /**
   * db_bench's {@code read_random_exp_range} (SAS-Cache's "Exp Range", Table II): a draw is
   * {@code floor(exp(-u * range) * (n + 1))} for u uniform in [0, 1), so its density falls as 1/x
   * from {@code (n + 1) e^-range} up to n; larger ranges are more skewed. Ranks count from the
   * most popular draw; the ranks below {@code (n + 1) e^-range} are never drawn, as in db_bench.
   */
  static RankDistribution expRange(int n, double range) {
    return new ExpRange(n, range);
  }

  /** The number of ranks that make up {@code fraction} of {@code n}, at least one. */
  static int count(int n, double fraction) {
    return (int) Math.max(1, Math.round(fraction * n));
  }

  private static final class Uniform extends RankDistribution {

    Uniform(int n) {
      super(n);
    }

    @Override
    int next(SplittableRandom random) {
      return random.nextInt(n);
    }

    @Override
    double topShare(long count) {
      return Math.max(0, Math.min(count, n)) / (double) n;
    }
  }

  private static final class Hotspot extends RankDistribution {

    private final int firstHot;
    private final int hotCount;
    private final int coldCount;
    private final double hotShare;

    Hotspot(int n, int firstHot, int hotCount, double hotShare) {
      super(n);
      if (hotCount <= 0 || firstHot < 0 || (long) firstHot + hotCount > n) {
        throw new IllegalArgumentException("hot ranks [" + firstHot + ", "
            + ((long) firstHot + hotCount) + ") do not fit " + n + " ranks");
      }
      if (!(hotShare >= 0 && hotShare <= 1)) {
        throw new IllegalArgumentException("hotShare must be in [0, 1] but was " + hotShare);
      }
      this.firstHot = firstHot;
      this.hotCount = hotCount;
      this.coldCount = n - hotCount;
      // With no cold ranks every draw is hot, whatever the share says.
      this.hotShare = coldCount == 0 ? 1 : hotShare;
    }

    @Override
    int next(SplittableRandom random) {
      if (hotShare >= 1 || random.nextDouble() < hotShare) {
        return firstHot + random.nextInt(hotCount);
      }
      int r = random.nextInt(coldCount);
      return r < firstHot ? r : r + hotCount;
    }

    @Override
    double topShare(long count) {
      if (count <= 0) {
        return 0;
      }
      if (count >= n) {
        return 1;
      }
      double hotEach = hotShare / hotCount;
      double coldEach = coldCount == 0 ? 0 : (1 - hotShare) / coldCount;
      long hot;
      long cold;
      if (hotEach >= coldEach) {
        hot = Math.min(count, hotCount);
        cold = count - hot;
      } else {
        cold = Math.min(count, coldCount);
        hot = count - cold;
      }
      return Math.min(1, hot * hotEach + cold * coldEach);
    }
  }

  private static final class ExpRange extends RankDistribution {
    private final double range;
    private final long lowest;

    ExpRange(int n, double range) {
      super(n);
      if (!(range > 0) || Double.isInfinite(range)) {
        throw new IllegalArgumentException("range must be positive and finite but was " + range);
      }
      this.range = range;
      this.lowest = (long) Math.floor((n + 1.0) * Math.exp(-range));
    }

    @Override
    int next(SplittableRandom random) {
      long v = (long) (Math.exp(-random.nextDouble() * range) * (n + 1.0));
      return (int) Math.max(0, Math.min(n - 1, v - lowest));
    }

    @Override
    double topShare(long count) {
      if (count <= 0) {
        return 0;
      }
      double share = 1 - Math.log((n + 1.0) / (lowest + count)) / range;
      return Math.max(0, Math.min(1, share));
    }
  }

  private static final class Zipfian extends RankDistribution {

    private final ZipfianSampler sampler;

    Zipfian(int n, double s) {
      super(n);
      this.sampler = new ZipfianSampler(n, s);
    }

    @Override
    int next(SplittableRandom random) {
      return (int) sampler.next(random);
    }

    @Override
    double topShare(long count) {
      return sampler.topShare(count);
    }
  }
}
