package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.cache.ImmutablePromotionCache;
import io.hotrap.cache.PromotionCache;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * However far promotion checks fall behind, the promotion cache stays bounded: at most
 * {@link Promoter#MAX_PENDING_CHECKS} frozen tables and a mutable one of
 * {@link Promoter#shedBytes}; further slow-tier hits are shed, and gets keep returning the right
 * values.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PromotionBacklogBoundTest {
  /** Reads of 4 MB, past the 3 MiB that the cache's bound allows here. */
  static final int RECORDS = 4000;
  static final int VALUE_BYTES = 1000;
  static final long CACHE_BYTES = 4 << 10;

  @TempDir Path dir;

  private final CountDownLatch checkEntered = new CountDownLatch(1);
  private final CountDownLatch checkMayGo = new CountDownLatch(1);

  @Test
  void aStuckCheckBoundsTheCacheAndShedsFurtherReads() throws Exception {
    PromotionHooks holdChecks = new PromotionHooks() {
      @Override
      public void beforeFlushCommit(ImmutablePromotionCache immutable) {
        checkEntered.countDown();
        try {
          assertTrue(checkMayGo.await(60, TimeUnit.SECONDS), "the test never let the check go");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    try (HotRapDB db = HotRapDB.open(small(dir).fastBudgetBytes(256L << 20).hotnessCheck(false)
        .promoteByCompaction(false).promotionCacheBytes(CACHE_BYTES).build(),
        StoreHooks.promotion(holdChecks))) {
      try {
        for (int i = 0; i < RECORDS; i++) {
          db.put(key(i), value(i, 1, VALUE_BYTES));
        }
        db.flush();
        db.migrator().migrateNow(Long.MAX_VALUE, true);
        PromotionCache cache = db.promoter().cache();
        // Each table may pass its bound by the one record that crossed it.
        long table = Promoter.shedBytes(CACHE_BYTES) + VALUE_BYTES + 64;
        long cap = (Promoter.MAX_PENDING_CHECKS + 1) * table;
        for (int i = 0; i < RECORDS; i++) {
          assertNotNull(db.get(key(i)), "key " + i);
          assertTrue(cache.immutables().size() <= Promoter.MAX_PENDING_CHECKS,
              cache.immutables().size() + " frozen tables after " + i + " reads");
          long bytes = cache.mutableBytes();
          for (ImmutablePromotionCache imm : cache.immutables()) {
            bytes += imm.bytes();
          }
          assertTrue(bytes <= cap, "the cache holds " + bytes + " bytes after " + i + " reads");
        }
        assertTrue(checkEntered.await(60, TimeUnit.SECONDS));
        assertTrue(db.stats().promotionInsertsShed() > 0, db.stats().toString());
      } finally {
        checkMayGo.countDown();
      }
      db.awaitBackgroundWork();
      for (int i = 0; i < RECORDS; i += 37) {
        assertNotNull(db.get(key(i)));
      }
    }
  }
}
