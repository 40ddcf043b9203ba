package io.hotrap.bench.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.bench.report.FlashResult;
import io.hotrap.bench.workload.Keys;
import io.hotrap.cache.flash.FlashCache;
import io.hotrap.core.HotRapOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record-level stand-ins for a secondary cache under RocksDB (built directly: {@link Systems}
 * picks the block level where it is available): they serve what was written, however the cache
 * and compaction interleave, and count what the report needs.
 */
@Timeout(120)
class FlashCacheSystemTest {
  static final long BUDGET = 16L << 20;

  @TempDir Path dir;

  private SystemConfig config() {
    return new SystemConfig(dir.resolve("fast"), dir.resolve("slow"), BUDGET, false);
  }

  private BenchSystem recordLevel(String name, FlashCacheSystem.Kind kind) {
    return new FlashCacheSystem(name, config(), kind, true);
  }

  /**
   * Loads enough records for compactions, reads, overwrites part, compacts again and reads: every
   * read returns the last value written, with the cache serving part of them.
   */
  static void readsSeeEveryWrite(BenchSystem s) {
    int records = 12_000;
    Random r = new Random(1);
    byte[][] model = new byte[records][];
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < records; i++) {
        if (round == 0 || r.nextInt(4) == 0) {
          byte[] v = new byte[1000];
          r.nextBytes(v);
          s.put(Keys.key(i), v);
          model[i] = v;
        }
      }
      s.settle();
      for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < records; i += 3) {
          assertArrayEquals(model[i], s.get(Keys.key(i)), "key " + i + " round " + round);
        }
      }
    }
    assertNull(s.get(Keys.key(records + 1)));
  }

  @Test
  void theSasCacheServesNewestValuesAndBypassesLookupsItWouldMiss() {
    try (BenchSystem s = recordLevel("sas-cache", FlashCacheSystem.Kind.SAS)) {
      readsSeeEveryWrite(s);
      BenchSystem.FlashCounters f = s.flash();
      assertTrue(f.hits() > 0, "the cache served gets: " + f);
      assertTrue(f.bypassed() > 0, "the filter bypassed lookups: " + f);
      assertTrue(f.getsWithoutSlowRead() <= f.gets());
    }
  }

  @Test
  void recordSizedItemsLetTheSameFlashHoldMoreRecords() {
    long blockBytesWritten;
    try (BenchSystem s = recordLevel("sas-cache", FlashCacheSystem.Kind.SAS)) {
      readsSeeEveryWrite(s);
      blockBytesWritten = s.flash().bytesWritten();
    }
    try (BenchSystem s = Systems.open("sas-cache-rec", config())) {
      readsSeeEveryWrite(s);
      // 1000-byte values padded to 4 KiB blocks write about four times the bytes.
      assertTrue(s.flash().bytesWritten() * 2 < blockBytesWritten,
          s.flash().bytesWritten() + " vs " + blockBytesWritten);
    }
  }

  @Test
  void thePlainSecondaryCacheLooksUpEveryMiss() {
    try (BenchSystem s = recordLevel("rocksdb-sc", FlashCacheSystem.Kind.PLAIN)) {
      readsSeeEveryWrite(s);
      BenchSystem.FlashCounters f = s.flash();
      assertTrue(f.hits() > 0, "the cache served gets: " + f);
      assertEquals(0, f.bypassed());
      assertTrue(f.bytesWritten() > 0);
    }
  }

  @Test
  void thePersistentCacheCountsAGetAsSlowOnlyWhenItReadTheDisk() {
    // RocksDB refuses a PersistentCache under about 100 MiB.
    SystemConfig big =
        new SystemConfig(dir.resolve("fast"), dir.resolve("slow"), 128L << 20, false);
    try (BenchSystem s = Systems.open("rocksdb-pcache", big)) {
      byte[] value = new byte[1000];
      for (int i = 0; i < 12_000; i++) {
        s.put(Keys.key(i), value);
      }
      s.settle();
      int gets = 500;
      for (int i = 0; i < gets; i++) {
        assertArrayEquals(value, s.get(Keys.key(11))); // the first reads the block, the rest hit
      }
      assertArrayEquals(value, s.get(Keys.key(5_000)));
      BenchSystem.Counters c = s.counters();
      assertEquals(gets + 1, c.gets());
      assertEquals(2, c.slowGets(), c.toString());
    }
  }

  @Test
  void groupsAreLiveFilesUntilCompactionDeletesThem() throws Exception {
    SstGroups groups = new SstGroups();
    assertEquals(FlashCache.NO_GROUP, groups.groupOf(Keys.key(1)), "no files yet");
    assertEquals(123, SstGroups.number("/data/000123.sst"));
    long[] dead = groups.markDeleted(List.of("/x/000007.sst", "/x/000009.sst"));
    assertArrayEquals(new long[] {7, 9}, dead);
    assertTrue(groups.isDead(7));
    assertTrue(!groups.isDead(8));
    assertTrue(!groups.isDead(FlashCache.NO_GROUP));
  }

  @Test
  void theSasQueueOfDeletedFilesSpansTheDeletedBytesOfSasCachesTenFilesAgainstTheBlockCache() {
    HotRapOptions at32 = new SystemConfig(dir.resolve("a"), dir.resolve("b"), 32L << 20, false)
        .shared();
    assertEquals(100, FlashCacheSystem.invalidGroupsRemembered(at32),
        "2.5 x 8 MiB of block cache in files of 32 MiB / 160");
    HotRapOptions large = new SystemConfig(dir.resolve("c"), dir.resolve("d"), 640L << 20, false)
        .shared();
    assertEquals(FlashCacheSystem.SAS_INVALID_GROUPS,
        FlashCacheSystem.invalidGroupsRemembered(large),
        "SAS-Cache's 10 where the block cache is 4 files, a 40th against a 160th of the budget");
  }

  @Test
  void flashFiguresAreDifferencesOverTheRun() {
    BenchSystem.FlashCounters before = new BenchSystem.FlashCounters(100, 50, 10, 1000, 40, 4, 0,
        200, 120);
    BenchSystem.FlashCounters after = new BenchSystem.FlashCounters(300, 230, 60, 5000, 140, 24, 10,
        600, 420);
    FlashResult f = Runner.flashResult(before, after);
    assertEquals(180.0 / 200, f.lookupHitRatio(), 1e-12);
    assertEquals(300.0 / 400, f.overallHitRatio(), 1e-12);
    assertEquals(4000, f.bytesWritten());
    assertEquals(20.0 / 100, f.deletedFileOfferShare(), 1e-12);
    assertEquals(10.0 / 90, f.deletedFileInsertShare(), 1e-12);
    assertEquals(50, f.bypassedLookups());
    assertNull(Runner.flashResult(null, after));
    assertNotEquals(Double.NaN, f.lookupHitRatio());
  }
}
