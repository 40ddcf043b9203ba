package io.hotrap.jni;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.TickerType;

@Timeout(120)
class CompactionPrefetcherTest {
  static {
    RocksDB.loadLibrary();
  }

  private static final int RECORDS = 10_000;
  private static final int[] HOT = {17, 5_003, 9_001};

  @TempDir Path dir;

  private final AtomicReference<byte[][]> hints = new AtomicReference<>(new byte[0][]);

  private static byte[][] keys(int... ids) {
    RecentReads reads = new RecentReads(ids.length);
    for (int id : ids) {
      reads.record(CachedDb.key(id));
    }
    return reads.sortedDistinct();
  }

  private static Options readerOptions(LRUCache cache) {
    return new Options().setTableFormatConfig(
        new BlockBasedTableConfig().setBlockCache(cache).setBlockSize(CachedDb.BLOCK_BYTES));
  }

  /** Two overlapping files, then a compaction that rewrites both into new files. */
  private static void loadAndCompact(CachedDb db) throws Exception {
    db.load(RECORDS, 1);
    db.load(RECORDS, 2);
    db.db.compactRange();
  }

  private static long dataMisses(CachedDb db, int... ids) throws Exception {
    long before = db.ticker(TickerType.BLOCK_CACHE_DATA_MISS);
    for (int id : ids) {
      assertArrayEquals(CachedDb.value(id, 2), db.get(id), "key " + id);
    }
    return db.ticker(TickerType.BLOCK_CACHE_DATA_MISS) - before;
  }

  /** What a test checks once the compaction's files were prefetched. */
  private interface Check {
    void run(CachedDb db, CompactionPrefetcher prefetcher) throws Exception;
  }

  /** A database with a prefetcher on the hints, loaded and compacted, the prefetch done. */
  private void afterCompaction(int minKeys, Check check) throws Exception {
    try (LRUCache cache = new LRUCache(8 << 20);
        Options reader = readerOptions(cache);
        CompactionPrefetcher prefetcher =
            new CompactionPrefetcher(reader, hints::get, 1 << 20, minKeys);
        CachedDb db = CachedDb.open(dir, cache, prefetcher)) {
      loadAndCompact(db);
      prefetcher.awaitIdle();
      check.run(db, prefetcher);
    }
  }

  @Test
  void theBlocksOfHintedKeysInACompactionsNewFilesAreInTheBlockCacheAfterIt() throws Exception {
    hints.set(keys(HOT));
    afterCompaction(1, (db, prefetcher) -> {
      assertEquals(0, dataMisses(db, HOT), "the hinted keys' blocks were read ahead");
      assertEquals(3, dataMisses(db, 2_000, 4_000, 7_000), "blocks of other keys were not");
      CompactionPrefetcher.Stats s = prefetcher.stats();
      assertTrue(s.filesRead() >= 1, s.toString());
      assertEquals(0, s.failures(), s.toString());
      assertTrue(s.keysFound() >= 3 * s.filesRead(), "every file holds every key: " + s);
    });
  }

  @Test
  void aHintedKeyTheFileDoesNotHoldBringsNoBlock() throws Exception {
    // Between key 5003 and key 5004: a seek to it would land on key 5004's block.
    byte[] absent = (new String(CachedDb.key(5_003), UTF_8) + "x").getBytes(UTF_8);
    RecentReads reads = new RecentReads(2);
    reads.record(CachedDb.key(17));
    reads.record(absent);
    hints.set(reads.sortedDistinct());
    afterCompaction(1, (db, prefetcher) -> {
      assertEquals(0, dataMisses(db, 17));
      assertEquals(1, dataMisses(db, 5_004), "key 5004's block was not read ahead");
      CompactionPrefetcher.Stats s = prefetcher.stats();
      assertEquals(s.filesRead(), s.keysSought(), "one key sought per file: " + s);
      assertEquals(s.keysSought(), s.keysFound(), s.toString());
    });
  }

  @Test
  void withoutThePrefetchTheSameKeysMissAfterTheCompaction() throws Exception {
    // The control for the test above: the compaction itself puts nothing into the block cache.
    try (LRUCache cache = new LRUCache(8 << 20);
        CachedDb db = CachedDb.open(dir, cache)) {
      loadAndCompact(db);
      assertEquals(3, dataMisses(db, HOT));
    }
  }

  @Test
  void filesWithFewerHintedKeysThanTheMinimumAreNotRead() throws Exception {
    hints.set(keys(HOT));
    afterCompaction(4, (db, prefetcher) -> {
      CompactionPrefetcher.Stats s = prefetcher.stats();
      assertEquals(0, s.filesRead(), s.toString());
      assertEquals(s.filesQueued(), s.filesSkipped(), s.toString());
      assertEquals(3, dataMisses(db, HOT));
    });
  }

  @Test
  void closingWithFilesQueuedStopsThePrefetchAndTheDatabaseClosesCleanly() throws Exception {
    hints.set(keys(HOT));
    try (LRUCache cache = new LRUCache(8 << 20);
        Options reader = readerOptions(cache)) {
      CompactionPrefetcher prefetcher = new CompactionPrefetcher(reader, hints::get, 1 << 20, 1);
      try (CachedDb db = CachedDb.open(dir, cache, prefetcher)) {
        loadAndCompact(db);
        prefetcher.close(); // before the database, as the contract says; queued files are left
        prefetcher.awaitIdle(); // returns: the thread is gone
        assertEquals(0, prefetcher.stats().failures());
        assertArrayEquals(CachedDb.value(5, 2), db.get(5));
      }
    }
  }

  @Test
  void badSettingsAreRefusedWithTheirValue() {
    try (Options options = new Options()) {
      IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
          () -> new CompactionPrefetcher(options, hints::get, 100, 1));
      assertTrue(small.getMessage().contains("100"), small.getMessage());
      IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
          () -> new CompactionPrefetcher(options, hints::get, 1 << 20, 0));
      assertTrue(none.getMessage().contains("0"), none.getMessage());
    }
  }
}
