package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.rawGet;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.cache.PromotionCache;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which slow-tier reads the promotion cache stores, and what a check does with them: a key is
 * cached on its second slow-tier read within the admission filter's window; a table of such
 * returns is promoted only when they made at least half of the recent reads, and otherwise waits,
 * at most half a table of it, and is dropped if no get reads it. Checks run one read at a time
 * here (each get waits for the check it caused), so where each table ends is fixed. RALT's buffer
 * is never written (no awaitBackgroundWork), so it calls nothing stable-hot and every hot record
 * is one that came back.
 */
class PromotionAdmissionTest {
  static final int VALUE_BYTES = 100;
  static final long CACHE_BYTES = 4 << 10;
  /** Entries that fill the cache: each is charged key + value + overhead. */
  static final int FULL = (int) ((CACHE_BYTES + entryBytes() - 1) / entryBytes());
  /** Entries that fit in half the cache: what a check puts back at most. */
  static final int HALF = (int) (CACHE_BYTES / 2 / entryBytes());

  @TempDir Path dir;

  private static long entryBytes() {
    return PromotionCache.charge(key(0).length, VALUE_BYTES);
  }

  private HotRapDB open(HotRapOptions.Builder options) throws Exception {
    HotRapDB db = HotRapDB.open(options.fastBudgetBytes(256L << 20).promoteByCompaction(false)
        .promotionCacheBytes(CACHE_BYTES).build());
    for (int i = 0; i < 2000; i++) {
      db.put(key(i), value(i, 1, VALUE_BYTES));
    }
    db.flush();
    TestStores.demoteAll(db, 10);
    assertNull(rawGet(db, db.fastHandle(), key(0)));
    assertNull(rawGet(db, db.fastHandle(), key(1999)));
    return db;
  }

  /** Reads {@code key(i)} and waits for the check it caused, if any. */
  private static void read(HotRapDB db, int i) {
    assertNotNull(db.get(key(i)));
    db.promoter().awaitIdle();
  }

  /** First reads around each return: returns make a fifth of the reads. */
  private static final int COLD_PER_RETURN = 4;

  /** Reads keys {@code first} .. {@code first + COLD_PER_RETURN - 1}, each once. */
  private static void readCold(HotRapDB db, int first) {
    for (int k = first; k < first + COLD_PER_RETURN; k++) {
      read(db, k);
    }
  }

