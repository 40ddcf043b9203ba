package io.hotrap.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HotKeyIndexTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Map<ByteArrayKey, int[]> counts(Object... keyAndCount) {
    Map<ByteArrayKey, int[]> m = new HashMap<>();
    for (int i = 0; i < keyAndCount.length; i += 2) {
      m.put(ByteArrayKey.copyOf(b((String) keyAndCount[i])), new int[] {(Integer) keyAndCount[i + 1]});
    }
    return m;
  }

  @Test
  void adjacentHotKeysMergeIntoOneRangeAndAColdKeySplitsThem() {
    // Sorted: a(3) b(2) c(1) d(5) e(2) f(1)
    HotKeyIndex idx = HotKeyIndex.build(counts("a", 3, "b", 2, "c", 1, "d", 5, "e", 2, "f", 1),
        HotKeyIndex.atLeast(2), 100);
    assertEquals(2, idx.ranges());
    assertEquals(4, idx.keys());
    assertTrue(idx.contains(b("a")));
    assertTrue(idx.contains(b("aa")), "between two hot keys with no window key between them");
    assertTrue(idx.contains(b("b")));
    assertFalse(idx.contains(b("c")));
    assertFalse(idx.contains(b("bz")));
    assertTrue(idx.contains(b("d")));
    assertTrue(idx.contains(b("e")));
    assertFalse(idx.contains(b("e0")));
    assertFalse(idx.contains(b("f")));
    assertFalse(idx.contains(b("0")));
  }

  @Test
  void keysAreOrderedAsUnsignedBytes() {
    Map<ByteArrayKey, int[]> m = new HashMap<>();
    m.put(ByteArrayKey.copyOf(new byte[] {(byte) 0x80}), new int[] {2});
    m.put(ByteArrayKey.copyOf(new byte[] {0x10}), new int[] {1});
    m.put(ByteArrayKey.copyOf(new byte[] {0x01}), new int[] {2});
    HotKeyIndex idx = HotKeyIndex.build(m, HotKeyIndex.atLeast(2), 10);
    assertEquals(2, idx.ranges(), "0x10 is cold and lies between 0x01 and 0x80");
    assertTrue(idx.contains(new byte[] {(byte) 0x80}));
    assertFalse(idx.contains(new byte[] {0x10}));
  }

  @Test
  void aBoundOnKeysKeepsTheMostFrequent() {
    HotKeyIndex idx = HotKeyIndex.build(counts("a", 9, "b", 2, "c", 7, "d", 2, "e", 3),
        HotKeyIndex.atLeast(2), 3);
    assertEquals(3, idx.keys());
    assertTrue(idx.contains(b("a")));
    assertTrue(idx.contains(b("c")));
    assertTrue(idx.contains(b("e")));
    assertFalse(idx.contains(b("b")));
    assertFalse(idx.contains(b("d")));
    // Ties at the cutoff that would overflow the bound are all left out.
    HotKeyIndex ties = HotKeyIndex.build(counts("a", 5, "b", 2, "c", 2, "d", 2), HotKeyIndex.atLeast(2), 2);
    assertEquals(1, ties.keys());
    assertTrue(ties.contains(b("a")));
  }

  @Test
  void stickyKeysStayHotWhenSeenOnceAndAnEmptyWindowGivesAnEmptyIndex() {
    HotKeyIndex idx = HotKeyIndex.build(counts("a", 1, "b", 1),
        HotKeyIndex.atLeastOrSeen(2, k -> k[0] == 'a'), 10);
    assertTrue(idx.contains(b("a")));
    assertFalse(idx.contains(b("b")));
    assertTrue(HotKeyIndex.build(new HashMap<>(), HotKeyIndex.atLeast(2), 10).isEmpty());
    assertTrue(HotKeyIndex.build(counts("a", 1), HotKeyIndex.atLeast(2), 10).isEmpty());
    assertFalse(HotKeyIndex.EMPTY.contains(b("a")));
  }
}
