package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** DESIGN.md §6: a user write that races a migration always wins. */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@EnumSource(TestStores.Mode.class)
class MigrationRaceTest {
  /** Records of the many-writers race that no thread touches: 1.2 MB, beyond its 1 MiB budget. */
  static final int COLD_KEYS = 4000;
  /** The store variant (TestStores.Mode): every test runs on each. */
  @Parameter TestStores.Mode mode;
  @TempDir Path dir;

  @Test
  void writesBetweenTheMigratorsSnapshotAndItsCommitWin() throws Exception {
    CountDownLatch inMigration = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    byte[][] range = new byte[2][];
    MigrationHooks hooks = new MigrationHooks() {
      @Override
      public void afterSnapshot(byte[] smallest, byte[] largest) {
        if (inMigration.getCount() > 0) {
          range[0] = smallest;
          range[1] = largest;
          inMigration.countDown();
          await(proceed);
        }
      }
    };
    try (HotRapDB db = HotRapDB.open(small(dir, mode).fastBudgetBytes(256L << 20).build(),
        StoreHooks.migration(hooks))) {
      int n = 2000;
      for (int i = 0; i < n; i++) {
        db.put(key(i), value(i, 1, 100));
      }
      db.flush();
      CompletableFuture<Integer> migration = CompletableFuture.supplyAsync(() -> {
        try {
          return db.migrator().migrateNow(Long.MAX_VALUE, true);
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
      assertTrue(inMigration.await(30, TimeUnit.SECONDS));
      // The migrator holds a snapshot showing version 1 of the file's keys; now overwrite and
      // delete them.
      List<Integer> touched = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        byte[] k = key(i);
        if (Arrays.compareUnsigned(k, range[0]) >= 0 && Arrays.compareUnsigned(k, range[1]) <= 0) {
          touched.add(i);
          if (i % 3 == 0) {
            db.delete(k);
          } else {
            db.put(k, value(i, 2, 100));
          }
        }
      }
      assertTrue(touched.size() > 10);
      proceed.countDown();
      assertTrue(migration.get(60, TimeUnit.SECONDS) > 0);
      HotRapStats s = db.stats();
      assertTrue(s.demotionsDroppedAsUpdated() >= touched.size(), s.toString());
      for (int i : touched) {
        byte[] v = db.get(key(i));
        if (i % 3 == 0) {
          assertNull(v, "deleted key " + i + " came back");
        } else {
          assertNotNull(v, "key " + i + " was lost");
          assertEquals(2, versionOf(v), "key " + i + " lost its newer version");
        }
      }
    }
  }

  /**
   * Many writers and readers on a small key space with a tiny budget, so migration runs all the
   * time. Each key belongs to one writer, whose versions count up; a read must return a version at
   * least as new as the newest acknowledged before the read began, and the final state must equal
   * the last acknowledged writes.
   */
  @Test
  void migrationRacingManyWritersNeverLosesOrReordersAWrite() throws Exception {
    int writers = 3;
    int readers = 2;
    int keys = 3000;
    int opsPerWriter = 8000;
    HotRapOptions o = small(dir, mode).fastBudgetBytes(1L << 20).writeBufferBytes(64 << 10)
        .fastTargetFileBytes(64 << 10).migrationBatchBytes(16 << 10)
        .maxWriteStall(Duration.ofSeconds(30)).build();
    AtomicLongArray acked = new AtomicLongArray(keys);       // newest acknowledged version; <0 deleted
    AtomicLongArray deleteStarted = new AtomicLongArray(keys); // newest version a delete started at
    ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    AtomicBoolean done = new AtomicBoolean();
    try (HotRapDB db = HotRapDB.open(o)) {
      // Records no thread reads or writes, after the others in key order and more than the budget:
      // their files hold nothing hot, so with FILE_DROP some of them leave whole during the race
      // (the raced keys are all read, and RALT may keep a hot one in every file of theirs).
      for (int i = keys; i < keys + COLD_KEYS; i++) {
        db.put(key(i), value(i, 1, 300));
      }
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        threads.add(new Thread(() -> {
          ThreadLocalRandom rnd = ThreadLocalRandom.current();
          int[] version = new int[keys];
          for (int n = 0; n < opsPerWriter && errors.isEmpty(); n++) {
            int i = rnd.nextInt(keys / writers) * writers + writer;
            int v = ++version[i];
            if (rnd.nextInt(10) == 0) {
              deleteStarted.set(i, v);
              db.delete(key(i));
              acked.set(i, -v);
            } else {
              db.put(key(i), value(i, v, 200 + rnd.nextInt(400)));
              acked.set(i, v);
            }
          }
        }));
      }
      for (int r = 0; r < readers; r++) {
        threads.add(new Thread(() -> {
          ThreadLocalRandom rnd = ThreadLocalRandom.current();
          while (!done.get() && errors.isEmpty()) {
            int i = rnd.nextInt(keys);
            long before = acked.get(i);
            byte[] v = db.get(key(i));
            long floor = Math.abs(before);
            if (v == null) {
              if (floor > 0 && deleteStarted.get(i) < floor) {
                errors.add("key " + i + " vanished; acknowledged version " + before);
              }
            } else if (versionOf(v) < floor) {
              errors.add("key " + i + " went back from version " + before + " to " + versionOf(v));
            }
          }
        }));
      }
      threads.forEach(Thread::start);
      for (int t = 0; t < writers; t++) {
        threads.get(t).join();
      }
      done.set(true);
      for (Thread t : threads) {
        t.join();
      }
      if (!errors.isEmpty()) {
        fail(errors.size() + " violations, first: " + errors.peek());
      }
      db.awaitBackgroundWork();
      HotRapStats s = db.stats();
      assertTrue(s.migrations() > 0 && s.recordsDemoted() > 0, s.toString());
      if (mode == TestStores.Mode.FILE_DROP) {
        // The race ran on files leaving whole, not only on tombstones.
        assertTrue(s.demotionFilesDropped() > 0, s.toString());
      } else if (mode == TestStores.Mode.TOMBSTONES) {
        assertEquals(0, s.demotionFilesDropped(), s.toString());
      }
      for (int i = 0; i < keys; i++) {
        long a = acked.get(i);
        byte[] v = db.get(key(i));
        if (a <= 0) {
          assertNull(v, "key " + i + " should be absent");
        } else {
          assertNotNull(v, "key " + i + " lost");
          assertEquals(a, versionOf(v), "key " + i);
        }
      }
      for (int i = keys; i < keys + COLD_KEYS; i++) {
        assertArrayEquals(value(i, 1, 300), db.get(key(i)), "cold key " + i);
      }
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        throw new AssertionError("test hook timed out");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
