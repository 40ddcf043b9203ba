package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Promotion waits at the fast tier's stall threshold when migration cannot keep up, as a user
 * write does, and promotes once migration has made room: here the migrator is held inside its
 * first step while gets promote every slow-tier record they read (no hotness check), more than the
 * budget holds. While it is held, the tier may pass the threshold only by what was in flight (one
 * table and the memtables), not by what the reads would promote; once it is released, the waiting
 * check writes its records.
 */
@Timeout(300)
class PromotionBudgetTest {
  @TempDir Path dir;

  @Test
  void promotionWaitsAtTheStallThresholdAndPromotesOnceMigrationMadeRoom() throws Exception {
    AtomicBoolean hold = new AtomicBoolean();
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch held = new CountDownLatch(1);
    MigrationHooks hooks = new MigrationHooks() {
      @Override
      public void afterSnapshot(byte[] smallestKey, byte[] largestKey) {
        if (hold.get()) {
          held.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
    };
    int keys = 30_000;
    // A stall longer than the test: a check that timed out would write past the threshold.
    HotRapOptions options = TestStores.small(dir).hotnessCheck(false).promoteByCompaction(false)
        .maxWriteStall(Duration.ofMinutes(10)).build();
    try (HotRapDB db = HotRapDB.open(options, StoreHooks.migration(hooks))) {
      try {
        for (int i = 0; i < keys; i++) {
          db.put(key(i), value(i, 1, 200));
        }
        db.flush();
        TestStores.demoteAll(db, 40);
        assertNull(TestStores.rawGet(db, db.fastHandle(), key(0)));
        hold.set(true);
        SplittableRandom r = new SplittableRandom(5);
        // Read until a check waits for room: the promotions fill the tier to its threshold, which
        // asks for a migration check, which the hook holds.
        int reads = 0;
        while (db.stats().promotionWaitsForRoom() == 0 && reads < 40 * keys) {
          int k = r.nextInt(keys);
          assertArrayEquals(value(k, 1, 200), db.get(key(k)));
          reads++;
        }
        assertTrue(db.stats().promotionWaitsForRoom() > 0, "no check waited in " + reads + " reads: " + db.stats());
        assertTrue(held.await(60, TimeUnit.SECONDS), "the migrator never started a step");
        // More reads while the check waits: they queue behind it, or are shed, and never write.
        for (int i = 0; i < 2 * keys; i++) {
          int k = r.nextInt(keys);
          assertArrayEquals(value(k, 1, 200), db.get(key(k)));
        }
        db.flush();
        db.migrator().refreshSizes();
        HotRapStats s = db.stats();
        assertTrue(s.bytesPromotedByFlush() > options.writeStallBytes() / 2,
            "promotion ran before the tier filled: " + s.bytesPromotedByFlush());
        long limit = options.writeStallBytes() + options.promotionCacheBytes() + 2 * options.writeBufferBytes();
        assertTrue(s.fastSstBytes() <= limit,
            "fast tier " + s.fastSstBytes() + " bytes, over " + limit + " with the migrator held");
        long promotedWhileHeld = s.bytesPromotedByFlush();
        release.countDown();
        db.promoter().awaitIdle();
        HotRapStats after = db.stats();
        assertEquals(0, after.promotionWaitTimeouts(), "a check stopped waiting: " + after);
        assertTrue(after.bytesPromotedByFlush() > promotedWhileHeld,
            "the waiting check promoted nothing once released: " + after);
      } finally {
        release.countDown();
      }
    }
  }
}
