package io.hotrap.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OracleHitRateTest {

  private static final int RECORDS = 2_000;
  private static final int READS = 4_000_000;

  /**
   * The oracle against the top-k reads of a sampled stream. With 2,000 reads per key on average
   * the sampling noise lifts the empirical top-k of a uniform stream by under a point.
   */
  @ParameterizedTest
  @ValueSource(strings = {"RO-hotspot5", "RO-zipf", "RO-zipf0.5", "RO-uniform", "RO-exprange5",
      "RO-exprange25"})
  void matchesTheTopKOfASampledStream(String name) {
    Workload w = Workload.parse(name, new WorkloadParams(RECORDS, 1, READS, 17, 0.99));
    int[] counts = Drain.readCounts(w.runner(0, 1), RECORDS);
    for (int top : new int[] {1, 20, 100, 500, 1_500}) {
      assertEquals(w.oracleHitRate(top), Drain.topShare(counts, top), 0.012,
          name + ", top " + top);
    }
  }

  @Test
  void boundsAreZeroAndOne() {
    Workload w = Workload.parse("RO-zipf", new WorkloadParams(RECORDS, 1, 0, 17, 0.99));
    assertEquals(0, w.oracleHitRate(0));
    assertEquals(0, w.oracleHitRate(-5));
    assertEquals(1, w.oracleHitRate(RECORDS));
    assertEquals(1, w.oracleHitRate(Long.MAX_VALUE));
  }

  @Test
  void analyticValues() {
    WorkloadParams p = new WorkloadParams(1_000_000, 1, 0, 17, 0.99);
    assertEquals(0.95, Workload.parse("RO-hotspot5", p).oracleHitRate(50_000), 1e-12);
    assertEquals(0.95 + 0.05 * 50_000 / 950_000,
        Workload.parse("RO-hotspot5", p).oracleHitRate(100_000), 1e-12);
    assertEquals(0.25, Workload.parse("RO-uniform", p).oracleHitRate(250_000), 1e-12);
    assertEquals(ZipfianSampler.harmonic(1000, 0.99) / ZipfianSampler.harmonic(1_000_000, 0.99),
        Workload.parse("RO-zipf", p).oracleHitRate(1000), 1e-12);
    assertEquals(Workload.parse("RO-zipf", p).oracleHitRate(1000),
        Workload.parse("WH-latest", p).oracleHitRate(1000), 1e-12);
  }
}
