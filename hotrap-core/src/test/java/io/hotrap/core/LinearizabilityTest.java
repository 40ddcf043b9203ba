package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.core.RegisterHistoryChecker.Op;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Small concurrent histories checked for linearizability key by key, while migration and both
 * kinds of promotion run constantly underneath: the per-key register checker of the promotion
 * issue, beside the randomized stale-read test ({@link PromotionRaceTest}).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@EnumSource(TestStores.Mode.class)
class LinearizabilityTest {
  /** The store variant (TestStores.Mode): every test runs on each. */
  @Parameter TestStores.Mode mode;
  static final int ROUNDS = 300;
  static final int THREADS = 3;
  static final int OPS_PER_THREAD = 4;
  static final int KEYS_PER_ROUND = 2;
  static final int VALUE_BYTES = 900;
  static final int FILLER_KEYS = 4000;

  @TempDir Path dir;

  @Test
  void theCheckerAcceptsASequentialHistoryAndRejectsAStaleRead() {
    List<Op> ok = List.of(new Op(true, "a", 0, 1), new Op(false, "a", 2, 3),
        new Op(true, "b", 4, 5), new Op(false, "b", 6, 7));
    assertTrue(RegisterHistoryChecker.linearizable(ok, null));
    List<Op> stale = List.of(new Op(true, "a", 0, 1), new Op(true, "b", 2, 3),
        new Op(false, "a", 4, 5));
    assertFalse(RegisterHistoryChecker.linearizable(stale, null));
    List<Op> overlapping = List.of(new Op(true, "a", 0, 10), new Op(false, "a", 1, 2),
        new Op(false, "v0", 3, 4));
    assertFalse(RegisterHistoryChecker.linearizable(overlapping, "v0"),
        "a read may not see the old value after another read saw the new one");
    List<Op> concurrent = List.of(new Op(true, "a", 0, 10), new Op(false, "v0", 1, 2),
        new Op(false, "a", 3, 4));
    assertTrue(RegisterHistoryChecker.linearizable(concurrent, "v0"));
  }

  /** With {@code memoryTier}, a memory tier of two write buffers compacts L0 to the fast disk constantly. */
  @ParameterizedTest(name = "memoryTier={0}")
  @ValueSource(booleans = {false, true})
  void historiesOfGetsPutsAndDeletesAreLinearizableUnderMigrationAndPromotion(boolean memoryTier)
      throws Exception {
    org.junit.jupiter.api.Assumptions.assumeFalse(memoryTier && mode == TestStores.Mode.SEPARATED,
        "write-hot separation and a memory tier are exclusive options (HotRapOptions rejects both)");
    HotRapOptions.Builder b = small(dir, mode).fastBudgetBytes(1L << 20).writeBufferBytes(64 << 10)
        .fastTargetFileBytes(64 << 10).migrationBatchBytes(16 << 10).promotionCacheBytes(4 << 10)
        .hotnessCheck(false).maxWriteStall(Duration.ofSeconds(30));
    if (memoryTier) {
      b.memoryTier(java.nio.file.Files.createDirectories(dir.resolve("memory")), 128 << 10);
    }
    HotRapOptions o = b.build();
    Map<Integer, String> initial = new HashMap<>();
    try (HotRapDB db = HotRapDB.open(o)) {
      // Most records start in the slow tier, so reads promote them while the histories run.
      for (int i = 0; i < FILLER_KEYS; i++) {
        String v = "init-" + i;
        db.put(key(i), value(v));
        initial.put(i, v);
      }
      db.flush();
      db.awaitBackgroundWork();
      AtomicBoolean stop = new AtomicBoolean();
      Thread background = new Thread(() -> {
        Random r = new Random(3);
        while (!stop.get()) {
          // Reads fill the promotion cache; writes of other keys keep migration busy.
          int i = KEYS_PER_ROUND * ROUNDS + r.nextInt(FILLER_KEYS - KEYS_PER_ROUND * ROUNDS);
          if (r.nextInt(4) == 0) {
            db.put(key(i), value("bg-" + r.nextInt()));
          } else {
            db.get(key(i));
          }
        }
      });
      background.start();
      try {
        Random rnd = new Random(17);
        for (int round = 0; round < ROUNDS; round++) {
          int firstKey = round * KEYS_PER_ROUND;
          for (int k = firstKey; k < firstKey + KEYS_PER_ROUND; k++) {
            db.get(key(k)); // bring the record into the promotion cache before the history
          }
          Map<Integer, List<Op>> history = runRound(db, round, firstKey, rnd.nextLong());
          for (int k = firstKey; k < firstKey + KEYS_PER_ROUND; k++) {
            // A read after the round closes each history: the state it left must be one of them.
            long t0 = System.nanoTime();
            byte[] v = db.get(key(k));
            history.computeIfAbsent(k, x -> new ArrayList<>()).add(new Op(false,
                decode(v), t0,
                System.nanoTime()));
          }
          for (Map.Entry<Integer, List<Op>> e : history.entrySet()) {
            String from = initial.get(e.getKey());
            assertTrue(RegisterHistoryChecker.linearizable(e.getValue(), from),
                "round " + round + " key " + e.getKey() + " from " + from + ": " + e.getValue());
          }
        }
      } finally {
        stop.set(true);
        background.join();
      }
      HotRapStats s = db.stats();
      assertTrue(s.bytesPromotedByFlush() + s.bytesPromotedByCompaction() > 0, "promoted: " + s);
      assertTrue(s.migrations() > 0, "migrated: " + s);
    }
  }

  private static Map<Integer, List<Op>> runRound(HotRapDB db, int round, int firstKey, long seed)
      throws Exception {
    Map<Integer, List<Op>> history = new ConcurrentHashMap<>();
    CyclicBarrier start = new CyclicBarrier(THREADS);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      Random rnd = new Random(seed + t);
      threads.add(new Thread(() -> {
        try {
          start.await();
          for (int n = 0; n < OPS_PER_THREAD; n++) {
            int k = firstKey + rnd.nextInt(KEYS_PER_ROUND);
            int dice = rnd.nextInt(10);
            long t0 = System.nanoTime();
            Op op;
            if (dice < 5) {
              byte[] v = db.get(key(k));
              op = new Op(false, decode(v), t0, System.nanoTime());
            } else if (dice < 9) {
              String v = "r" + round + "-t" + thread + "-n" + n;
              db.put(key(k), value(v));
              op = new Op(true, v, t0, System.nanoTime());
            } else {
              db.delete(key(k));
              op = new Op(true, null, t0, System.nanoTime());
            }
            history.computeIfAbsent(k, x -> java.util.Collections.synchronizedList(new ArrayList<>()))
                .add(op);
          }
        } catch (Throwable e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(List.of(), failures);
    return history;
  }

  /**
   * {@code s}, then {@code |} and random letters up to {@link #VALUE_BYTES}: incompressible, so
   * that the records overflow the fast budget as their size says.
   */
  private static byte[] value(String s) {
    StringBuilder b = new StringBuilder(s).append('|');
    java.util.concurrent.ThreadLocalRandom r = java.util.concurrent.ThreadLocalRandom.current();
    while (b.length() < VALUE_BYTES) {
      b.append((char) ('a' + r.nextInt(26)));
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The string a {@link #value} was made of, or null. */
  private static String decode(byte[] v) {
    if (v == null) {
      return null;
    }
    String s = new String(v, StandardCharsets.UTF_8);
    return s.substring(0, s.indexOf('|'));
  }
}
