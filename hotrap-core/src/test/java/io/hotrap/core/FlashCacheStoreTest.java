package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.rawGet;
import static io.hotrap.core.TestStores.small;
import static io.hotrap.core.TestStores.value;
import static io.hotrap.core.TestStores.versionOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.cache.flash.FlashIndexKind;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The record-level flash cache in front of the slow tier ({@link SlowTierCache}): what it serves,
 * that writes keep it from serving an old version (rule P2 forced by a hook), warm restart, and bad
 * settings.
 */
class FlashCacheStoreTest {
  static final int RECORDS = 200;
  static final int VALUE_BYTES = 100;

  @TempDir Path dir;

  /**
   * No block cache, so that the probe without I/O never finds an SST record and every slow-tier
   * get reaches the flash cache; promotion off, so that records stay on the slow tier.
   */
  private HotRapOptions.Builder withCache() {
    return withCache(false);
  }

  private HotRapOptions.Builder withCache(boolean offHeapIndex) {
    return small(dir).fastBudgetBytes(256L << 20).blockCacheBytes(0).promotion(false)
        .flashCache(FlashCacheOptions.builder().flashBytes(16L << 20).dramBytes(64 << 10)
            .offHeapIndex(offHeapIndex).build());
  }

  private static void loadIntoSlow(HotRapDB db) throws Exception {
    for (int i = 0; i < RECORDS; i++) {
      db.put(key(i), value(i, 1, VALUE_BYTES));
    }
    db.flush();
    db.migrator().migrateNow(Long.MAX_VALUE, true);
    db.flush(); // out of the slow tier's memtable, which the probe without I/O would find
    assertNull(rawGet(db, db.fastHandle(), key(RECORDS / 2)));
  }

  @Test
  void aSlowTierRecordIsServedByTheFlashCacheFromItsSecondRead() throws Exception {
    try (HotRapDB db = HotRapDB.open(withCache().build())) {
      loadIntoSlow(db);
      for (int i = 0; i < RECORDS; i++) {
        assertEquals(1, versionOf(db.get(key(i))));
      }
      assertEquals(0, db.stats().getsServedFlash());
      for (int i = 0; i < RECORDS; i++) {
        assertArrayEquals(value(i, 1, VALUE_BYTES), db.get(key(i)));
      }
      HotRapStats s = db.stats();
      assertEquals(RECORDS, s.getsServedFlash());
      assertEquals(2L * RECORDS, s.getsServedSlow(), "flash hits are part of the slow-tier gets");
      assertNotNull(s.flashCacheStats());
      assertNull(db.get(key(RECORDS + 5)), "an absent key is absent");
    }
  }

  @Test
  void userWritesAndDeletesAreNeverShadowedByTheCachedCopy() throws Exception {
    try (HotRapDB db = HotRapDB.open(withCache().build())) {
      loadIntoSlow(db);
      for (int i = 0; i < RECORDS; i++) {
        db.get(key(i));
      }
      db.put(key(3), value(3, 2, VALUE_BYTES));
      db.delete(key(4));
      HotRapWriteBatch batch = new HotRapWriteBatch();
      batch.put(key(5), value(5, 2, VALUE_BYTES));
      batch.delete(key(6));
      db.write(batch);
      for (int k : new int[] {3, 4, 5, 6}) {
        assertNull(db.flashCache().peek(key(k)), "a write invalidates the cached copy of key " + k);
      }
      // Move the new versions down: only now would a stale cached copy be read before them.
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      for (int round = 0; round < 2; round++) {
        assertEquals(2, versionOf(db.get(key(3))));
        assertNull(db.get(key(4)));
        assertEquals(2, versionOf(db.get(key(5))));
        assertNull(db.get(key(6)));
      }
    }
  }

  /** Rule P2 for the flash cache: a write between the reader's slow read and its insert wins. */
  @Test
  void writeBetweenTheSlowReadAndTheInsertAbortsTheInsert() throws Exception {
    byte[] target = key(7);
    try (HotRapDB db = HotRapDB.open(withCache().build())) {
      loadIntoSlow(db);
      boolean[] done = {false};
      db.flashCache().setAfterSlowRead(k -> {
        if (!done[0] && Arrays.equals(k, target)) {
          done[0] = true;
          db.put(target, value(7, 2, VALUE_BYTES));
        }
      });
      assertEquals(1, versionOf(db.get(target)), "the read began before the write");
      assertTrue(done[0]);
      assertNull(db.flashCache().peek(target), "the old slow-tier version was cached");
      assertEquals(1, db.stats().flashInsertsAborted());
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
      assertEquals(2, versionOf(db.get(target)));
      assertEquals(2, versionOf(db.get(target)));
    }
  }

  @Test
  void snapshotReadsNeitherUseNorFillTheCache() throws Exception {
    try (HotRapDB db = HotRapDB.open(withCache().build())) {
      loadIntoSlow(db);
      try (HotRapSnapshot snap = db.getSnapshot()) {
        db.put(key(1), value(1, 2, VALUE_BYTES));
        db.flush();
        db.get(key(2)); // cached at the newest version, which the snapshot also sees
        assertEquals(1, versionOf(db.get(snap, key(1))));
        assertEquals(1, versionOf(db.get(snap, key(2))));
        assertNull(db.flashCache().peek(key(1)));
        assertEquals(0, db.stats().getsServedFlash());
      }
    }
  }

