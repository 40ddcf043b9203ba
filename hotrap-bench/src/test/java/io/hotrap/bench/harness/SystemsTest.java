package io.hotrap.bench.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.bench.workload.Keys;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocksdb.TickerType;

class SystemsTest {
  static final long BUDGET = 4L << 20;

  @TempDir Path dir;

  private SystemConfig config() {
    return new SystemConfig(dir.resolve("fast"), dir.resolve("slow"), BUDGET, false);
  }

  @Test
  void theBlockCacheIsHotRapsDefaultUnlessSet() {
    assertEquals(8L << 20, config().shared().blockCacheBytes());
    SystemConfig larger = new SystemConfig(dir.resolve("fast"), dir.resolve("slow"), BUDGET, false,
        24L << 20);
    assertEquals(24L << 20, larger.shared().blockCacheBytes());
    assertThrows(IllegalArgumentException.class,
        () -> new SystemConfig(dir.resolve("fast"), dir.resolve("slow"), BUDGET, false, -1));
  }

  @ParameterizedTest
  @ValueSource(strings = {"rocksdb-fd", "rocksdb-tiered", "hotrap", "hotrap-no-retain",
      "hotrap-no-hotness-check", "hotrap-no-by-compaction", "hotrap-no-promotion", "rocksdb-sc",
      "sas-cache", "sas-cache-rec", "hotrap-mem"})
  void everySystemStoresAndCountsGets(String name) {
    try (BenchSystem s = Systems.open(name, config())) {
      assertEquals(name, s.name());
      s.put(Keys.key(1), new byte[] {1, 2, 3});
      assertArrayEquals(new byte[] {1, 2, 3}, s.get(Keys.key(1)));
      assertNull(s.get(Keys.key(2)));
      BenchSystem.Counters c = s.counters();
      assertEquals(2, c.gets());
      assertTrue(c.fastGets() <= c.gets());
    }
  }

  @Test
  void tieredRocksDbServesOldRecordsFromTheSlowPathAndCountsThemSo() {
    int records = (int) (6 * BUDGET / 1000);
    try (BenchSystem s = Systems.open("rocksdb-tiered", config())) {
      byte[] value = new byte[1000];
      new Random(1).nextBytes(value);
      for (int i = 0; i < records; i++) {
        s.put(Keys.key(i), value);
      }
      s.settle();
      BenchSystem.Counters before = s.counters();
      for (int i = 0; i < records; i += 7) {
        assertArrayEquals(value, s.get(Keys.key(i)));
      }
      BenchSystem.Counters after = s.counters();
      long gets = after.gets() - before.gets();
      long fast = after.fastGets() - before.fastGets();
      // L0 and L1 (at most the budget) are on the fast path; most of six budgets of data is not.
      assertTrue(fast < gets / 2, fast + " of " + gets + " gets counted fast");
      assertTrue(after.slowCompactionBytes() > 0, "compaction into the slow path: " + after);
    }
  }

  @Test
  void rocksDbOnTheFastDiskCountsEveryGetFast() {
    try (BenchSystem s = Systems.open("rocksdb-fd", config())) {
      for (int i = 0; i < 100; i++) {
        s.put(Keys.key(i), new byte[100]);
      }
      s.settle();
      for (int i = 0; i < 100; i++) {
        s.get(Keys.key(i));
      }
      BenchSystem.Counters c = s.counters();
      assertEquals(100, c.gets());
      assertEquals(100, c.fastGets());
      assertTrue(c.fastCompactionBytes() > 0, "the flush counts as fast-tier output: " + c);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"rocksdb-fd", "rocksdb-tiered", "rocksdb-sc", "sas-cache",
      "sas-cache-rec"})
  void rocksDbKeepsIndexAndFilterBlocksWithTheTableReadersAndOnlyDataInTheBlockCache(
      String name) {
    int records = (int) (6 * BUDGET / 1000);
    try (BenchSystem s = Systems.open(name, config())) {
      byte[] value = new byte[1000];
      new Random(2).nextBytes(value);
      for (int i = 0; i < records; i++) {
        s.put(Keys.key(i), value);
      }
      s.settle();
      for (int i = 0; i < records; i += 3) {
        assertArrayEquals(value, s.get(Keys.key(i)));
      }
      TickerSource rocks = (TickerSource) s;
      assertTrue(rocks.ticker(TickerType.BLOCK_CACHE_DATA_ADD) > 0, "data blocks are cached");
      assertEquals(0, rocks.ticker(TickerType.BLOCK_CACHE_INDEX_ADD), "index blocks in the cache");
      assertEquals(0, rocks.ticker(TickerType.BLOCK_CACHE_FILTER_ADD),
          "filter blocks in the cache");
    }
  }

  @Test
  void unknownSystemNamesAreRejectedWithTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Systems.open("leveldb", config()));
    assertTrue(e.getMessage().contains("rocksdb-tiered"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Systems.requireKnown("hotrap-fast"));
  }

  @Test
  void hotrapVariantsShareOneDirectorySoOneLoadedTemplateServesThemAll() {
    assertEquals("hotrap", Systems.loadFamily("hotrap-no-retain"));
    assertEquals("hotrap", Systems.loadFamily("hotrap"));
    assertEquals("rocksdb-tiered", Systems.loadFamily("rocksdb-tiered"));
  }
}
