package io.hotrap.jni;

import static io.hotrap.jni.FilteredDb.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DemotionSetTest {
  @BeforeEach
  void requireNative() {
    NativeAssumptions.assumeNativeHooks();
  }

  @Test
  void containsExactlyTheAddedPairs() {
    try (DemotionSet set = new DemotionSet()) {
      assertTrue(set.add(bytes("k"), 1L));

      assertTrue(set.contains(bytes("k"), 1L));
      assertFalse(set.contains(bytes("k"), 2L), "another value hash");
      assertFalse(set.contains(bytes("j"), 1L), "another key");
      assertFalse(set.contains(bytes("k\0"), 1L), "a longer key");
      assertEquals(1, set.size());
    }
  }

  @Test
  void addingAPresentPairChangesNothing() {
    try (DemotionSet set = new DemotionSet()) {
      assertTrue(set.add(bytes("k"), 7L));
      assertFalse(set.add(bytes("k"), 7L));
      assertEquals(1, set.size());
    }
  }

  @Test
  void aKeyMayHoldSeveralPairsAndRemoveTakesThemAll() {
    try (DemotionSet set = new DemotionSet()) {
      set.add(bytes("k"), 1L);
      set.add(bytes("k"), 2L);
      set.add(bytes("other"), 1L);

      assertEquals(2, set.remove(bytes("k")));

      assertFalse(set.contains(bytes("k"), 1L));
      assertFalse(set.contains(bytes("k"), 2L));
      assertTrue(set.contains(bytes("other"), 1L));
      assertEquals(1, set.size());
      assertEquals(0, set.remove(bytes("k")), "nothing left to remove");
    }
  }

  @Test
  void emptyAndLargeKeysWork() {
    try (DemotionSet set = new DemotionSet()) {
      byte[] large = new byte[64 * 1024];
      Arrays.fill(large, (byte) 0x5A);
      set.add(new byte[0], 1L);
      set.add(large, 2L);

      assertTrue(set.contains(new byte[0], 1L));
      assertTrue(set.contains(large.clone(), 2L));
      large[large.length - 1] = 0;
      assertFalse(set.contains(large, 2L));
      assertEquals(1, set.remove(new byte[0]));
    }
  }

  @Test
  void manyKeysSurviveTheTableGrowing() {
    try (DemotionSet set = new DemotionSet()) {
      int n = 50_000;
      for (int i = 0; i < n; i++) {
        set.add(bytes("key-" + i), i);
      }
      assertEquals(n, set.size());
      for (int i = 0; i < n; i++) {
        assertTrue(set.contains(bytes("key-" + i), i), "key-" + i);
      }
      for (int i = 0; i < n; i += 2) {
        set.remove(bytes("key-" + i));
      }
      assertEquals(n / 2, set.size());
      set.clear();
      assertEquals(0, set.size());
      assertFalse(set.contains(bytes("key-1"), 1));
      assertTrue(set.add(bytes("key-1"), 1));
      assertTrue(set.contains(bytes("key-1"), 1));
      assertEquals(1, set.size());
    }
  }

  @Test
  void nullKeysAreRejected() {
    try (DemotionSet set = new DemotionSet()) {
      assertThrows(NullPointerException.class, () -> set.add(null, 1L));
      assertThrows(NullPointerException.class, () -> set.remove(null));
      assertThrows(NullPointerException.class, () -> set.contains(null, 1L));
    }
  }

  @Test
  void everyMethodButCloseFailsAfterClose() {
    DemotionSet set = new DemotionSet();
    set.add(bytes("k"), 1L);
    set.close();
    set.close(); // idempotent

    assertThrows(IllegalStateException.class, () -> set.add(bytes("k"), 1L));
    assertThrows(IllegalStateException.class, () -> set.remove(bytes("k")));
    assertThrows(IllegalStateException.class, () -> set.contains(bytes("k"), 1L));
    assertThrows(IllegalStateException.class, set::size);
    assertThrows(IllegalStateException.class, set::clear);
  }

  @Test
  void closeFreesTheNativeSet() {
    long before = NativeMethods.liveSets();
    DemotionSet set = new DemotionSet();
    assertEquals(before + 1, NativeMethods.liveSets());
    set.close();
    assertEquals(before, NativeMethods.liveSets());
  }

  @Test
  void nativeEntryPointsRejectBadHandlesAndArgumentsWithoutCrashing() {
    assertThrows(IllegalStateException.class, () -> NativeMethods.setAdd(0, bytes("k"), 1L));
    assertThrows(IllegalStateException.class, () -> NativeMethods.setSize(0));
    assertThrows(IllegalStateException.class, () -> NativeMethods.filterCreate(0, new long[1]));
    NativeMethods.setClose(0);
    NativeMethods.filterDestroy(0);
    assertEquals(0, NativeMethods.filterSeen(0));
    try (DemotionSet set = new DemotionSet()) {
      long handle = set.createFilter(new long[1]);
      NativeMethods.filterDestroy(handle);
      assertThrows(IllegalArgumentException.class, () -> set.createFilter(new long[0]));
      assertThrows(IllegalArgumentException.class, () -> set.createFilter(null));
    }
    assertThrows(NullPointerException.class, () -> NativeMethods.valueHash(null, 0, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> NativeMethods.valueHash(new byte[2], 1, 2));
  }
}
