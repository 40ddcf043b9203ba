package io.hotrap.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdmissionFilterTest {
  static final int RECORD = 1024;

  private static byte[] key(int i) {
    return ByteBuffer.allocate(24).putInt(0x6b657900).putInt(i).array();
  }

  /** Asserts that the filter reports every key from {@code from} to {@code to} (exclusive). */
  private static void assertRemembered(AdmissionFilter f, int from, int to) {
    for (int i = from; i < to; i++) {
      assertTrue(f.mightContain(key(i)), "key " + i);
    }
  }

  /** How many of the keys {@code from} to {@code to} (exclusive) the filter reports. */
  private static int reported(AdmissionFilter f, int from, int to) {
    int n = 0;
    for (int i = from; i < to; i++) {
      if (f.mightContain(key(i))) {
        n++;
      }
    }
    return n;
  }

  /** A filter whose every generation holds {@code window} records of {@link #RECORD} bytes. */
  private static AdmissionFilter filter(int window) {
    return new AdmissionFilter(64L * RECORD, () -> (long) window * RECORD, 1 << 20);
  }

  @Test
  void aKeyIsAdmittedOnItsSecondReadWithinTheWindow() {
    AdmissionFilter f = filter(1000);
    int falsePositives = 0;
    for (int i = 0; i < 500; i++) {
      if (f.admit(key(i), RECORD)) {
        falsePositives++;
      }
    }
    assertTrue(falsePositives <= 5, falsePositives + " of 500 first reads admitted");
    for (int i = 0; i < 500; i++) {
      assertTrue(f.admit(key(i), RECORD), "second read of key " + i);
    }
  }

  @Test
  void keepsTheLastGenerationAndForgetsTheOneBefore() {
    AdmissionFilter f = filter(1000);
    for (int i = 0; i < 2500; i++) {
      f.admit(key(i), RECORD);
    }
    // Generations: [0, 1000) forgotten, [1000, 2000) previous, [2000, 2500) current.
    assertRemembered(f, 1000, 2500);
    int forgottenButReported = reported(f, 0, 1000);
    assertTrue(forgottenButReported < 20, forgottenButReported + " of 1000 forgotten keys reported");
  }

  @Test
  void falsePositivesStayUnderHalfAPercentPerGeneration() {
    AdmissionFilter f = filter(10_000);
    for (int i = 0; i < 10_000; i++) {
      f.admit(key(i), RECORD);
    }
    int fp = reported(f, 1_000_000, 1_100_000);
    // 16 bits per key, rounded up here to 26, and 4 probes in one word: about 0.14% (the previous
    // generation is empty here; 0.5% at exactly 16 bits per key).
    assertTrue(fp < 500, fp + " false positives in 100000");
  }

  @Test
  void theNextWindowIsTheWindowBytesInRecordsOfTheFilledGenerationsMeanSize() {
    AtomicLong windowBytes = new AtomicLong(100L * RECORD);
    AdmissionFilter f = new AdmissionFilter(64L * RECORD, windowBytes::get, 1 << 20);
    assertEquals(0, f.window());
    f.admit(key(0), RECORD);
    assertEquals(100, f.window(), "the first generation is sized by the first record read");
    windowBytes.set(5_000L * RECORD);
    f.admit(key(1), RECORD);
    for (int i = 2; i < 100; i++) {
      f.admit(key(i), i % 2 == 0 ? RECORD / 2 : RECORD + RECORD / 2); // mean RECORD
    }
    assertEquals(5_000, f.window());
    for (int i = 100; i < 5_000; i++) {
      f.admit(key(i), RECORD);
    }
    assertRemembered(f, 0, 5_000);
  }

  @Test
  void theWindowIsClampedAndBoundsMemory() {
    AtomicLong windowBytes = new AtomicLong(RECORD);
    AdmissionFilter f = new AdmissionFilter(RECORD, windowBytes::get, 4096);
    f.admit(key(0), RECORD);
    assertEquals(AdmissionFilter.MIN_WINDOW, f.window());
    windowBytes.set(Long.MAX_VALUE);
    for (int i = 1; i < AdmissionFilter.MIN_WINDOW; i++) {
      f.admit(key(i), RECORD);
    }
    assertEquals(4096, f.window());
    for (int i = 0; i < 3 * 4096; i++) {
      f.admit(key(i), RECORD);
    }
    long bound = 2L * 4096 * AdmissionFilter.BITS_PER_KEY / 8 * 2;
    assertTrue(f.memoryBytes() <= bound, f.memoryBytes() + " B");
  }

  @Test
  void theAdmittedShareFollowsTheRecentReads() {
    AdmissionFilter f = filter(1 << 16);
    assertEquals(0.0, f.admittedShare());
    // Every other read comes back: the share settles at a half.
    for (int i = 0; i < 2000; i++) {
      f.admit(key(i / 2), RECORD);
    }
    assertEquals(0.5, f.admittedShare(), 0.05);
    // A horizon (64 records) of first reads later, the share is down to e^-1 of that or less.
    for (int i = 10_000; i < 10_064; i++) {
      f.admit(key(i), RECORD);
    }
    assertTrue(f.admittedShare() < 0.5 / Math.E + 0.01, "share " + f.admittedShare());
    // And back up after a few horizons of returns.
    for (int i = 10_000; i < 10_064; i++) {
      f.admit(key(i), RECORD);
    }
    for (int round = 0; round < 4; round++) {
      for (int i = 0; i < 64; i++) {
        f.admit(key(i), RECORD);
      }
    }
    assertTrue(f.admittedShare() > 0.95, "share " + f.admittedShare());
  }

  @Test
  void cacheHitsCountAsAdmittedReadsAndAddNoKey() {
    AdmissionFilter f = filter(1 << 16);
    for (int i = 0; i < 200; i++) {
      f.admit(key(i), RECORD);
    }
    assertTrue(f.admittedShare() < 0.01, "share " + f.admittedShare());
    for (int i = 0; i < 200; i++) {
      f.cacheHit(RECORD);
    }
    assertTrue(f.admittedShare() > 0.95, "share " + f.admittedShare());
    assertFalse(f.mightContain(key(1_000_000)));
  }

  @Test
  void concurrentReadersLoseNoKeyAddedWithinTheWindow() throws Exception {
    int threads = 8;
    int perThread = 4_000;
    // Generations of 2 × 8 × 4000 keys: every key read by the threads stays within two of them.
    AdmissionFilter f = filter(2 * threads * perThread);
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int base = t * perThread;
        results.add(pool.submit(() -> {
          start.await();
          int admittedFirstTime = 0;
          for (int i = base; i < base + perThread; i++) {
            if (f.admit(key(i), RECORD)) {
              admittedFirstTime++;
            }
          }
          return admittedFirstTime;
        }));
      }
      int falsePositives = 0;
      for (Future<Integer> r : results) {
        falsePositives += r.get();
      }
      assertTrue(falsePositives < threads * perThread / 100, falsePositives + " first reads admitted");
    } finally {
      pool.shutdownNow();
    }
    assertRemembered(f, 0, threads * perThread);
  }

  @Test
  void concurrentReadersRollGenerationsWithoutLosingTheLastWindow() throws Exception {
    int threads = 8;
    int perThread = 20_000;
    AdmissionFilter f = filter(1_000);
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int base = t * perThread;
        results.add(pool.submit(() -> {
          start.await();
          for (int i = base; i < base + perThread; i++) {
            f.admit(key(i), RECORD);
          }
          return null;
        }));
      }
      for (Future<?> r : results) {
        r.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(1_000, f.window());
    // Generations were rolled as they filled: fresh keys are reported at the rate of two full
    // generations, about 1% (one that kept taking keys past its capacity would report nearly
    // every key) ...
    int fp = reported(f, 1_000_000, 1_010_000);
    assertTrue(fp < 300, fp + " of 10000 fresh keys reported");
    // ... and the filter still remembers a whole window read after them.
    for (int i = 2_000_000; i < 2_001_000; i++) {
      f.admit(key(i), RECORD);
    }
    assertRemembered(f, 2_000_000, 2_001_000);
  }

  @Test
  void aReaderStalledWhileRollingNeitherLeavesTheFullGenerationTakingKeysNorUndoesLaterRolls()
      throws Exception {
    // The roller reads the window (windowBytes) first to size the first generation, then while it
    // rolls that generation, after finding it full and before installing the next: it stalls
    // there until released.
    CountDownLatch stalled = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger rollerReads = new AtomicInteger();
    Thread[] roller = new Thread[1];
    AdmissionFilter f = new AdmissionFilter(64L * RECORD, () -> {
      if (Thread.currentThread() == roller[0] && rollerReads.incrementAndGet() == 2) {
        stalled.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return 1_000L * RECORD;
    }, 1 << 20);
    roller[0] = new Thread(() -> {
      for (int i = 0; i < 1_000; i++) {
        f.admit(key(i), RECORD);
      }
    }, "roller");
    roller[0].start();
    try {
      assertTrue(stalled.await(30, TimeUnit.SECONDS), "the roller did not fill its generation");
      // Twenty windows of reads while it is stalled.
      for (int i = 10_000; i < 30_000; i++) {
        f.admit(key(i), RECORD);
      }
    } finally {
      release.countDown();
      roller[0].join();
    }
    assertEquals(1_000, f.window());
    // The other reads rolled the full generation themselves: fresh keys are reported at the rate
    // of two full generations (a generation that took the 20000 keys would report nearly all) ...
    int fp = reported(f, 1_000_000, 1_010_000);
    assertTrue(fp < 300, fp + " of 10000 fresh keys reported");
    // ... and the stalled roll, once released, did not replace the generations rolled since.
    assertRemembered(f, 29_000, 30_000);
  }

  @Test
  void badArgumentsAreRejectedWithTheirValue() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new AdmissionFilter(0, () -> 1, 64));
    assertTrue(e.getMessage().contains("horizonBytes"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new AdmissionFilter(1, () -> 1, 63));
    assertTrue(e.getMessage().contains("63"), e.getMessage());
    assertThrows(NullPointerException.class, () -> new AdmissionFilter(1, null, 64));
    AdmissionFilter f = filter(64);
    assertThrows(NullPointerException.class, () -> f.admit(null, 1));
    assertThrows(NullPointerException.class, () -> f.mightContain(null));
  }
}
