package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.TableProperties;

/**
 * Each tier's files carry the Bloom filter its own setting asks for, whichever path wrote them:
 * the fast tier's flushes and compactions, and the slow tier's files, which demotion writes and
 * ingests before the slow tier's compactions merge them (HotRapOptions#slowBloomBitsPerKey).
 */
class TierFilterTest {
  private static final int RECORDS = 20_000;

  @TempDir Path dir;

  @Test
  void eachTierBuildsItsFiltersWithItsOwnBitsPerKey() throws Exception {
    try (HotRapDB db = demoted(TestStores.small(dir).bloomBitsPerKey(10).slowBloomBitsPerKey(16))) {
      double fast = bitsPerKey(db, db.fastHandle());
      double slow = bitsPerKey(db, db.slowHandle());
      // RocksDB rounds a filter's size to its cache-line blocks: a little above the asked bits.
      assertTrue(fast >= 9.5 && fast < 13, "fast-tier filter bits per key " + fast);
      assertTrue(slow >= 15.5 && slow < 19, "slow-tier filter bits per key " + slow);
    }
  }

  @Test
  void noBitsMeansNoFilterInThatTierAndReadsStillFindEveryRecord() throws Exception {
    try (HotRapDB db = demoted(TestStores.small(dir).bloomBitsPerKey(10).slowBloomBitsPerKey(0))) {
      assertEquals(0.0, bitsPerKey(db, db.slowHandle()));
      assertTrue(bitsPerKey(db, db.fastHandle()) > 9);
      for (int i = 0; i < RECORDS; i += 97) {
        assertArrayEquals(value(i, 1, 200), db.get(key(i)), "record " + i);
      }
    }
  }

  @Test
  void bitsOutsideZeroToHundredAreRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HotRapOptions.builder().slowBloomBitsPerKey(-1));
    assertEquals("slowBloomBitsPerKey must be in [0, 100] but was -1.0", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> HotRapOptions.builder().slowBloomBitsPerKey(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> HotRapOptions.builder().slowBloomBitsPerKey(101));
  }

  /** A store whose older records have all been demoted; the newest flush stays in the fast tier. */
  private HotRapDB demoted(HotRapOptions.Builder options) throws Exception {
    HotRapDB db = HotRapDB.open(options.fastBudgetBytes(256L << 20).slowTargetFileBytes(64L << 10)
        .migrationBatchBytes(64L << 10).promotion(false).build());
    try {
      for (int i = 0; i < RECORDS; i++) {
        db.put(key(i), value(i, 1, 200));
      }
      db.flush();
      TestStores.demoteAll(db, 20);
      assertNull(TestStores.rawGet(db, db.fastHandle(), key(0)));
      for (int i = RECORDS; i < RECORDS + 2_000; i++) {
        db.put(key(i), value(i, 1, 200));
      }
      db.flush();
      return db;
    } catch (Exception | Error e) {
      db.close();
      throw e;
    }
  }

  /** Filter bits per entry over the family's files; fails if the family holds none. */
  private static double bitsPerKey(HotRapDB db, ColumnFamilyHandle family) throws Exception {
    Map<String, TableProperties> tables = db.rocks().getPropertiesOfAllTables(family);
    long entries = 0;
    long filterBytes = 0;
    for (TableProperties t : tables.values()) {
      entries += t.getNumEntries();
      filterBytes += t.getFilterSize();
    }
    assertTrue(entries > 1_000, "entries in the family's files: " + entries);
    return 8.0 * filterBytes / entries;
  }
}
