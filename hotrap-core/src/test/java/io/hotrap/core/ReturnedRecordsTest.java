package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.cache.PromotionCache;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records that came back (turned down by one check, read from the slow tier again before the
 * next) make a promotion by flush only when they came back since the last check: one put back for
 * want of company, and not read since, rides along with a promotion but is not counted again.
 * RALT's buffer is never written here (no awaitBackgroundWork), so it calls nothing stable-hot and
 * every hot record is one that came back.
 */
class ReturnedRecordsTest {
  static final int VALUE_BYTES = 100;
  static final long CACHE_BYTES = 4 << 10;
  /** Entries that fill the cache: each is charged key + value + overhead. */
  static final int FULL = (int) ((CACHE_BYTES + entryBytes() - 1) / entryBytes());

  @TempDir Path dir;

  private static long entryBytes() {
    return PromotionCache.charge(key(0).length, VALUE_BYTES);
  }

  /** Reads keys [from, to) and waits for the checks they caused. */
  private static void read(HotRapDB db, int from, int to) {
    for (int i = from; i < to; i++) {
      assertNotNull(db.get(key(i)));
    }
    db.promoter().awaitIdle();
  }

  @Test
  void aReturnPutBackUnreadIsNotCountedAgain() throws Exception {
    try (HotRapDB db = HotRapDB.open(small(dir).fastBudgetBytes(256L << 20)
        .promoteByCompaction(false).promotionCacheBytes(CACHE_BYTES).build())) {
      for (int i = 0; i < 1000; i++) {
        db.put(key(i), value(i, 1, VALUE_BYTES));
      }
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      PromotionCache cache = db.promoter().cache();
      int half = (int) (CACHE_BYTES / 2 / entryBytes()); // most entries under half the target
      assertTrue(half >= 8 && 2 * half < FULL + 4, "sizes " + half + "/" + FULL);

      // A full table of first reads: all turned down.
      read(db, 0, FULL);
      assertEquals(0, cache.mutableSize());
      // `half` of them come back, too few to promote: put back. Cold keys fill the table.
      read(db, 0, half);
      read(db, 500, 500 + FULL - half);
      assertEquals(half, cache.mutableSize(), "the returned records were not put back");
      long returned = db.stats().promotionCandidatesReturned();
      assertEquals(half, returned);

      // `half` more come back. With those put back, unread, more than half the target is hot;
      // counted once, less is.
      read(db, half, 2 * half);
      read(db, 600, 600 + FULL - 2 * half);
      HotRapStats s = db.stats();
      assertEquals(returned + 2 * half, s.promotionCandidatesReturned(), s::toString);
      assertEquals(0, s.bytesPromotedByFlush(), "a return was counted twice: " + s);
      assertEquals(2 * half, cache.mutableSize(), "the returned records were not put back");
    }
  }
}
