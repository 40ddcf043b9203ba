package io.hotrap.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

class SkewDetectorTest {
  private static byte[] k(long i) {
    return ("user" + i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void varianceIsTheVarianceOfPerKeyCountsOverTheDistinctKeysOfTheWindow() {
    List<SkewDetector.Window> closed = new ArrayList<>();
    // 1000 records of 10 bytes close a 10,000-byte window.
    SkewDetector d = new SkewDetector(10_000, 1.0, 0.5, closed::add);
    // Counts: key 0 x 500, keys 1..500 x 1 -> n = 501 keys, sum f = 1000, sum f^2 = 250,000 + 500.
    for (int i = 0; i < 500; i++) {
      d.record(k(0), 10);
      d.record(k(1 + i), 10);
    }
    assertEquals(1, closed.size());
    SkewDetector.Window w = closed.get(0);
    assertEquals(1000, w.records);
    assertEquals(501, w.distinct);
    double mean = 1000.0 / 501;
    double expected = 250_500.0 / 501 - mean * mean;
    assertEquals(expected, w.variance, 1e-9);
    assertTrue(w.skewed);
    assertEquals(500, w.counts().get(ByteArrayKey.wrap(k(0)))[0]);
    // Every key is listed with its bytes, the keys seen once too.
    assertEquals(501, w.counts().size());
    assertEquals(1, w.counts().get(ByteArrayKey.wrap(k(500)))[0]);
    assertEquals(500, w.count(k(0)));
    assertEquals(1, w.count(k(1)));
    assertEquals(1, w.count(k(500)));
    assertEquals(0, w.count(k(501)));
  }

  @Test
  void aWindowOfManyDistinctKeysGrowsItsTableAndKeepsEveryCount() {
    List<SkewDetector.Window> closed = new ArrayList<>();
    // 20,000 distinct keys (the table starts at 1,024 slots), key i written 1 + i % 3 times:
    // 39,999 records of one byte.
    SkewDetector d = new SkewDetector(44_000, 1.0, 0.5, closed::add);
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 20_000; i++) {
        if (round <= i % 3) {
          d.record(k(i), 1);
        }
      }
    }
    assertEquals(0, closed.size(), "the window holds 44,000 bytes");
    for (int i = 0; i < 4_001; i++) {
      d.record(k(0), 1); // fill it: key 0 ends at 1 + 4,001
    }
    assertEquals(1, closed.size());
    SkewDetector.Window w = closed.get(0);
    assertEquals(20_000, w.distinct);
    assertEquals(44_000, w.records);
    for (int i = 1; i < 20_000; i++) {
      assertEquals(1 + i % 3, w.count(k(i)), "key " + i);
      assertEquals(1 + i % 3, w.counts().get(ByteArrayKey.wrap(k(i)))[0], "key " + i);
    }
    assertEquals(4_002, w.count(k(0)));
    assertEquals(20_000, w.counts().size());
  }

  @Test
  void distinctKeysHaveVarianceZeroAndAreNotSkewed() {
    List<SkewDetector.Window> closed = new ArrayList<>();
    SkewDetector d = new SkewDetector(10_000, 1.0, 0.5, closed::add);
    for (int i = 0; i < 1000; i++) {
      d.record(k(i), 10);
    }
    assertEquals(1, closed.size());
    assertEquals(0.0, closed.get(0).variance, 1e-12);
    assertFalse(closed.get(0).skewed);
    assertFalse(d.skewed());
  }

  @Test
  void theDecisionHasHysteresisBetweenTheOffAndOnThresholds() {
    List<SkewDetector.Window> closed = new ArrayList<>();
    int n = SkewDetector.MIN_WINDOW_RECORDS;
    SkewDetector d = new SkewDetector(10L * n, 1.0, 0.5, closed::add);
    // Windows of n records: key 0 c times, the rest distinct. c = 40: variance ~7; c = 14: ~0.69
    // (inside the band); c = 5: ~0.06; c = 1: 0.
    int[] repeats = {40, 14, 40, 5, 1, 14};
    for (int c : repeats) {
      int window = closed.size();
      for (int i = 0; i < n; i++) {
        d.record(i < c ? k(0) : k(1_000_000L * (window + 1) + i), 10);
      }
    }
    assertEquals(repeats.length, closed.size());
    double[] v = closed.stream().mapToDouble(w -> w.variance).toArray();
    String all = java.util.Arrays.toString(v);
    assertTrue(v[0] > 1.0 && v[2] > 1.0, all);
    assertTrue(v[1] > 0.5 && v[1] <= 1.0 && v[5] > 0.5 && v[5] <= 1.0, all);
    assertTrue(v[3] < 0.5, all);
    assertTrue(closed.get(0).skewed);
    assertTrue(closed.get(1).skewed, "inside the band a skewed stream stays skewed");
    assertTrue(closed.get(2).skewed);
    assertFalse(closed.get(3).skewed, "below the off threshold it turns off");
    assertFalse(closed.get(4).skewed);
    assertFalse(closed.get(5).skewed, "inside the band an unskewed stream stays unskewed");
  }

  @Test
  void aWindowNeedsAMinimumOfRecordsEvenWhenTheyAreLarge() {
    List<SkewDetector.Window> closed = new ArrayList<>();
    SkewDetector d = new SkewDetector(1000, 1.0, 0.5, closed::add);
    for (int i = 0; i < SkewDetector.MIN_WINDOW_RECORDS - 1; i++) {
      d.record(k(i), 100_000);
    }
    assertTrue(closed.isEmpty());
    d.record(k(-1), 1);
    assertEquals(1, closed.size());
  }