  @Test
  void aRecordIsCachedOnItsSecondSlowTierRead() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (HotRapDB db = open(small(dir).meterRegistry(registry))) {
      PromotionCache cache = db.promoter().cache();
      read(db, 7);
      assertNull(cache.get(key(7)), "a record read once was cached");
      assertEquals(1, db.stats().promotionReadsNotAdmitted());
      read(db, 7);
      assertNotNull(cache.get(key(7)), "a record read twice was not cached");
      read(db, 7);
      HotRapStats s = db.stats();
      assertEquals(1, s.promotionCacheHits(), s::toString);
      assertEquals(2, s.getsServedSlow(), s::toString);
      assertEquals(1.0, registry.get("hotrap.promotion.not.admitted").functionCounter().count());
    }
  }

  @Test
  void aRecordReadOnTheFastTierThenDemotedIsCachedOnItsFirstSlowTierRead() throws Exception {
    // No room for unstable records in RALT's hot set: a key read once is tracked, not hot, and
    // retention demotes it.
    try (HotRapDB db = HotRapDB.open(small(dir).fastBudgetBytes(256L << 20)
        .promoteByCompaction(false).promotionCacheBytes(CACHE_BYTES)
        .ralt(r -> r.maxUnstableHotBytes(0)).build())) {
      for (int i = 0; i < 200; i++) {
        db.put(key(i), value(i, 1, VALUE_BYTES));
      }
      db.flush();
      assertNotNull(db.get(key(7)), "served by the fast tier");
      assertNotNull(db.get(key(8)));
      db.awaitBackgroundWork(); // RALT writes the two reads
      for (int round = 0; round < 10 && db.migrator().migrateNow(Long.MAX_VALUE, false) > 0; round++) {
        // Moves every file down, demoting all: nothing is hot.
      }
      assertNull(rawGet(db, db.fastHandle(), key(7)), "key 7 was not demoted");
      assertNull(rawGet(db, db.fastHandle(), key(9)), "key 9 was not demoted");
      PromotionCache cache = db.promoter().cache();

      read(db, 7);
      assertNotNull(cache.get(key(7)), "a record read before its demotion was not cached");
      read(db, 9);
      assertNull(cache.get(key(9)), "a record never read before was cached on its first read");
      HotRapStats s = db.stats();
      assertEquals(1, s.promotionReadsAdmittedAfterDemotion(), s::toString);
      assertEquals(1, s.promotionReadsNotAdmitted(), s::toString);
    }
  }

  @Test
  void promotionByCompactionLeavesTheRecordsItDoesNotPromoteCached() throws Exception {
    try (HotRapDB db = HotRapDB.open(small(dir).fastBudgetBytes(256L << 20)
        .promotionCacheBytes(CACHE_BYTES).build())) {
      for (int i = 0; i < 2000; i++) {
        db.put(key(i), value(i, 1, VALUE_BYTES));
      }
      db.flush();
      TestStores.demoteAll(db, 10);
      read(db, 7);
      read(db, 7);
      PromotionCache cache = db.promoter().cache();
      assertNotNull(cache.get(key(7)), "a record read twice was not cached");
      // A fast-tier file around key 7; migrating it runs promotion by compaction over its range.
      db.put(key(5), value(5, 2, VALUE_BYTES));
      db.put(key(10), value(10, 2, VALUE_BYTES));
      db.flush();
      assertTrue(db.migrator().migrateNow(Long.MAX_VALUE, false) > 0);
      HotRapStats s = db.stats();
      assertEquals(0, s.bytesPromotedByCompaction(), "RALT has written no access: " + s);
      assertNotNull(cache.get(key(7)), "the migration took a return it did not promote out of the cache");
    }
  }

  @Test
  void withoutTheHotnessCheckEverySlowTierReadIsCached() throws Exception {
    try (HotRapDB db = open(small(dir).hotnessCheck(false))) {
      read(db, 7);
      assertNotNull(db.promoter().cache().get(key(7)));
      assertNull(db.promoter().admission());
      assertEquals(0, db.stats().promotionReadsNotAdmitted());
    }
  }

  @Test
  void returnsAmongMostlyFirstReadsArePutBackThenDroppedUnread() throws Exception {
    try (HotRapDB db = open(small(dir))) {
      PromotionCache cache = db.promoter().cache();
      assertTrue(HALF >= 8 && 2 * HALF < FULL, "sizes " + HALF + "/" + FULL);
      for (int i = 0; i < FULL; i++) {
        read(db, i);
      }
      assertEquals(0, cache.mutableSize());
      // Each key comes back among four first reads: a table fills with returns, a fifth of the
      // reads (under PromotionPolicy.MIN_ADMITTED_SHARE).
      int cold = 1000;
      for (int i = 0; i < FULL; i++) {
        read(db, i);
        readCold(db, cold);
        cold += COLD_PER_RETURN;
        if (i == FULL - 2) {
          read(db, FULL - 2); // from the cache, before the table is checked
        }
      }
      HotRapStats s = db.stats();
      assertEquals(1, s.promotionCacheHits(), s::toString);
      assertEquals(FULL, s.promotionCandidatesReturned(), s::toString);
      assertEquals(0, s.bytesPromotedByFlush(), "returns among mostly first reads were promoted: " + s);
      assertEquals(HALF, cache.mutableSize(), "half a table was not put back");
      assertNotNull(cache.get(key(FULL - 2)), "the record a get read was not among those put back");
      assertNull(cache.get(key(HALF - 1)), "more than half a table was put back");

      // Another table of returns among first reads; the put-backs, never read, wait through two
      // checks and the third drops them.
      for (int i = 100; i < 100 + 2 * FULL; i++) {
        read(db, i);
      }
      for (int i = 100; i < 100 + 2 * FULL && db.stats().promotionsDroppedUnread() == 0; i++) {
        read(db, i);
        readCold(db, cold);
        cold += COLD_PER_RETURN;
      }
      s = db.stats();
      // All but key FULL - 2, which the assertion above read from the cache.
      assertEquals(HALF - 1, s.promotionsDroppedUnread(), s::toString);
      assertEquals(0, s.bytesPromotedByFlush(), s::toString);
      assertNull(cache.get(key(0)), "a put-back that no get read was kept");
    }
  }

  @Test
  void putBacksReadFromTheCacheCountAsReturnsAndArePromotedWithNewOnes() throws Exception {
    try (HotRapDB db = open(small(dir))) {
      // As above: a table of returns among first reads, half of it put back.
      for (int i = 0; i < FULL; i++) {
        read(db, i);
      }
      int cold = 1000;
      for (int i = 0; i < FULL; i++) {
        read(db, i);
        readCold(db, cold);
        cold += COLD_PER_RETURN;
      }
      assertEquals(0, db.stats().bytesPromotedByFlush());
      // New keys read once; then the put-backs, read from the cache, are most of the reads, and
      // the new keys come back. Counted with the slow-tier reads alone, the returns would be a
      // fifth of the recent reads, and the table would be put back again.
      for (int i = 100; i < 100 + FULL; i++) {
        read(db, i);
      }
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < HALF; i++) {
          read(db, i);
        }
      }
      for (int i = 100; i < 100 + FULL && db.stats().bytesPromotedByFlush() == 0; i++) {
        read(db, i);
      }
      HotRapStats s = db.stats();
      assertEquals(3L * HALF, s.promotionCacheHits(), s::toString);
      assertTrue(s.bytesPromotedByFlush() > 0, s.toString());
      assertNotNull(rawGet(db, db.fastHandle(), key(0)), "a put-back read from the cache: " + s);
      assertNotNull(rawGet(db, db.fastHandle(), key(100)), "a new return: " + s);
    }
  }

  @Test
  void returnsThatMakeMostOfTheReadsArePromoted() throws Exception {
    try (HotRapDB db = open(small(dir))) {
      int keys = 3 * FULL;
      for (int i = 0; i < keys; i++) {
        read(db, i);
      }
      for (int i = 0; i < keys; i++) {
        read(db, i);
      }
      HotRapStats s = db.stats();
      assertTrue(s.bytesPromotedByFlush() >= FULL * (key(0).length + VALUE_BYTES), s.toString());
      int onFast = 0;
      for (int i = 0; i < keys; i++) {
        if (rawGet(db, db.fastHandle(), key(i)) != null) {
          onFast++;
        }
      }
      assertTrue(onFast >= FULL, onFast + " of " + keys + " on the fast tier; " + s);
    }
  }
}
