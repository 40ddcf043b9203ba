package io.hotrap.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DynamicWorkloadTest {

  private static final int RECORDS = 20_000;
  private static final int PER_PHASE = 60_000;

  /** Reads per id, per phase, in the order phases appear. */
  private static Map<String, int[]> readsByPhase(OperationGenerator g, List<String> order) {
    Map<String, int[]> byPhase = new LinkedHashMap<>();
    Operation op = new Operation();
    while (g.next(op)) {
      if (!byPhase.containsKey(op.phase)) {
        order.add(op.phase);
      }
      byPhase.computeIfAbsent(op.phase, p -> new int[RECORDS])[(int) op.keyId]++;
    }
    return byPhase;
  }

  /** Ids read at least 15 times: a hot key expects 57 or more reads, a cold one below 4. */
  private static Set<Integer> hot(int[] counts) {
    Set<Integer> hot = new HashSet<>();
    for (int id = 0; id < counts.length; id++) {
      if (counts[id] >= 15) {
        hot.add(id);
      }
    }
    return hot;
  }

  @Test
  void phasesComeInOrderWithEqualCountsAndTheHotSetGrowsMovesAndShrinks() {
    Workload w = Workload.parse("RO-dynamic",
        new WorkloadParams(RECORDS, 100, 7L * PER_PHASE, 3, 0.99));
    List<String> order = new ArrayList<>();
    Map<String, int[]> reads = readsByPhase(w.runner(0, 1), order);
    assertEquals(w.phases(), order);

    for (String phase : order) {
      int total = 0;
      for (int c : reads.get(phase)) {
        total += c;
      }
      assertEquals(PER_PHASE, total, phase);
    }

    assertTrue(hot(reads.get("uniform")).isEmpty());
    Set<Integer> one = hot(reads.get("hotspot-1%"));
    Set<Integer> three = hot(reads.get("hotspot-3%"));
    Set<Integer> five = hot(reads.get("hotspot-5%"));
    Set<Integer> shifted = hot(reads.get("hotspot-5%-shifted"));
    Set<Integer> four = hot(reads.get("hotspot-4%"));
    Set<Integer> two = hot(reads.get("hotspot-2%"));
    assertEquals(200, one.size());
    assertEquals(600, three.size());
    assertEquals(1000, five.size());
    assertEquals(1000, shifted.size());
    assertEquals(800, four.size());
    assertEquals(400, two.size());

    assertTrue(three.containsAll(one) && five.containsAll(three), "1% ⊂ 3% ⊂ 5%");
    Set<Integer> overlap = new HashSet<>(five);
    overlap.retainAll(shifted);
    assertTrue(overlap.isEmpty(), "the shifted 5% shares no key with the first 5%");
    assertTrue(shifted.containsAll(four) && four.containsAll(two), "2% ⊂ 4% ⊂ shifted 5%");

    for (String phase : order.subList(1, order.size())) {
      int[] counts = reads.get(phase);
      long hotReads = 0;
      for (int id : hot(counts)) {
        hotReads += counts[id];
      }
      assertEquals(0.95, hotReads / (double) PER_PHASE, 0.01, phase);
    }
  }

  @Test
  void everyThreadWalksThroughAllPhases() {
    Workload w = Workload.parse("UH-dynamic", new WorkloadParams(RECORDS, 100, 7_003, 3, 0.99));
    for (int t = 0; t < 3; t++) {
      List<Operation> ops = Drain.all(w.runner(t, 3));
      Map<String, Integer> counts = new LinkedHashMap<>();
      for (Operation op : ops) {
        counts.merge(op.phase, 1, Integer::sum);
      }
      assertEquals(w.phases(), new ArrayList<>(counts.keySet()));
      for (int n : counts.values()) {
        assertEquals(ops.size() / 7.0, n, 1.0);
      }
    }
  }

  @Test
  void oracleIsTheMeanOfThePhases() {
    Workload w = Workload.parse("RO-dynamic", new WorkloadParams(RECORDS, 100, 0, 3, 0.99));
    long capacity = 1_000;
    double cold = 0.05;
    double expected = (capacity / (double) RECORDS
        + 0.95 + 800 * cold / (RECORDS - 200)
        + 0.95 + 400 * cold / (RECORDS - 600)
        + 0.95
        + 0.95
        + 0.95 + 200 * cold / (RECORDS - 800)
        + 0.95 + 600 * cold / (RECORDS - 400)) / 7;
    assertEquals(expected, w.oracleHitRate(capacity), 1e-12);
  }
}