  @Test
  void theDetectorKeepsItsOwnCopyOfEachKey() {
    List<SkewDetector.Window> closed = new ArrayList<>();
    SkewDetector d = new SkewDetector(10_000, 1.0, 0.5, closed::add);
    byte[] key = k(7);
    d.record(key, 10);
    key[0] = 'X';
    for (int i = 0; i < 999; i++) {
      d.record(k(7), 10);
    }
    assertEquals(1000, closed.get(0).counts().get(ByteArrayKey.wrap(k(7)))[0]);
  }

  @Test
  void concurrentRecordersLoseNoCountAndTheIncrementalSumOfSquaresMatchesTheCounts() throws Exception {
    List<SkewDetector.Window> closed = java.util.Collections.synchronizedList(new ArrayList<>());
    int threads = 4;
    int perThread = 50_000;
    // Records of one byte and a window of exactly all of them: the last record closes it, after
    // every other record has counted its key.
    SkewDetector d = new SkewDetector((long) threads * perThread, 1.0, 0.5, closed::add);
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long seed = t;
      Thread th = new Thread(() -> {
        SplittableRandom r = new SplittableRandom(seed);
        try {
          start.await();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
        for (int i = 0; i < perThread; i++) {
          // Skewed: key j with probability ~ 1/(j+1).
          d.record(k((long) Math.floor(Math.exp(r.nextDouble() * Math.log(1000))) - 1), 1);
        }
      });
      ts.add(th);
      th.start();
    }
    for (Thread th : ts) {
      th.join();
    }
    assertEquals(1, closed.size());
    SkewDetector.Window w = closed.get(0);
    long sum = 0;
    double squares = 0;
    assertEquals(w.distinct, w.counts().size());
    for (int[] c : w.counts().values()) {
      sum += c[0];
      squares += (double) c[0] * c[0];
    }
    assertEquals((long) threads * perThread, sum);
    assertEquals(w.records, sum);
    double mean = (double) sum / w.distinct;
    assertEquals(squares / w.distinct - mean * mean, w.variance, 1e-6 * w.variance);
    assertTrue(w.skewed);
  }

  @Test
  void aPlainlyUniformWindowSkipsTheNextQuietWindowsAndCountingResumesAfterThem() {
    List<SkewDetector.Window> closed = new ArrayList<>();
    // Windows of 1,000 records of 10 bytes; three windows (30,000 bytes) skipped after a quiet one.
    SkewDetector d = new SkewDetector(10_000, 1.0, 0.5, 3, closed::add);
    long next = 0;
    for (int i = 0; i < 1000; i++) {
      d.record(k(next++), 10);
    }
    assertEquals(1, closed.size());
    assertFalse(closed.get(0).skewed);
    // 2,999 records are skipped; the 3,000th brings the skip to 0 and is the first counted again.
    for (int i = 0; i < 2999; i++) {
      d.record(k(next++), 10);
    }
    assertEquals(2999, d.skippedRecords());
    for (int i = 0; i < 999; i++) {
      d.record(k(next++), 10);
    }
    assertEquals(1, closed.size(), "the second window has 999 of its 1,000 records");
    d.record(k(next++), 10);
    assertEquals(2, closed.size());
    assertEquals(1000, closed.get(1).records, "no skipped record is in the counted window");
    assertEquals(2999, d.skippedRecords());
  }

  @Test
  void skewThatBeginsDuringQuietWindowsIsSeenWithinQuietPlusTwoWindows() {
    List<SkewDetector.Window> closed = new ArrayList<>();
    int quiet = 7;
    SkewDetector d = new SkewDetector(10_000, 1.0, 0.5, quiet, closed::add);
    long next = 0;
    for (int i = 0; i < 1000; i++) {
      d.record(k(next++), 10);
    }
    // From here every fourth write is key 0: variance ~ 62 in a counted window.
    long writes = 0;
    while (closed.size() < 2) {
      d.record(writes % 4 == 0 ? k(0) : k(next++), 10);
      writes++;
    }
    assertTrue(closed.get(1).skewed);
    assertTrue(writes <= (quiet + 1) * 1000L, "skew seen after " + writes + " writes");
    // A skewed stream is counted in full: uniform writes turn it off at the next window.
    for (int i = 0; i < 1000; i++) {
      d.record(k(next++), 10);
    }
    assertEquals(3, closed.size());
    assertFalse(closed.get(2).skewed);
  }

  @Test
  void aWindowInsideTheBandDoesNotStartASkip() {
    List<SkewDetector.Window> closed = new ArrayList<>();
    int n = SkewDetector.MIN_WINDOW_RECORDS;
    SkewDetector d = new SkewDetector(10L * n, 1.0, 0.5, 7, closed::add);
    // Key 0 fourteen times per window, the rest distinct: variance ~0.69, inside the band.
    for (int w = 0; w < 3; w++) {
      for (int i = 0; i < n; i++) {
        d.record(i < 14 ? k(0) : k(1_000_000L * (w + 1) + i), 10);
      }
    }
    assertEquals(3, closed.size(), "every window counted");
    assertEquals(0, d.skippedRecords());
    assertFalse(closed.get(2).skewed);
    assertTrue(closed.get(2).variance > 0.5);
  }

  @Test
  void badThresholdsAndWindowsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> new SkewDetector(10, 1, 0.5, -1, w -> { }));
    assertThrows(IllegalArgumentException.class, () -> new SkewDetector(0, 1, 0.5, w -> { }));
    assertThrows(IllegalArgumentException.class, () -> new SkewDetector(10, 1, 2, w -> { }));
    assertThrows(IllegalArgumentException.class, () -> new SkewDetector(10, 1, -1, w -> { }));
  }
}
