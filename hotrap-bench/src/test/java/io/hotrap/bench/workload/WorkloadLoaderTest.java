package io.hotrap.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WorkloadLoaderTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7, 16})
  void threadsTogetherWriteEveryRecordExactlyOnce(int threads) {
    int records = 100_003;
    Workload w = Workload.parse("RO-hotspot5", new WorkloadParams(records, 176, 0, 9, 0.99));
    assertEquals(records, w.loadRecords());
    int[] writes = new int[records];
    Operation op = new Operation();
    for (int t = 0; t < threads; t++) {
      OperationGenerator g = w.loader(t, threads);
      int count = 0;
      while (g.next(op)) {
        assertEquals(Operation.Type.INSERT, op.type);
        assertEquals("load", op.phase);
        assertEquals(176, op.valueBytes);
        assertEquals(op.keyId, Keys.id(op.key));
        writes[(int) op.keyId]++;
        count++;
      }
      assertEquals(records / (double) threads, count, 1.0, "thread " + t + "'s share");
    }
    for (int id = 0; id < records; id++) {
      assertEquals(1, writes[id], "writes of id " + id);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 1000})
  void tinyKeySpacesLoadToo(int records) {
    Workload w = Workload.parse("RW-uniform", new WorkloadParams(records, 1, 0, 1, 0.99));
    int[] writes = new int[records];
    for (int t = 0; t < 4; t++) {
      for (Operation op : Drain.all(w.loader(t, 4))) {
        writes[(int) op.keyId]++;
      }
    }
    for (int n : writes) {
      assertEquals(1, n);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void loadOrderIsScatteredNotSorted(int threads) {
    int records = 50_000;
    Workload w = Workload.parse("RO-uniform", new WorkloadParams(records, 1, 0, 1, 0.99));
    for (int t = 0; t < threads; t++) {
      long previous = -1;
      int ascendingNeighbours = 0;
      long firstThousandMin = Long.MAX_VALUE;
      long firstThousandMax = Long.MIN_VALUE;
      int i = 0;
      for (Operation op : Drain.all(w.loader(t, threads))) {
        ascendingNeighbours += op.keyId == previous + 1 ? 1 : 0;
        previous = op.keyId;
        if (i++ < 1000) {
          firstThousandMin = Math.min(firstThousandMin, op.keyId);
          firstThousandMax = Math.max(firstThousandMax, op.keyId);
        }
      }
      assertTrue(ascendingNeighbours < 10, ascendingNeighbours + " sequential neighbours");
      long range = records / threads;
      assertTrue(firstThousandMax - firstThousandMin > range * 9 / 10,
          "the first thousand inserts span the thread's range");
    }
  }
}
