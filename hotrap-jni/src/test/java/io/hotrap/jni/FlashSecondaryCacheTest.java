package io.hotrap.jni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;
import org.rocksdb.TickerType;

@Timeout(120)
class FlashSecondaryCacheTest {
  /** ~2.3 MB of records: about 20 times the block cache below. */
  private static final int RECORDS = 10_000;

  private static final long CACHE_BYTES = 128 * 1024;

  @TempDir Path dir;

  private static FlashSecondaryCache cache(SecondaryCacheBackend backend) {
    return FlashSecondaryCache.builder(backend).capacity(CACHE_BYTES).numShardBits(2).build();
  }

  private static void readAll(CachedDb db, int round) throws RocksDBException {
    for (int i = 0; i < RECORDS; i++) {
      assertArrayEquals(CachedDb.value(i, round), db.get(i), "key " + i);
    }
  }

  @Test
  void theLibraryLoadsWhereverTheBuildProducedIt() {
    Assumptions.assumeTrue(
        NativeHooks.class.getResource(SecondaryCacheNative.RESOURCE) != null,
        "skipped: the build produced no libhotrapsc.so (no C++ compiler or JNI headers)");
    assertTrue(FlashSecondaryCache.available(), FlashSecondaryCache::unavailableReason);
    assertNull(FlashSecondaryCache.unavailableReason());
  }

  @Test
  void readsThatMissTheBlockCacheAreServedByTheBackendWithTheRightValues() throws Exception {
    NativeAssumptions.assumeSecondaryCache();
    MapBackend backend = new MapBackend();
    try (FlashSecondaryCache cache = cache(backend);
        CachedDb db = CachedDb.open(dir, cache)) {
      db.load(RECORDS, 1);

      readAll(db, 1);
      readAll(db, 1);

      FlashSecondaryCache.Stats stats = cache.stats();
      assertTrue(backend.inserts.get() > 0, "the LRU offered its evictions to the backend");
      assertTrue(backend.hits.get() > RECORDS / 100, () -> "backend hits: " + backend.hits);
      assertEquals(backend.inserts.get(), stats.inserts());
      assertEquals(backend.lookups.get(), stats.lookups());
      assertEquals(backend.hits.get(), stats.hits());
      assertEquals(0, stats.insertErrors());
      assertEquals(0, stats.lookupErrors());
      assertEquals(0, backend.badGroups.get(), "insert's group is the key's first eight bytes");
      // RocksDB's own count of blocks it took from the secondary cache: our result handles
      // reached its Promote with the objects our lookups built.
      assertEquals(stats.hits(), db.ticker(TickerType.SECONDARY_CACHE_HITS));
    }
  }

  @Test
  void overwrittenRecordsAreReadWithTheirNewValues() throws Exception {
    NativeAssumptions.assumeSecondaryCache();
    MapBackend backend = new MapBackend();
    try (FlashSecondaryCache cache = cache(backend);
        CachedDb db = CachedDb.open(dir, cache)) {
      db.load(RECORDS, 1);
      readAll(db, 1);
      db.load(RECORDS, 2);
      db.db.compactRange();

      readAll(db, 2);
      readAll(db, 2);

      assertTrue(cache.stats().hits() > 0);
    }
  }

  /**
   * RocksDB reads our LRUCacheOptions (capacity, shard bits, ratios) and calls our Name() and
   * GetPrintableOptions() through its own compiled code; a wrong offset or slot shows here.
   */
  @Test
  void rocksDbSeesTheOptionsAndVirtualFunctionsWhereTheProjectsDeclarationsPutThem()
      throws Exception {
    NativeAssumptions.assumeSecondaryCache();
    assertNull(SecondaryCacheNative.probeLayout());
    try (FlashSecondaryCache cache =
            FlashSecondaryCache.builder(new MapBackend())
                .capacity(3 << 20)
                .numShardBits(5)
                .highPriorityPoolRatio(0.25)
                .build();
        CachedDb db = CachedDb.open(dir, cache)) {
      assertEquals(3 << 20, cache.capacity());

      String log = Files.readString(db.dir.resolve("LOG"));
      assertTrue(log.contains("capacity : " + (3 << 20) + "\n"), "capacity in LOG");
      assertTrue(log.contains("num_shard_bits : 5\n"), "num_shard_bits in LOG");
      assertTrue(log.contains("high_pri_pool_ratio: 0.250\n"), "high_pri_pool_ratio in LOG");
      assertTrue(log.contains("secondary_cache:\n    name: HotrapFlashSecondaryCache\n"), log);
    }
  }

