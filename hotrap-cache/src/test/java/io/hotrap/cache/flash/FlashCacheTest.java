package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class FlashCacheTest {
  @TempDir Path dir;

  @Test
  void putThenGetIsServedByDram() {
    try (FlashCache cache = Items.small(dir, 16, 1 << 20).build()) {
      cache.put(Items.key(1), Items.value(1, 1, 100));
      assertArrayEquals(Items.value(1, 1, 100), cache.get(Items.key(1)));
      assertNull(cache.get(Items.key(2)));
      FlashCacheStats s = cache.stats();
      assertEquals(1, s.dramHits());
      assertEquals(0, s.flashHits());
      assertEquals(1, s.misses());
    }
  }

  @Test
  void itemsEvictedFromDramAreServedFromFlash() throws Exception {
    try (FlashCache cache = Items.small(dir, 32, 64 << 10).build()) {
      for (int i = 0; i < 2000; i++) {
        cache.put(Items.key(i), Items.value(i, 1, 300));
      }
      cache.awaitQuiescence();
      int hits = 0;
      for (int i = 0; i < 2000; i++) {
        byte[] v = cache.get(Items.key(i));
        if (v != null) {
          assertArrayEquals(Items.value(i, 1, 300), v);
          hits++;
        }
      }
      FlashCacheStats s = cache.stats();
      assertTrue(s.flashHits() > 1500, s.toString());
      assertEquals(2000, hits, s.toString());
      assertTrue(s.flashItemsAdmitted() > 0);
    }
  }

  @Test
  void withNoDramEveryPutGoesToFlash() throws Exception {
    try (FlashCache cache = Items.small(dir, 16, 0).build()) {
      cache.put(Items.key(1), Items.value(1, 1, 100));
      assertArrayEquals(Items.value(1, 1, 100), cache.get(Items.key(1)));
      assertEquals(1, cache.stats().flashHits());
      assertEquals(1, cache.stats().flashItemsAdmitted());
    }
  }

  @Test
  void aFlashHitIsCopiedIntoDram() throws Exception {
    try (FlashCache cache = Items.small(dir, 16, 64 << 10).build()) {
      cache.put(Items.key(0), Items.value(0, 1, 100));
      for (int i = 1; i < 1000; i++) {
        cache.put(Items.key(i), Items.value(i, 1, 100));
      }
      assertNotNull(cache.get(Items.key(0)));
      long flashHits = cache.stats().flashHits();
      assertNotNull(cache.get(Items.key(0)));
      assertEquals(flashHits, cache.stats().flashHits(), "second get served by DRAM");
    }
  }

  @Test
  void putReplacesTheValueOnFlash() {
    try (FlashCache cache = Items.small(dir, 16, 0).build()) {
      cache.put(Items.key(1), Items.value(1, 1, 100));
      cache.put(Items.key(1), Items.value(1, 2, 200));
      assertArrayEquals(Items.value(1, 2, 200), cache.get(Items.key(1)));
    }
  }

  @Test
  void invalidateRemovesTheKeyFromBothTiers() {
    try (FlashCache cache = Items.small(dir, 16, 1 << 20).build()) {
      cache.put(Items.key(1), Items.value(1, 1, 100));
      cache.invalidate(Items.key(1));
      assertNull(cache.get(Items.key(1)));
    }
    try (FlashCache cache = Items.small(dir.resolve("b"), 16, 0).build()) {
      cache.put(Items.key(1), Items.value(1, 1, 100));
      assertNotNull(cache.get(Items.key(1)));
      cache.invalidate(Items.key(1));
      assertNull(cache.get(Items.key(1)));
    }
  }

  @Test
  void invalidatingAGroupDropsItsItemsFromBothTiersAndRejectsItsPuts() throws Exception {
    try (FlashCache cache = Items.small(dir, 32, 32 << 10).build()) {
      for (int i = 0; i < 1000; i++) {
        cache.put(Items.key(i), Items.value(i, 1, 200), i % 2 == 0 ? 7 : 8);
      }
      cache.invalidateGroup(7);
      for (int i = 0; i < 1000; i += 2) {
        assertNull(cache.get(Items.key(i)), "key " + i);
      }
      cache.awaitQuiescence();
      FlashCacheStats s = cache.stats();
      assertTrue(s.purgedItems() >= 400, s.toString());
      cache.put(Items.key(0), Items.value(0, 2, 200), 7);
      assertNull(cache.get(Items.key(0)));
      assertEquals(s.droppedInserts() + 1, cache.stats().droppedInserts());
      int hits = 0;
      for (int i = 1; i < 1000; i += 2) {
        if (cache.get(Items.key(i)) != null) {
          hits++;
        }
      }
      assertTrue(hits > 400, "items of group 8 stay: " + hits);
    }
  }

  @Test
  void aDroppedPutInvalidatesTheOlderValue() {
    try (FlashCache cache = Items.small(dir, 16, 1 << 20).build()) {
      cache.put(Items.key(1), Items.value(1, 1, 100), 3);
      cache.invalidateGroup(5);
      cache.put(Items.key(1), Items.value(1, 2, 100), 5);
      assertNull(cache.get(Items.key(1)));
    }
  }

  @Test
  void aGroupIsAcceptedAgainOnceItLeftTheFifo() throws Exception {
    try (FlashCache cache = Items.small(dir, 16, 1 << 20).invalidGroupsRemembered(2).build()) {
      cache.invalidateGroup(1);
      cache.invalidateGroup(2);
      cache.invalidateGroup(3);
      cache.awaitQuiescence();
      cache.put(Items.key(1), Items.value(1, 1, 100), 1);
      cache.put(Items.key(2), Items.value(2, 1, 100), 2);
      assertNotNull(cache.get(Items.key(1)));
      assertNull(cache.get(Items.key(2)));
    }
  }

  @Test
  void theBypassFilterKeepsLookupsOfAbsentKeysOffFlash() {
    try (FlashCache cache = Items.small(dir, 16, 0).build()) {
      for (int i = 0; i < 100; i++) {
        cache.put(Items.key(i), Items.value(i, 1, 100));
      }
      for (int i = 1000; i < 2000; i++) {
        assertNull(cache.get(Items.key(i)));
      }
      FlashCacheStats s = cache.stats();
      assertEquals(1000, s.misses());
      assertTrue(s.bypassedLookups() >= 990, s.toString());
    }
  }

  @Test
  void withoutTheFilterNoLookupIsBypassed() {
    try (FlashCache cache = Items.small(dir, 16, 0).bypassFilter(false).build()) {
      cache.put(Items.key(1), Items.value(1, 1, 100));
      for (int i = 1000; i < 1100; i++) {
        assertNull(cache.get(Items.key(i)));
      }
      assertEquals(0, cache.stats().bypassedLookups());
      assertNotNull(cache.get(Items.key(1)));
    }
  }

  @Test
  void regionEvictionReinsertsItemsReadSinceWritten() throws Exception {
    try (FlashCache cache = Items.small(dir, 8, 0).evictionPolicy(RegionEvictionPolicy.FIFO)
        .build()) {
      for (int i = 0; i < 50; i++) {
        cache.put(Items.key(i), Items.value(i, 1, 500));
      }
      // Each round reads the first 50 items once and writes two regions' worth of others, so
      // the first items' regions are evicted again and again. The test waits for the worker
      // after every put: reinsertion runs on the worker and does not wait for room (the worker
      // is what makes room), so if puts on this thread used up the clean regions while the
      // worker was off the processor, reinsertions would be dropped. That is a permitted miss,
      // but it would make this test depend on scheduling.
      for (int round = 0; round < 10; round++) {
        for (int i = 0; i < 50; i++) {
          assertArrayEquals(Items.value(i, 1, 500), cache.get(Items.key(i)), "key " + i);
        }
        for (int i = 0; i < 250; i++) {
          int k = 1000 + round * 250 + i;
          cache.put(Items.key(k), Items.value(k, 1, 500));
          cache.awaitQuiescence();
        }
      }
      FlashCacheStats s = cache.stats();
      assertTrue(s.regionEvictions() > 10, s.toString());
      assertTrue(s.reinsertions() >= 50, s.toString());
      assertNull(cache.get(Items.key(1000)), "never read, evicted");
    }
  }

  /**
   * Two back-to-back evictions whose items were all read: the first one's reinsertions overflow
   * the active region, so when the second begins one buffer holds that sealed, unwritten region
   * and the other the new active one. The worker is the only thread that writes regions, so
   * unless it writes the sealed one itself it finds no buffer for the second one's last item and
   * drops it. Every put is followed by {@code awaitQuiescence}, so the worker evicts while the
   * test thread is idle and nothing but the worker's own buffers competes for room; with 64 KiB
   * regions and 534-byte items, each region holds 122 items.
   */
  @Test
  void reinsertionIsNotDroppedForWantOfABufferOnlyTheWorkerCanFree() throws Exception {
    try (FlashCache cache = Items.small(dir, 8, 0).evictionPolicy(RegionEvictionPolicy.FIFO)
        .reinsertionBudget(10).build()) {
      int itemBytes = RegionBuffer.itemLength(Items.key(1000).length, 500);
      int hot = 2 * ((64 << 10) / itemBytes); // exactly the first two regions
      for (int i = 0; i < hot; i++) {
        cache.put(Items.key(1000 + i), Items.value(1000 + i, 1, 500));
      }
      for (int i = 0; i < hot; i++) {
        assertNotNull(cache.get(Items.key(1000 + i)), "key " + (1000 + i));
      }
      for (int k = 5000; cache.stats().regionEvictions() < 2; k++) {
        assertTrue(k < 6000, "no eviction: " + cache.stats());
        cache.put(Items.key(k), Items.value(k, 1, 500));
        cache.awaitQuiescence();
      }
      FlashCacheStats s = cache.stats();
      assertEquals(hot, s.reinsertions(), s.toString());
      for (int i = 0; i < hot; i++) {
        assertArrayEquals(Items.value(1000 + i, 1, 500), cache.get(Items.key(1000 + i)),
            "key " + (1000 + i));
      }
    }
  }

  @Test
  void withoutReinsertionEvictedItemsAreGone() throws Exception {
    try (FlashCache cache = Items.small(dir, 8, 0).reinsertionHits(0).build()) {
      for (int i = 0; i < 50; i++) {
        cache.put(Items.key(i), Items.value(i, 1, 500));
        cache.get(Items.key(i));
      }
      for (int i = 1000; i < 3000; i++) {
        cache.put(Items.key(i), Items.value(i, 1, 500));
      }
      cache.awaitQuiescence();
      assertEquals(0, cache.stats().reinsertions());
      for (int i = 0; i < 50; i++) {
        assertNull(cache.get(Items.key(i)));
      }
    }
  }

  @Test
  void lruKeepsRegionsThatAreReadWhileFifoEvictsThem() throws Exception {
    int[] survivors = new int[2];
    RegionEvictionPolicy[] policies = {RegionEvictionPolicy.FIFO, RegionEvictionPolicy.LRU};
    for (int p = 0; p < 2; p++) {
      Path d = dir.resolve(policies[p].name());
      try (FlashCache cache = Items.small(d, 8, 0).evictionPolicy(policies[p]).reinsertionHits(0)
          .build()) {
        for (int i = 0; i < 100; i++) {
          cache.put(Items.key(i), Items.value(i, 1, 500));
        }
        for (int i = 1000; i < 3000; i++) {
          cache.put(Items.key(i), Items.value(i, 1, 500));
          if (i % 20 == 0) {
            for (int j = 0; j < 100; j++) {
              cache.get(Items.key(j));
            }
          }
        }
        cache.awaitQuiescence();
        for (int i = 0; i < 100; i++) {
          if (cache.get(Items.key(i)) != null) {
            survivors[p]++;
          }
        }
      }
    }
    assertEquals(0, survivors[0], "FIFO");
    assertEquals(100, survivors[1], "LRU");
  }

  @Test
  void theRegionSizeDefaultsToAOneSixtyFourthOfFlashWithinOneToSixteenMebibytes() {
    assertEquals(1 << 20, FlashCacheBuilder.defaultRegionBytes(16 << 20));
    assertEquals(2 << 20, FlashCacheBuilder.defaultRegionBytes(128L << 20));
    assertEquals(16 << 20, FlashCacheBuilder.defaultRegionBytes(64L << 30));
    try (FlashCache cache = FlashCache.builder().directory(dir).flashBytes(256L << 20)
        .dramBytes(0).build()) {
      assertEquals(4 << 20, cache.regionBytes());
    }
  }

  @Test
  void theProducerHookPrefetchesCreatedGroups() throws Exception {
    List<Long> seen = new ArrayList<>();
    FlashCache[] self = new FlashCache[1];
    try (FlashCache cache = Items.small(dir, 16, 1 << 20).prefetcher(group -> {
      seen.add(group);
      self[0].put(Items.key((int) group), Items.value((int) group, 1, 100), group);
    }).build()) {
      self[0] = cache;
      cache.groupCreated(42);
      cache.invalidateGroup(43);
      cache.groupCreated(43);
      cache.awaitQuiescence();
      assertEquals(List.of(42L), seen);
      assertArrayEquals(Items.value(42, 1, 100), cache.get(Items.key(42)));
    }
  }

  @Test
  void nullArgumentsAreRejectedByName() {
    try (FlashCache cache = Items.small(dir, 16, 1 << 20).build()) {
      assertEquals("key", assertThrows(NullPointerException.class, () -> cache.get(null))
          .getMessage());
      assertEquals("key", assertThrows(NullPointerException.class,
          () -> cache.put(null, new byte[1])).getMessage());
      assertEquals("value", assertThrows(NullPointerException.class,
          () -> cache.put(new byte[1], null, 3)).getMessage());
      assertEquals("key", assertThrows(NullPointerException.class, () -> cache.invalidate(null))
          .getMessage());
    }
  }

  @Test
  void anItemLargerThanARegionIsRejectedAndItsKeyInvalidated() {
    try (FlashCache cache = Items.small(dir, 16, 1 << 20).build()) {
      cache.put(Items.key(1), Items.value(1, 1, 100));
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> cache.put(Items.key(1), new byte[64 << 10]));
      assertTrue(e.getMessage().contains("65536"), e.getMessage());
      assertNull(cache.get(Items.key(1)));
      assertThrows(IllegalArgumentException.class, () -> cache.put(new byte[70_000], new byte[1]));
      int largest = (64 << 10) - RegionBuffer.HEADER_BYTES - 5;
      cache.put(Items.key(2), new byte[largest]);
      assertEquals(largest, cache.get(Items.key(2)).length);
    }
  }

  @Test
  void anEmptyKeyAndAnEmptyValueAreCached() {
    try (FlashCache cache = Items.small(dir, 16, 0).build()) {
      cache.put(new byte[0], new byte[0]);
      assertArrayEquals(new byte[0], cache.get(new byte[0]));
    }
  }

  @Test
  void useAfterCloseThrowsAndCloseIsIdempotent() {
    FlashCache cache = Items.small(dir, 16, 1 << 20).build();
    cache.close();
    assertDoesNotThrow(cache::close);
    assertThrows(IllegalStateException.class, () -> cache.get(Items.key(1)));
    assertThrows(IllegalStateException.class, () -> cache.put(Items.key(1), new byte[1]));
    assertThrows(IllegalStateException.class, () -> cache.invalidate(Items.key(1)));
    assertThrows(IllegalStateException.class, () -> cache.invalidateGroup(1));
    assertNotNull(cache.stats());
  }

  @Test
  void aDirectoryServesOneOpenCache() {
    try (FlashCache cache = Items.small(dir, 16, 1 << 20).build()) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> Items.small(dir, 16, 1 << 20).build());
      assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
    }
    Items.small(dir, 16, 1 << 20).build().close();
  }

  @Test
  void noGroupCannotBeInvalidated() {
    try (FlashCache cache = Items.small(dir, 16, 1 << 20).build()) {
      assertThrows(IllegalArgumentException.class,
          () -> cache.invalidateGroup(FlashCache.NO_GROUP));
    }
  }

  @Test
  void metersReportTheCountersUnderHotrapFlashNames() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (FlashCache cache = Items.small(dir, 16, 0).build()) {
      cache.metrics().bindTo(registry);
      cache.put(Items.key(1), Items.value(1, 1, 100));
      cache.get(Items.key(1));
      cache.get(Items.key(2));
      assertEquals(1.0, registry.get("hotrap.flash.gets").tag("result", "flash")
          .functionCounter().count());
      assertEquals(1.0, registry.get("hotrap.flash.gets").tag("result", "miss")
          .functionCounter().count());
      assertEquals(1.0, registry.get("hotrap.flash.lookups.bypassed").functionCounter().count());
      assertEquals(1.0, registry.get("hotrap.flash.index.items").gauge().value());
      assertTrue(registry.get("hotrap.flash.bytes").tag("kind", "admitted").functionCounter()
          .count() > 100);
    }
  }

  @Test
  void theAdmissionObserverSeesTheGroupOfEveryItemDramOffersToFlash() throws Exception {
    ConcurrentHashMap<Long, LongAdder> seen =
        new ConcurrentHashMap<>();
    int items = 2000;
    try (FlashCache cache = FlashCache.builder().directory(dir.resolve("observed"))
        .flashBytes(16 << 20).dramBytes(64 << 10)
        .admissionObserver(g -> seen.computeIfAbsent(g, k -> new LongAdder()).increment())
        .build()) {
      for (int i = 0; i < items; i++) {
        cache.put(Items.key(i), Items.value(i, 1, 500), i % 2 == 0 ? 7 : 8);
      }
      cache.awaitQuiescence();
      long offered = seen.values().stream().mapToLong(LongAdder::sum).sum();
      // 64 KiB of DRAM holds about a hundred of these items; the rest went to flash.
      assertTrue(offered > items / 2, "offered " + offered);
      assertEquals(Set.of(7L, 8L), seen.keySet());
      assertEquals(offered, cache.stats().flashItemsAdmitted() + cache.stats().droppedInserts());
    }
  }
}
