package io.hotrap.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ZipfianSamplerTest {

  /** Exact harmonic number, smallest terms first. */
  private static double directHarmonic(long m, double s) {
    double sum = 0;
    for (long i = m; i >= 1; i--) {
      sum += Math.pow(i, -s);
    }
    return sum;
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.5, 0.99, 1.0, 1.2, 2.0})
  void topRanksOfAHugeKeySpaceFollowTheory(double s) {
    long n = 50_000_000;
    ZipfianSampler z = new ZipfianSampler(n, s);
    SplittableRandom random = new SplittableRandom(11);
    int draws = 1_000_000;
    int[] top = new int[8];
    for (int i = 0; i < draws; i++) {
      long r = z.next(random);
      assertTrue(r >= 0 && r < n);
      if (r < top.length) {
        top[(int) r]++;
      }
    }
    double h = ZipfianSampler.harmonic(n, s);
    for (int r = 0; r < top.length; r++) {
      double p = Math.pow(r + 1, -s) / h;
      double sigma = Math.sqrt(p * (1 - p) / draws);
      assertEquals(p, (double) top[r] / draws, 5 * sigma + 1e-5,
          "rank " + r + " at s = " + s);
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.1, 0.8, 0.99, 1.0, 1.01, 3.0})
  void everyRankOfASmallKeySpacePassesChiSquare(double s) {
    int n = 30;
    ZipfianSampler z = new ZipfianSampler(n, s);
    SplittableRandom random = new SplittableRandom(5);
    int draws = 300_000;
    long[] counts = new long[n];
    for (int i = 0; i < draws; i++) {
      counts[(int) z.next(random)]++;
    }
    double h = directHarmonic(n, s);
    double chi2 = 0;
    for (int r = 0; r < n; r++) {
      double expected = draws * Math.pow(r + 1, -s) / h;
      chi2 += (counts[r] - expected) * (counts[r] - expected) / expected;
    }
    // 29 degrees of freedom: P(chi2 > 70) is about 3e-5.
    assertTrue(chi2 < 70, "chi-square " + chi2 + " at s = " + s);
  }

  @Test
  void oneRankAlwaysDrawsIt() {
    ZipfianSampler z = new ZipfianSampler(1, 0.99);
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < 1000; i++) {
      assertEquals(0, z.next(random));
    }
  }

  @Test
  void drawsStayInRangeForTheLargestKeySpace() {
    long n = WorkloadParams.MAX_RECORDS;
    ZipfianSampler z = new ZipfianSampler(n, 0.99);
    SplittableRandom random = new SplittableRandom(2);
    long max = 0;
    for (int i = 0; i < 200_000; i++) {
      long r = z.next(random);
      assertTrue(r >= 0 && r < n, "rank " + r);
      max = Math.max(max, r);
    }
    assertTrue(max > n / 100, "the tail is reached: largest rank " + max);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.5, 0.99, 1.0, 1.3})
  void harmonicNumbersMatchDirectSums(double s) {
    for (long m : new long[] {1, 2, 100, 16_384, 16_385, 16_386, 100_000, 2_000_000}) {
      double exact = directHarmonic(m, s);
      assertEquals(exact, ZipfianSampler.harmonic(m, s), exact * 1e-11, "H(" + m + ", " + s + ")");
    }
  }

  @Test
  void topShareIsTheHarmonicRatio() {
    ZipfianSampler z = new ZipfianSampler(1000, 0.99);
    assertEquals(0, z.topShare(0));
    assertEquals(1, z.topShare(1000));
    assertEquals(1, z.topShare(5000));
    assertEquals(directHarmonic(10, 0.99) / directHarmonic(1000, 0.99), z.topShare(10), 1e-12);
  }

  @Test
  void rejectsImpossibleParameters() {
    assertThrows(IllegalArgumentException.class, () -> new ZipfianSampler(0, 1));
    assertThrows(IllegalArgumentException.class, () -> new ZipfianSampler(10, 0));
    assertThrows(IllegalArgumentException.class, () -> new ZipfianSampler(10, Double.NaN));
  }
}
