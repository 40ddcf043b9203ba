package io.hotrap.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.bench.workload.Keys;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocksdb-sc} and {@code sas-cache} at block level: RocksDB's block cache over the native
 * secondary cache, over a FlashCache. They serve what was written while compactions rewrite the
 * files whose blocks the cache holds.
 */
@Timeout(180)
class BlockFlashCacheSystemTest {
  @TempDir Path dir;

  private SystemConfig config() {
    return new SystemConfig(dir.resolve("fast"), dir.resolve("slow"), FlashCacheSystemTest.BUDGET,
        false);
  }

  private static void assumeBlockLevel() {
    Assumptions.assumeTrue(BlockFlashCacheSystem.available(),
        () -> "skipped: block-level secondary cache unavailable: "
            + BlockFlashCacheSystem.unavailableReason());
  }

  @Test
  void theSasCacheAtBlockLevelServesNewestValuesFromFlashAndBypassesLookupsItWouldMiss() {
    assumeBlockLevel();
    try (BenchSystem s = Systems.open("sas-cache", config())) {
      assertInstanceOf(BlockFlashCacheSystem.class, s);
      FlashCacheSystemTest.readsSeeEveryWrite(s);
      BenchSystem.FlashCounters f = s.flash();
      assertTrue(f.hits() > 0, "flash served blocks: " + f);
      assertTrue(f.bypassed() > 0, "the filter bypassed lookups: " + f);
      assertTrue(f.offered() > 0 && f.bytesWritten() > 0, f.toString());
      assertTrue(f.getsWithoutSlowRead() > 0 && f.getsWithoutSlowRead() <= f.gets(), f.toString());
    }
  }

  @Test
  void thePlainSecondaryCacheAtBlockLevelLooksUpEveryMiss() {
    assumeBlockLevel();
    try (BenchSystem s = Systems.open("rocksdb-sc", config())) {
      assertInstanceOf(BlockFlashCacheSystem.class, s);
      FlashCacheSystemTest.readsSeeEveryWrite(s);
      BenchSystem.FlashCounters f = s.flash();
      assertTrue(f.hits() > 0, "flash served blocks: " + f);
      assertEquals(0, f.bypassed());
      assertEquals(0, f.dropped(), "no insertion control");
    }
  }

  @Test
  void onlyGetsThatReadTheDiskCountAsSlowNotTheBlocksCompactionsRead() {
    assumeBlockLevel();
    try (BenchSystem s = Systems.open("rocksdb-sc", config())) {
      writeAll(s, (byte) 1);
      int gets = 1_000;
      for (int i = 0; i < gets; i++) {
        s.get(Keys.key(7)); // the first reads the key's block; the rest find it in the block cache
      }
      writeAll(s, (byte) 2); // compactions read the blocks of every file
      BenchSystem.Counters c = s.counters();
      assertEquals(gets, c.gets());
      assertEquals(1, c.slowGets(), c.toString());
      assertEquals(gets - 1, s.flash().getsWithoutSlowRead());
    }
  }

  @Test
  void withThePrefetchAHotKeysRewrittenBlockIsInTheCacheBeforeItsNextGet() {
    assumeBlockLevel();
    try (BenchSystem s = Systems.open("sas-cache-pf", config())) {
      writeAll(s, (byte) 1);
      for (int i = 0; i < 100; i++) {
        s.get(Keys.key(7));
      }
      writeAll(s, (byte) 2); // flushes and compactions rewrite key 7's block; settle awaits the prefetch
      long slowBefore = s.counters().slowGets();

      byte[] value = s.get(Keys.key(7));

      assertEquals(2, value[0], "the newest value");
      assertEquals(slowBefore, s.counters().slowGets(), "served without the slow disk");
      byte[] cold = s.get(Keys.key(9_000));
      assertEquals(2, cold[0]);
      assertEquals(slowBefore + 1, s.counters().slowGets(), "a key never read was not prefetched");
    }
  }

  @Test
  void withoutThePrefetchTheSameGetReadsTheSlowDisk() {
    // The control for the test above.
    assumeBlockLevel();
    try (BenchSystem s = Systems.open("sas-cache", config())) {
      writeAll(s, (byte) 1);
      for (int i = 0; i < 100; i++) {
        s.get(Keys.key(7));
      }
      writeAll(s, (byte) 2);
      long slowBefore = s.counters().slowGets();
      assertEquals(2, s.get(Keys.key(7))[0]);
      assertEquals(slowBefore + 1, s.counters().slowGets());
    }
  }

  private static void writeAll(BenchSystem s, byte fill) {
    byte[] value = new byte[1000];
    Arrays.fill(value, fill);
    for (int i = 0; i < 12_000; i++) {
      s.put(Keys.key(i), value);
    }
    s.settle();
  }

  @Test
  void aPropertySelectsTheRecordLevelStandIn() {
    String old = System.getProperty(Systems.FLASH_LEVEL_PROPERTY);
    try {
      System.setProperty(Systems.FLASH_LEVEL_PROPERTY, "record");
      try (BenchSystem s = Systems.open("rocksdb-sc", config())) {
        assertInstanceOf(FlashCacheSystem.class, s);
      }
      System.setProperty(Systems.FLASH_LEVEL_PROPERTY, "page");
      assertThrows(IllegalArgumentException.class, () -> Systems.open("rocksdb-sc", config()));
    } finally {
      if (old == null) {
        System.clearProperty(Systems.FLASH_LEVEL_PROPERTY);
      } else {
        System.setProperty(Systems.FLASH_LEVEL_PROPERTY, old);
      }
    }
  }
}
