package io.hotrap.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LiveBitmapTest {

  private static LiveBitmap dense(long base, int count) {
    LiveBitmap bitmap = new LiveBitmap(base);
    for (long seq = base; seq < base + count; seq++) {
      bitmap.addLive(seq);
    }
    return bitmap;
  }

  @Test
  void coversBaseToLastWithOneBitPerRecord() {
    LiveBitmap bitmap = dense(1000, 130);
    assertEquals(1000, bitmap.base());
    assertEquals(1129, bitmap.last());
    assertEquals(130, bitmap.span());
    assertEquals(130, bitmap.liveCount());
    assertEquals(3, bitmap.words().length);
    assertFalse(bitmap.isLive(999));
    assertTrue(bitmap.isLive(1000));
    assertTrue(bitmap.isLive(1129));
    assertFalse(bitmap.isLive(1130));
  }

  @Test
  void rangesAcrossWordEdgesClearExactlyTheirBits() {
    for (int from = 0; from < 130; from += 7) {
      for (int to = from; to < 135; to += 5) {
        LiveBitmap bitmap = dense(64, 130);
        int cleared = bitmap.markDead(64 + from, 64 + to);
        int expected = Math.min(to, 129) - from + 1;
        assertEquals(expected, cleared, from + ".." + to);
        assertEquals(130 - expected, bitmap.liveCount());
        for (int i = 0; i < 130; i++) {
          assertEquals(i < from || i > to, bitmap.isLive(64 + i), "bit " + i);
        }
      }
    }
  }

  @Test
  void edgesOfEachWordAreTheirOwnBits() {
    LiveBitmap bitmap = dense(0, 192);
    assertEquals(1, bitmap.markDead(63, 63));
    assertEquals(1, bitmap.markDead(64, 64));
    assertEquals(1, bitmap.markDead(127, 127));
    assertEquals(1, bitmap.markDead(191, 191));
    assertTrue(bitmap.isLive(62));
    assertTrue(bitmap.isLive(65));
    assertTrue(bitmap.isLive(128));
    assertEquals(188, bitmap.liveCount());
  }

  @Test
  void rangesOutsideOrAlreadyDeadClearNothing() {
    LiveBitmap bitmap = dense(100, 10);
    assertEquals(0, bitmap.markDead(0, 99));
    assertEquals(0, bitmap.markDead(110, Long.MAX_VALUE));
    assertEquals(10, bitmap.markDead(Long.MIN_VALUE, Long.MAX_VALUE));
    assertEquals(0, bitmap.markDead(100, 109));
    assertEquals(0, bitmap.liveCount());
  }

  @Test
  void gapsAreBornDead() {
    LiveBitmap bitmap = new LiveBitmap(10);
    bitmap.addLive(10);
    bitmap.addLive(15);
    bitmap.extendTo(20);
    assertEquals(11, bitmap.span());
    assertEquals(2, bitmap.liveCount());
    assertFalse(bitmap.isLive(12));
    assertFalse(bitmap.isLive(20));
    assertEquals(1, bitmap.markDead(11, 20));
  }

  @Test
  void addingBelowTheEndIsRefused() {
    LiveBitmap bitmap = dense(5, 3);
    assertThrows(IllegalArgumentException.class, () -> bitmap.addLive(7));
    assertThrows(IllegalArgumentException.class, () -> bitmap.addLive(4));
  }

  @Test
  void acceptsBoundsTheBitsPerRecord() {
    LiveBitmap bitmap = new LiveBitmap(0);
    long budget = LiveBitmap.SPAN_SLACK + LiveBitmap.MAX_BITS_PER_RECORD * 11L;
    assertTrue(bitmap.accepts(budget - 1, 10));
    assertFalse(bitmap.accepts(budget, 10));
    assertFalse(bitmap.accepts(-1, 10));
    assertFalse(bitmap.accepts(Integer.MAX_VALUE, Integer.MAX_VALUE / 64));
  }

  @Test
  void restoredWordsIgnoreBitsPastTheSpan() {
    LiveBitmap bitmap = LiveBitmap.of(0, 70, new long[] {-1L, -1L});
    assertEquals(70, bitmap.liveCount());
    assertFalse(bitmap.isLive(70));
  }

  @Test
  void copiesAreIndependent() {
    LiveBitmap bitmap = dense(0, 100);
    LiveBitmap copy = bitmap.copy();
    bitmap.markDead(0, 49);
    assertEquals(100, copy.liveCount());
    assertTrue(copy.isLive(0));
    copy.addLive(100);
    assertEquals(99, bitmap.last());
  }
}
