package io.hotrap.bench.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkloadRunnerTest {

  private static WorkloadParams params(long records, long runOperations) {
    return new WorkloadParams(records, 200, runOperations, 42, 0.99);
  }

  @Test
  void hotspot5SendsNinetyFivePercentOfReadsToFivePercentOfKeysScatteredOverTheKeySpace() {
    int records = 100_000;
    Workload w = Workload.parse("RO-hotspot5", params(records, 400_000));
    int[] counts = Drain.readCounts(w.runner(0, 1), records);

    // A hot key expects 76 reads, a cold one 0.2: 20 separates them with certainty.
    List<Integer> hot = new ArrayList<>();
    long hotReads = 0;
    for (int id = 0; id < records; id++) {
      if (counts[id] >= 20) {
        hot.add(id);
        hotReads += counts[id];
      }
    }
    assertEquals(5_000, hot.size());
    assertEquals(0.95, hotReads / 400_000.0, 0.005);

    // Scrambled: every tenth of the key space holds about a tenth of the hot keys.
    int[] perTenth = new int[10];
    for (int id : hot) {
      perTenth[id / (records / 10)]++;
    }
    for (int n : perTenth) {
      assertEquals(500, n, 100, "hot keys per tenth of the key space");
    }
    int adjacent = 0;
    for (int i = 1; i < hot.size(); i++) {
      adjacent += hot.get(i) == hot.get(i - 1) + 1 ? 1 : 0;
    }
    assertTrue(adjacent < 500, adjacent + " of 5000 hot ids are next to another");
  }

  @ParameterizedTest
  @EnumSource(Mix.class)
  void mixSharesMatchTheMix(Mix mix) {
    int records = 10_000;
    Workload w = Workload.parse(mix + "-uniform", params(records, 200_000));
    int reads = 0;
    int inserts = 0;
    int updates = 0;
    Operation op = new Operation();
    OperationGenerator g = w.runner(0, 1);
    while (g.next(op)) {
      assertEquals(Keys.KEY_BYTES, op.key.length);
      assertEquals(op.keyId, Keys.id(op.key));
      assertEquals(200, op.valueBytes);
      assertEquals("run", op.phase);
      switch (op.type) {
        case READ -> reads++;
        case INSERT -> inserts++;
        case UPDATE -> {
          updates++;
          assertTrue(op.keyId < records, "updates go to loaded keys");
        }
        default -> throw new AssertionError(op.type);
      }
    }
    assertEquals(200_000, reads + inserts + updates);
    assertEquals(mix.readShare(), reads / 200_000.0, 0.005);
    if (mix.writesInsert()) {
      assertEquals(0, updates);
    } else {
      assertEquals(0, inserts);
    }
  }

  @Test
  void readsStayInTheLoadedKeySpace() {
    int records = 1_000;
    for (String dist : List.of("hotspot5", "zipf", "uniform", "dynamic")) {
      Operation op = new Operation();
      OperationGenerator g = Workload.parse("WH-" + dist, params(records, 50_000)).runner(0, 1);
      while (g.next(op)) {
        if (op.type == Operation.Type.READ) {
          assertTrue(op.keyId >= 0 && op.keyId < records, dist + " read " + op.keyId);
        }
      }
    }
  }

  @Test
  void insertsAreFreshAndUniqueAcrossThreads() {
    int records = 1_000;
    Workload w = Workload.parse("WH-zipf", params(records, 40_001));
    Set<Long> inserted = new HashSet<>();
    int count = 0;
    for (int t = 0; t < 4; t++) {
      for (Operation op : Drain.all(w.runner(t, 4))) {
        if (op.type == Operation.Type.INSERT) {
          assertTrue(op.keyId >= records, "insert of loaded id " + op.keyId);
          assertTrue(inserted.add(op.keyId), "id " + op.keyId + " inserted twice");
          count++;
        }
      }
    }
    assertEquals(0.5, count / 40_001.0, 0.01);
  }

  @Test
  void threadSharesAddUpToTheBudget() {
    Workload w = Workload.parse("RW-hotspot5", params(1_000, 10));
    int[] expected = {4, 3, 3};
    for (int t = 0; t < 3; t++) {
      assertEquals(expected[t], Drain.all(w.runner(t, 3)).size());
    }
    Operation op = new Operation();
    OperationGenerator g = w.runner(0, 3);
    while (g.next(op)) {
      // drained
    }
    assertFalse(g.next(op), "stays exhausted");
    assertTrue(Drain.all(Workload.parse("RO-uniform", params(1_000, 0)).runner(0, 1)).isEmpty());
  }

  @Test
  void sameSeedThreadAndThreadsGiveTheSameOperations() {
    for (String name : List.of("RW-hotspot5", "UH-zipf", "WH-uniform", "RO-dynamic",
        "UH-latest")) {
      long[] a = fingerprint(Workload.parse(name, params(5_000, 20_000)).runner(1, 3));
      long[] b = fingerprint(Workload.parse(name, params(5_000, 20_000)).runner(1, 3));
      assertArrayEquals(a, b, name);
      long[] otherSeed = fingerprint(
          Workload.parse(name, params(5_000, 20_000).withSeed(43)).runner(1, 3));
      assertFalse(Arrays.equals(a, otherSeed), name + " ignores the seed");
      long[] otherThread = fingerprint(Workload.parse(name, params(5_000, 20_000)).runner(2, 3));
      assertFalse(Arrays.equals(a, otherThread), name + " repeats across threads");
    }
  }

  private static long[] fingerprint(OperationGenerator g) {
    List<Operation> ops = Drain.all(g);
    long[] f = new long[ops.size()];
    for (int i = 0; i < f.length; i++) {
      Operation op = ops.get(i);
      f[i] = op.keyId * 31 + op.type.ordinal() * 7L + op.phase.hashCode();
    }
    return f;
  }

  @Test
  void hotKeysDependOnTheSeed() {
    int records = 10_000;
    int[] a = Drain.readCounts(
        Workload.parse("RO-zipf", params(records, 100_000)).runner(0, 1), records);
    int[] b = Drain.readCounts(
        Workload.parse("RO-zipf", params(records, 100_000).withSeed(7)).runner(0, 1), records);
    assertNotEquals(argmax(a), argmax(b));
  }

  private static int argmax(int[] counts) {
    int best = 0;
    for (int i = 1; i < counts.length; i++) {
      if (counts[i] > counts[best]) {
        best = i;
      }
    }
    return best;
  }

  @Test
  void latestWithoutInsertsFavoursTheHighestLoadedIds() {
    int records = 10_000;
    Workload w = Workload.parse("RO-latest", params(records, 200_000));
    int[] counts = Drain.readCounts(w.runner(0, 1), records);
    for (int r = 0; r < 5; r++) {
      double p = Math.pow(r + 1, -0.99) / ZipfianSampler.harmonic(records, 0.99);
      assertEquals(p, counts[records - 1 - r] / 200_000.0, 0.004, "recency rank " + r);
    }
    assertTrue(counts[records - 1] > counts[records - 2]);
    assertTrue(counts[records - 2] > counts[records - 10]);
  }

  @Test
  void latestReadsFollowTheInsertsOfItsOwnThread() {
    int records = 1_000;
    Workload w = Workload.parse("WH-latest", params(records, 20_000));
    long newest = records - 1;
    int readsOfInserted = 0;
    int readsOfNewest = 0;
    int reads = 0;
    for (Operation op : Drain.all(w.runner(0, 1))) {
      if (op.type == Operation.Type.INSERT) {
        assertEquals(newest + 1, op.keyId, "inserts continue the id sequence");
        newest = op.keyId;
      } else {
        reads++;
        assertTrue(op.keyId <= newest, "read " + op.keyId + " before its insert " + newest);
        readsOfInserted += op.keyId >= records ? 1 : 0;
        readsOfNewest += op.keyId == newest ? 1 : 0;
      }
    }
    assertTrue(readsOfInserted > reads * 0.9, readsOfInserted + " of " + reads);
    double p0 = 1 / ZipfianSampler.harmonic(records, 0.99);
    assertEquals(p0, readsOfNewest / (double) reads, 0.01);
  }

  @Test
  void latestAcrossThreadsReadsOnlyInsertsThatWereHandedOut() throws InterruptedException {
    int records = 1_000;
    int threads = 4;
    Workload w = Workload.parse("RW-latest", params(records, 200_000));
    Set<Long> inserted = ConcurrentHashMap.newKeySet();
    List<Long> readIds = Collections.synchronizedList(new ArrayList<>());
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      OperationGenerator g = w.runner(t, threads);
      Thread worker = new Thread(() -> {
        Operation op = new Operation();
        while (g.next(op)) {
          if (op.type == Operation.Type.INSERT) {
            inserted.add(op.keyId);
          } else {
            readIds.add(op.keyId);
          }
        }
      });
      workers.add(worker);
      worker.start();
    }
    for (Thread worker : workers) {
      worker.join();
    }
    assertEquals(0.25, inserted.size() / 200_000.0, 0.01);
    long maxInserted = records - 1 + inserted.size();
    for (long id = records; id <= maxInserted; id++) {
      assertTrue(inserted.contains(id), "ids are handed out without gaps: " + id);
    }
    int ofInserted = 0;
    for (long id : readIds) {
      assertTrue(id < records || inserted.contains(id), "read of an id never inserted " + id);
      ofInserted += id >= records ? 1 : 0;
    }
    assertTrue(ofInserted > readIds.size() / 2, "reads follow the inserts: " + ofInserted);
  }
}
