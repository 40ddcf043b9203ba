package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@link FlashIndex} contract, for both implementations: conditional changes compare locations
 * by the append they name, and the bypass filter holds a fingerprint exactly for the keys indexed.
 */
class FlashIndexTest {
  @TempDir Path dir;

  private FlashIndex open(FlashIndexKind kind, CuckooFilter filter) throws IOException {
    if (kind == FlashIndexKind.ON_HEAP) {
      return new HeapIndex(filter, 16);
    }
    assertTrue(ChronicleSupport.probe().available(), ChronicleSupport.probe().reason());
    return ChronicleIndex.create(dir, 1000, filter);
  }

  private static ItemKey key(int i) {
    return new ItemKey(Items.key(i));
  }

  @Test
  void locationsAreEqualWhenTheyNameTheSameAppend() {
    Location a = new Location(3, 17, 4096, 100, 5, 9);
    assertEquals(a, new Location(3, 17, 4096, 100, 5, 9));
    assertEquals(a.hashCode(), new Location(3, 17, 4096, 100, 5, 9).hashCode());
    assertNotEquals(a, new Location(3, 18, 4096, 100, 5, 9), "another fill of the region");
    assertNotEquals(a, new Location(4, 17, 4096, 100, 5, 9), "another region");
    assertNotEquals(a, new Location(3, 17, 4196, 100, 5, 10), "a later append of the fill");
    assertFalse(a.sameAppend(null));
  }

  @Test
  void theOffHeapValueLayoutKeepsEveryField() {
    Location a = new Location(Integer.MAX_VALUE, Long.MIN_VALUE + 1, 1 << 26, 65_561, -7, 123_456);
    Location b = ChronicleIndex.decode(ChronicleIndex.encode(a));
    assertEquals(List.of(a.region, a.generation, a.offset, a.length, a.group, a.slot),
        List.of(b.region, b.generation, b.offset, b.length, b.group, b.slot));
    assertEquals(ChronicleIndex.VALUE_BYTES, ChronicleIndex.encode(a).length);
  }

  @ParameterizedTest
  @EnumSource(FlashIndexKind.class)
  void conditionalChangesActOnlyOnTheAppendTheCallerRead(FlashIndexKind kind) throws Exception {
    try (FlashIndex index = open(kind, null)) {
      ItemKey k = key(1);
      Location first = new Location(0, 1, 0, 60, 7, 0);
      Location newer = new Location(1, 2, 0, 60, 7, 0);
      Location moved = new Location(2, 3, 0, 60, 7, 0);
      assertTrue(index.put(k, first));
      assertTrue(index.put(k, newer)); // a put after the reinsertion read `first`
      assertFalse(index.replace(k, first, moved), "a reinsertion must not undo the newer put");
      assertFalse(index.remove(k, first), "nor a purge or eviction");
      assertEquals(newer, index.get(k));
      // A copy of the location (what the off-heap index hands out on every read) is as good.
      assertTrue(index.replace(k, new Location(1, 2, 0, 60, 7, 0), moved));
      assertEquals(moved, index.get(k));
      assertTrue(index.remove(k, new Location(2, 3, 0, 60, 7, 0)));
      assertNull(index.get(k));
      assertFalse(index.containsKey(k));
      assertFalse(index.remove(k));
      assertEquals(0, index.size());
    }
  }

  @ParameterizedTest
  @EnumSource(FlashIndexKind.class)
  void theFilterHoldsAFingerprintExactlyForTheKeysIndexed(FlashIndexKind kind) throws Exception {
    CuckooFilter filter = new CuckooFilter(1000);
    try (FlashIndex index = open(kind, filter)) {
      for (int i = 0; i < 200; i++) {
        assertTrue(index.put(key(i), new Location(0, 1, i * 100, 60, i % 4, i)));
      }
      for (int i = 0; i < 200; i += 2) {
        assertTrue(index.put(key(i), new Location(1, 2, i * 100, 60, i % 4, i))); // moves
      }
      assertFalse(index.remove(key(1), new Location(5, 5, 5, 60, 1, 5)), "not its location");
      assertTrue(index.remove(key(3)));
      assertTrue(index.remove(key(5), new Location(0, 1, 500, 60, 1, 5)));
      assertEquals(50, index.removeGroup(2)); // keys 2, 6, 10, ...
      Set<Integer> indexed = new HashSet<>();
      for (int i = 0; i < 200; i++) {
        if (i % 4 != 2 && i != 3 && i != 5) {
          indexed.add(i);
        }
      }
      assertEquals(indexed.size(), index.size());
      for (int i = 0; i < 200; i++) {
        assertEquals(indexed.contains(i), index.containsKey(key(i)), "key " + i);
        assertEquals(indexed.contains(i), filter.mightContain(key(i).hash), "key " + i);
      }
      // Removing every key leaves an empty filter: each fingerprint was added exactly once.
      for (int i : indexed) {
        assertTrue(index.remove(key(i)));
      }
      for (int i = 0; i < 200; i++) {
        assertFalse(filter.mightContain(key(i).hash), "key " + i);
      }
    }
  }

  @Test
  void aFullOffHeapIndexRefusesNewKeysAndTakesTheirFingerprintsBack() throws Exception {
    CuckooFilter filter = new CuckooFilter(1 << 20);
    List<Integer> refused = new ArrayList<>();
    int accepted = 0;
    try (FlashIndex index = open(FlashIndexKind.OFF_HEAP, filter)) {
      for (int i = 0; refused.size() < 10; i++) {
        assertTrue(i < 200_000, "the map never filled up");
        if (index.put(key(i), new Location(0, 1, i, 60, 0, i))) {
          accepted++;
        } else {
          refused.add(i);
        }
      }
      assertEquals(accepted, index.size());
      for (int i : refused) {
        assertFalse(index.containsKey(key(i)));
        assertFalse(filter.mightContain(key(i).hash), "key " + i);
      }
      assertTrue(index.put(key(0), new Location(1, 2, 0, 60, 0, 0)), "an indexed key still moves");
    }
  }

  @Test
  void restoreKeepsTheEntriesTheRegionsHoldAndRemovesTheRest() throws Exception {
    try (ChronicleIndex index = ChronicleIndex.create(dir, 1000, null)) {
      for (int i = 0; i < 100; i++) {
        index.put(key(i), new Location(i % 2, 1 + i % 2, i * 100, 60, 0, i));
      }
    }
    CuckooFilter filter = new CuckooFilter(1000);
    Set<ItemKey> kept = new HashSet<>();
    try (ChronicleIndex index = ChronicleIndex.open(dir, 1000, filter)) {
      long removed = index.restore((k, loc) -> loc.region == 0 && loc.slot % 2 == 0,
          (k, loc) -> assertTrue(kept.add(k), "each key once"));
      assertEquals(50, removed);
      assertEquals(50, index.size());
      for (int i = 0; i < 100; i++) {
        boolean even = i % 2 == 0;
        // The keys handed out are the keys' own bytes, each in an array of its own.
        assertEquals(even, kept.contains(key(i)), "key " + i);
        assertEquals(even, index.containsKey(key(i)));
        assertEquals(even, filter.mightContain(key(i).hash));
      }
    }
  }
}