  @ParameterizedTest(name = "off-heap index {0}")
  @ValueSource(booleans = {false, true})
  void aCleanCloseKeepsTheCachedRecordsForTheNextOpen(boolean offHeapIndex) throws Exception {
    FlashIndexKind kind = offHeapIndex ? FlashIndexKind.OFF_HEAP : FlashIndexKind.ON_HEAP;
    try (HotRapDB db = HotRapDB.open(withCache(offHeapIndex).build())) {
      assertEquals(kind, db.flashCache().indexKind(), "the test JVM has Chronicle's options");
      loadIntoSlow(db);
      for (int i = 0; i < RECORDS; i++) {
        db.get(key(i));
      }
    }
    try (HotRapDB db = HotRapDB.open(withCache(offHeapIndex).build())) {
      assertEquals(kind, db.flashCache().indexKind());
      for (int i = 0; i < RECORDS; i++) {
        assertEquals(1, versionOf(db.get(key(i))));
      }
      assertTrue(db.stats().getsServedFlash() >= RECORDS * 95 / 100,
          "served from the restored cache: " + db.stats().getsServedFlash());
    }
  }

  @ParameterizedTest(name = "off-heap index {0}")
  @ValueSource(booleans = {false, true})
  void writesMadeWhileTheCacheWasClosedDiscardItsSavedItems(boolean offHeapIndex)
      throws Exception {
    try (HotRapDB db = HotRapDB.open(withCache(offHeapIndex).build())) {
      loadIntoSlow(db);
      for (int i = 0; i < RECORDS; i++) {
        db.get(key(i));
      }
    }
    try (HotRapDB db = HotRapDB.open(small(dir).fastBudgetBytes(256L << 20).blockCacheBytes(0)
        .promotion(false).build())) {
      db.put(key(9), value(9, 2, VALUE_BYTES));
      db.flush();
      db.migrator().migrateNow(Long.MAX_VALUE, true);
    }
    try (HotRapDB db = HotRapDB.open(withCache(offHeapIndex).build())) {
      assertEquals(2, versionOf(db.get(key(9))));
      assertEquals(0, db.stats().getsServedFlash(), "the cache started cold");
    }
  }

  @Test
  void flashMetersAreBoundWithTheStore() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (HotRapDB db = HotRapDB.open(withCache().meterRegistry(registry).build())) {
      loadIntoSlow(db);
      db.get(key(1));
      db.get(key(1));
      assertEquals(1.0, registry.get("hotrap.gets.flash").functionCounter().count());
      assertTrue(registry.get("hotrap.flash.gets").tag("result", "dram").functionCounter().count()
          + registry.get("hotrap.flash.gets").tag("result", "flash").functionCounter().count() >= 1);
      String store = registry.get("hotrap.gets.flash").functionCounter().getId().getTag("store");
      assertEquals(store, registry.get("hotrap.flash.gets").tag("result", "dram").functionCounter()
          .getId().getTag("store"), "the cache's meters carry the store's tag");
    }
    assertTrue(registry.find("hotrap.flash.gets").meters().isEmpty(), "close unbinds them");
  }

  @Test
  void badFlashSettingsAreRejectedWithTheValue() {
    IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
        () -> FlashCacheOptions.builder().flashBytes(1 << 20));
    assertTrue(small.getMessage().contains("1048576"), small.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> FlashCacheOptions.builder().dramBytes(-1));
    assertThrows(NullPointerException.class, () -> FlashCacheOptions.builder().directory(null));
    assertThrows(NullPointerException.class, () -> small(dir).flashCache(null));
    assertThrows(IllegalStateException.class, () -> FlashCacheOptions.builder().build());
    IllegalStateException onSlow = assertThrows(IllegalStateException.class,
        () -> small(dir).flashCache(FlashCacheOptions.builder().flashBytes(16L << 20)
            .directory(dir.resolve("slow").resolve("fc")).build()).build());
    assertTrue(onSlow.getMessage().contains("flash cache"), onSlow.getMessage());
    HotRapOptions o = small(dir).flashCache(FlashCacheOptions.builder().flashBytes(16L << 20)
        .build()).build();
    assertEquals(TestStores.BUDGET + (16L << 20), o.fastDiskBytes());
    assertEquals(dir.resolve("fast").resolve("flash-cache"), o.flashCacheDirectory());
  }

  @Test
  void aFlashDirectoryThatCannotBeCreatedFailsTheOpenAndLosesNothing() throws Exception {
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      db.put(key(1), value(1, 1, VALUE_BYTES));
    }
    // A file where the directory should be: it cannot be created, whoever runs the test.
    Path fc = dir.resolve("not-a-directory");
    Files.writeString(fc, "x");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HotRapDB.open(small(dir).flashCache(FlashCacheOptions.builder()
            .flashBytes(16L << 20).directory(fc).build()).build()));
    assertTrue(e.getMessage().contains(fc.toString()), e.getMessage());
    try (HotRapDB db = HotRapDB.open(small(dir).build())) {
      assertEquals(1, versionOf(db.get(key(1))));
    }
  }
}
