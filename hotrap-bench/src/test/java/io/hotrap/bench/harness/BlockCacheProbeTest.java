package io.hotrap.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.TickerType;

/**
 * The probe counts what RocksDB's own statistics count for data blocks, sees the gets of
 * HotRapDB's tiers as well as plain RocksDB's, and counts the gets of its own thread only.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BlockCacheProbeTest {
  /** 12 MiB of 1 KiB records: more than the 8 MiB block cache, so gets both hit and miss. */
  private static final int RECORDS = 12_000;
  private static final int GETS = 20_000;

  @TempDir Path dir;

  private SystemConfig config() {
    return new SystemConfig(dir.resolve("fast"), dir.resolve("slow"), 4L << 20, false);
  }

  private static byte[] key(long id) {
    return ByteBuffer.allocate(Long.BYTES).putLong(id).array();
  }

  private static void load(BenchSystem s) {
    SplittableRandom random = new SplittableRandom(3);
    byte[] value = new byte[1000];
    for (int i = 0; i < RECORDS; i++) {
      random.nextBytes(value);
      s.put(key(i), value);
    }
    s.settle();
  }

  private static void getRandomKeys(BenchSystem s, int gets, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < gets; i++) {
      s.get(key(random.nextInt(RECORDS)));
    }
  }

  @Test
  void countsTheDataBlocksOfThisThreadsGetsAsRocksDbStatisticsDo() {
    try (RocksDbSystem s = (RocksDbSystem) Systems.open("rocksdb-fd", config())) {
      load(s);
      long hitsBefore = s.ticker(TickerType.BLOCK_CACHE_DATA_HIT);
      long missesBefore = s.ticker(TickerType.BLOCK_CACHE_DATA_MISS);
      BlockCacheProbe.Totals totals = new BlockCacheProbe.Totals();

      try (BlockCacheProbe probe = new BlockCacheProbe(totals)) {
        getRandomKeys(s, GETS, 5);
      }

      assertEquals(s.ticker(TickerType.BLOCK_CACHE_DATA_HIT) - hitsBefore, totals.hits());
      assertEquals(s.ticker(TickerType.BLOCK_CACHE_DATA_MISS) - missesBefore, totals.misses());
      assertTrue(totals.hits() > 0 && totals.misses() > 0, totals.hits() + " / " + totals.misses());
    }
  }

  @Test
  void seesHotRapsTiersAndOnlyItsOwnThread() throws InterruptedException {
    try (BenchSystem s = Systems.open("hotrap", config())) {
      load(s);
      BlockCacheProbe.Totals totals = new BlockCacheProbe.Totals();
      try (BlockCacheProbe probe = new BlockCacheProbe(totals)) {
        Thread other = new Thread(() -> getRandomKeys(s, GETS, 7));
        other.start();
        other.join();
        probe.publish();
        assertEquals(0, totals.hits() + totals.misses(), "another thread's gets");

        getRandomKeys(s, GETS, 5);
      }

      assertTrue(totals.hits() + totals.misses() >= GETS / 2,
          totals.hits() + " hits, " + totals.misses() + " misses");
    }
  }

  @Test
  void hitRateIsNaNWithoutLookups() {
    assertTrue(Double.isNaN(BlockCacheProbe.hitRate(0, 0)));
    assertEquals(0.75, BlockCacheProbe.hitRate(3, 1));
  }
}
