package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The randomized test of DESIGN.md §6 over the whole store: writers, readers, migration, and both
 * kinds of promotion racing on a small key space with tiny budgets and caches.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PromotionRaceTest {
  static final int THREADS = 8;
  static final int KEYS = 2000;
  /** Operations over all threads. */
  static final int TOTAL_OPS = 600_000;

  @TempDir Path dir;

  /**
   * Values encode (key, writer, counter). Each key belongs to one thread, whose counters go up; a
   * get must return a version at least as new as the newest acknowledged before it began, and the
   * final state must equal the last acknowledged writes.
   */
  @Test
  void readsNeverGoBackInTimeWhileMigrationAndPromotionRunConstantly() throws Exception {
    HotRapOptions o = small(dir).fastBudgetBytes(1L << 20).writeBufferBytes(64 << 10)
        .fastTargetFileBytes(64 << 10).migrationBatchBytes(16 << 10).promotionCacheBytes(8 << 10)
        .maxWriteStall(Duration.ofSeconds(30)).build();
    AtomicLongArray acked = new AtomicLongArray(KEYS);         // newest acknowledged counter; <0 deleted
    AtomicLongArray deleteStarted = new AtomicLongArray(KEYS); // newest counter a delete started at
    ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    try (HotRapDB db = HotRapDB.open(o)) {
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < THREADS; w++) {
        int writer = w;
        threads.add(new Thread(() -> {
          ThreadLocalRandom rnd = ThreadLocalRandom.current();
          int[] counter = new int[KEYS];
          for (int n = 0; n < TOTAL_OPS / THREADS && errors.isEmpty(); n++) {
            int dice = rnd.nextInt(100);
            if (dice < 75) {
              // Reads skew to a tenth of the keys so that promotion finds hot records.
              int i = rnd.nextInt(4) == 0 ? rnd.nextInt(KEYS) : rnd.nextInt(KEYS / 10) * 10;
              long before = acked.get(i);
              byte[] v = db.get(key(i));
              long floor = Math.abs(before);
              if (v == null) {
                if (floor > 0 && deleteStarted.get(i) < floor) {
                  errors.add("key " + i + " vanished; acknowledged " + before);
                }
              } else {
                ByteBuffer b = ByteBuffer.wrap(v);
                int k = b.getInt();
                b.getInt();
                int c = b.getInt();
                if (k != i) {
                  errors.add("key " + i + " returned the value of key " + k);
                } else if (c < floor) {
                  errors.add("key " + i + " went back from " + before + " to " + c);
                }
              }
            } else {
              int i = rnd.nextInt(KEYS / THREADS) * THREADS + writer;
              int c = ++counter[i];
              if (dice < 78) {
                deleteStarted.set(i, c);
                db.delete(key(i));
                acked.set(i, -c);
              } else {
                byte[] v = new byte[200 + rnd.nextInt(800)];
                rnd.nextBytes(v); // incompressible, so that the bytes count against the budget
                ByteBuffer.wrap(v).putInt(i).putInt(writer).putInt(c);
                db.put(key(i), v);
                acked.set(i, c);
              }
            }
          }
        }));
      }
      long start = System.nanoTime();
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      if (!errors.isEmpty()) {
        fail(errors.size() + " violations, first: " + errors.peek());
      }
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      System.out.printf("randomized promotion race: %d ops in %d ms; %s%n", TOTAL_OPS,
          (System.nanoTime() - start) / 1_000_000, s);
      assertTrue(s.migrations() > 0 && s.recordsDemoted() > 0, s.toString());
      assertTrue(s.bytesPromotedByFlush() + s.bytesPromotedByCompaction() > 0, s.toString());
      assertTrue(s.promotionCacheHits() > 0, s.toString());
      for (int i = 0; i < KEYS; i++) {
        long a = acked.get(i);
        byte[] v = db.get(key(i));
        if (a <= 0) {
          assertNull(v, "key " + i + " should be absent");
        } else {
          assertNotNull(v, "key " + i + " lost");
          assertEquals(a, ByteBuffer.wrap(v, 8, 4).getInt(), "key " + i);
        }
      }
    }
  }
}
