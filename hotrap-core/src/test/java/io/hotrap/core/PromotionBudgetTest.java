package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Promotion stops at the fast tier's stall threshold when migration cannot keep up: here the
 * migrator is held inside its first step while gets promote every slow-tier record they read (no
 * hotness check), more than the budget holds. The tier may pass the threshold by what was in flight
 * (a table and the memtables), not by what the reads would promote.
 */
@Timeout(300)
class PromotionBudgetTest {
  @TempDir Path dir;

  @Test
  void promotionHoldsBackAtTheStallThresholdWhileMigrationCannotMove() throws Exception {
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
    HotRapOptions options = TestStores.small(dir).hotnessCheck(false).promoteByCompaction(false).build();
    try (HotRapDB db = HotRapDB.open(options, StoreHooks.migration(hooks))) {
      try {
        for (int i = 0; i < keys; i++) {
          db.put(key(i), value(i, 1, 200));
        }
        db.flush();
        for (int round = 0; round < 40 && db.migrator().migrateNow(Long.MAX_VALUE, true) > 0; round++) {
          // Each round moves the fast tier's bottommost files down.
        }
        assertNull(TestStores.rawGet(db, db.fastHandle(), key(0)));
        hold.set(true);
        SplittableRandom r = new SplittableRandom(5);
        for (int i = 0; i < 4 * keys; i++) {
          assertNotNull(db.get(key(r.nextInt(keys))));
          if (i % 1000 == 999) {
            db.promoter().awaitIdle();
          }
        }
        db.promoter().awaitIdle();
        assertTrue(held.await(60, TimeUnit.SECONDS), "the migrator never started a step");
        db.flush();
        db.migrator().refreshSizes();
        HotRapStats s = db.stats();
        assertTrue(s.bytesPromotedByFlush() > options.writeStallBytes() / 2,
            "promotion ran before the tier filled: " + s.bytesPromotedByFlush());
        assertTrue(s.promotionsHeldFull() > 0, "no check held back: " + s);
        long limit = options.writeStallBytes() + 2 * options.writeBufferBytes();
        assertTrue(s.fastSstBytes() <= limit,
            "fast tier " + s.fastSstBytes() + " bytes, over " + limit + " with the migrator held");
      } finally {
        release.countDown();
      }
    }
  }
}
