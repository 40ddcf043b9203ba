package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.cache.ImmutablePromotionCache;
import io.hotrap.cache.PromotionCache;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Promotion by flush checks one frozen table at a time: while a check runs, the mutable table grows
 * past its target instead of being frozen behind it, up to {@link Promoter#MAX_BACKLOG_TARGETS}
 * targets; the check hands the grown table over when it ends. The check is held inside its commit
 * by a hook, so where each read lands is fixed.
 */
class FlushCheckBacklogTest {
  static final int RECORDS = 400;
  static final int VALUE_BYTES = 100;
  static final long CACHE_BYTES = 4 << 10;

  @TempDir Path dir;

  private final CountDownLatch checkEntered = new CountDownLatch(1);
  private final CountDownLatch checkMayGo = new CountDownLatch(1);

  /** Holds the first check at its commit until the test lets it go. */
  private final PromotionHooks holdFirstCheck = new PromotionHooks() {
    @Override
    public void beforeFlushCommit(ImmutablePromotionCache immutable) {
      if (checkEntered.getCount() == 0) {
        return;
      }
      checkEntered.countDown();
      try {
        assertTrue(checkMayGo.await(60, TimeUnit.SECONDS), "the test never let the check go");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  };

  private HotRapDB open() throws Exception {
    HotRapDB db = HotRapDB.open(small(dir).fastBudgetBytes(256L << 20).hotnessCheck(false)
        .promoteByCompaction(false).promotionCacheBytes(CACHE_BYTES)
        .build(), StoreHooks.promotion(holdFirstCheck));
    for (int i = 0; i < RECORDS; i++) {
      db.put(key(i), value(i, 1, VALUE_BYTES));
    }
    db.flush();
    db.migrator().migrateNow(Long.MAX_VALUE, true);
    return db;
  }

  /** Reads keys from the first on until a check is held; returns the next unread key. */
  private static int readUntilACheckIsHeld(HotRapDB db, CountDownLatch entered) throws Exception {
    int i = 0;
    while (entered.getCount() > 0) {
      assertTrue(i < RECORDS, "no check started");
      assertNotNull(db.get(key(i++)));
      if (db.promoter().cache().immutables().size() == 1) {
        assertTrue(entered.await(60, TimeUnit.SECONDS), "the frozen table was not checked");
      }
    }
    return i;
  }

  @Test
  void aTableThatFillsDuringACheckIsFrozenWhenTheCheckEnds() throws Exception {
    try (HotRapDB db = open()) {
      try {
        PromotionCache cache = db.promoter().cache();
        int i = readUntilACheckIsHeld(db, checkEntered);
        while (cache.mutableBytes() < 2 * CACHE_BYTES) {
          assertNotNull(db.get(key(i++)));
          assertEquals(1, cache.immutables().size(),
              "a full table was frozen behind a running check");
        }
        assertTrue(cache.isFull());

        checkMayGo.countDown();
        db.awaitBackgroundWork();
        assertTrue(cache.immutables().isEmpty());
        assertFalse(cache.isFull(), "the check did not hand over the table that filled meanwhile");
        // No hotness check: every record read is hot, and both tables were promoted.
        assertPromoted(db, i);
      } finally {
        // Before close, which waits for the checker.
        checkMayGo.countDown();
      }
    }
  }

  @Test
  void aTableOfFourTargetsIsQueuedBehindTheRunningCheck() throws Exception {
    try (HotRapDB db = open()) {
      try {
        PromotionCache cache = db.promoter().cache();
        int i = readUntilACheckIsHeld(db, checkEntered);
        while (cache.immutables().size() == 1) {
          assertTrue(i < RECORDS, "the table grew without bound behind the held check");
          assertNotNull(db.get(key(i++)));
        }
        assertEquals(2, cache.immutables().size());
        long queued = cache.immutables().get(1).bytes();
        long cap = Promoter.MAX_BACKLOG_TARGETS * CACHE_BYTES;
        assertTrue(queued >= cap && queued < cap + CACHE_BYTES, "queued at " + queued + " B");

        checkMayGo.countDown();
        db.awaitBackgroundWork();
        assertTrue(cache.immutables().isEmpty());
        assertPromoted(db, i);
      } finally {
        // Before close, which waits for the checker.
        checkMayGo.countDown();
      }
    }
  }

  private static void assertPromoted(HotRapDB db, int keys) throws Exception {
    for (int k = 0; k < keys; k++) {
      assertNotNull(db.rocks().get(db.fastHandle(), key(k)), "key " + k + " was not promoted");
    }
  }
}