  @Test
  void optionsRocksDbRefusesAreReportedAndNothingLeaks() {
    NativeAssumptions.assumeSecondaryCache();
    long before = FlashSecondaryCache.liveAdapters();
    assertThrows(
        IllegalArgumentException.class,
        () -> FlashSecondaryCache.builder(new MapBackend()).capacity(0));
    assertThrows(
        IllegalStateException.class, () -> FlashSecondaryCache.builder(new MapBackend()).build());
    FlashSecondaryCache cache = cache(new MapBackend());
    assertEquals(before + 1, FlashSecondaryCache.liveAdapters());
    cache.close();
    assertEquals(before, FlashSecondaryCache.liveAdapters());
    assertThrows(IllegalStateException.class, cache::stats);
  }

  @Test
  void theSecondaryCacheOutlivesItsJavaOwnerWhileADatabaseUsesIt() throws Exception {
    NativeAssumptions.assumeSecondaryCache();
    long before = FlashSecondaryCache.liveAdapters();
    MapBackend backend = new MapBackend();
    FlashSecondaryCache cache = cache(backend);
    try (CachedDb db = CachedDb.open(dir, cache)) {
      cache.close();
      db.load(RECORDS, 1);
      readAll(db, 1);
      readAll(db, 1);
      assertTrue(backend.hits.get() > 0);
    }
    assertEquals(before, FlashSecondaryCache.liveAdapters());
  }

  @Test
  void aBackendThatThrowsCostsHitsButNeverAWrongValue() throws Exception {
    NativeAssumptions.assumeSecondaryCache();
    MapBackend backend = new MapBackend();
    try (FlashSecondaryCache cache = cache(backend);
        CachedDb db = CachedDb.open(dir, cache)) {
      db.load(RECORDS, 1);
      readAll(db, 1);
      backend.failLookups = true;
      backend.failInserts = true;

      readAll(db, 1);
      readAll(db, 1);

      FlashSecondaryCache.Stats stats = cache.stats();
      assertTrue(stats.lookupErrors() > 0, stats::toString);
      assertTrue(stats.insertErrors() > 0, stats::toString);
      assertEquals(0, db.ticker(TickerType.SECONDARY_CACHE_HITS) - stats.hits());

      backend.failLookups = false;
      readAll(db, 1);
      assertTrue(cache.stats().hits() > 0, "lookups work again once the backend does");
    }
  }

  @Test
  void concurrentReadersAllSeeTheirValues() throws Exception {
    NativeAssumptions.assumeSecondaryCache();
    MapBackend backend = new MapBackend();
    int threads = 4;
    int readsPerThread = 20_000;
    try (FlashSecondaryCache cache = cache(backend);
        CachedDb db = CachedDb.open(dir, cache)) {
      db.load(RECORDS, 1);
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<Long>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          long seed = t;
          results.add(
              pool.submit(
                  () -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    long found = 0;
                    for (int r = 0; r < readsPerThread; r++) {
                      int i = random.nextInt(RECORDS);
                      assertArrayEquals(CachedDb.value(i, 1), db.get(i), "key " + i);
                      found++;
                    }
                    return found;
                  }));
        }
        for (Future<Long> result : results) {
          assertEquals(readsPerThread, result.get());
        }
      } finally {
        pool.shutdownNow();
      }
      FlashSecondaryCache.Stats stats = cache.stats();
      assertTrue(stats.hits() > 0, stats::toString);
      assertEquals(0, stats.lookupErrors() + stats.insertErrors(), stats::toString);
      assertEquals(stats.hits(), db.ticker(TickerType.SECONDARY_CACHE_HITS));
    }
  }
}
