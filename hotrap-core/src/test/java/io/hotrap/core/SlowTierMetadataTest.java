package io.hotrap.core;

import static io.hotrap.core.TestStores.key;
import static io.hotrap.core.TestStores.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;
import org.rocksdb.RocksDB;

/**
 * A slow-tier get reads no index or filter block from disk, however hard hot fast-tier data blocks
 * work the block cache (TierConfig#slow): RocksDB's LRU moves every block hit once into the
 * high-priority pool, so with the slow tier's index and filter blocks in the cache, hot fast-tier
 * blocks evicted them and slow-tier gets read them again. Here a hot set of about twice the cache
 * is read between slow-tier gets spread over about a hundred slow files.
 */
class SlowTierMetadataTest {
  @TempDir Path dir;

  @Test
  void slowTierGetsReadNoIndexOrFilterBlockWhileHotFastBlocksChurnTheCache() throws Exception {
    int cold = 20_000;
    int hot = 10_000;
    int valueBytes = 200;
    try (HotRapDB db = HotRapDB.open(TestStores.small(dir).fastBudgetBytes(256L << 20)
        .blockCacheBytes(1L << 20).slowTargetFileBytes(64L << 10).migrationBatchBytes(64L << 10).promotion(false)
        .readSkewDetection(false).build())) {
      for (int i = 0; i < cold; i++) {
        db.put(key(i), value(i, 1, valueBytes));
      }
      db.flush();
      TestStores.demoteAll(db, 20);
      assertNull(TestStores.rawGet(db, db.fastHandle(), key(0)));
      assertNull(TestStores.rawGet(db, db.fastHandle(), key(cold - 1)));
      db.awaitBackgroundWork();
      int slowFiles = db.rocks().getColumnFamilyMetaData(db.slowHandle()).levels().stream()
          .mapToInt(l -> l.files().size()).sum();
      assertTrue(slowFiles >= 40, "slow files " + slowFiles);
      for (int i = cold; i < cold + hot; i++) {
        db.put(key(i), value(i, 1, valueBytes));
      }
      db.flush();
      RocksDB perf = db.rocks();
      PerfLevel previous = perf.getPerfLevel();
      perf.setPerfLevel(PerfLevel.ENABLE_COUNT);
      try {
        PerfContext context = perf.getPerfContext();
        SplittableRandom r = new SplittableRandom(21);
        long metadataReads = 0;
        long dataReads = 0;
        for (int i = 0; i < 3_000; i++) {
          for (int j = 0; j < 20; j++) {
            assertNotNull(db.get(key(cold + r.nextInt(hot))));
          }
          context.reset();
          int k = r.nextInt(cold);
          assertEquals(valueBytes, db.get(key(k)).length);
          metadataReads += context.getIndexBlockReadCount() + context.getFilterBlockReadCount();
          dataReads += context.getBlockReadCount();
        }
        assertTrue(dataReads > 1_000, "the slow-tier gets read data blocks: " + dataReads);
        assertEquals(0, metadataReads, "index and filter blocks read by slow-tier gets");
      } finally {
        perf.setPerfLevel(previous == PerfLevel.UNINITIALIZED ? PerfLevel.DISABLE : previous);
      }
    }
  }
}
