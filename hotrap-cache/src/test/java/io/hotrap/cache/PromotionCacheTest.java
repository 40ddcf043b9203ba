package io.hotrap.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.cache.PromotionCache.Entry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class PromotionCacheTest {

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] b(int... bytes) {
    byte[] out = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      out[i] = (byte) bytes[i];
    }
    return out;
  }

  private static PromotionCache cache(long target) {
    return PromotionCache.builder().targetBytes(target).build();
  }

  private static List<byte[]> keys(Iterable<Entry> entries) {
    List<byte[]> out = new ArrayList<>();
    entries.forEach(e -> out.add(e.key()));
    return out;
  }

  @Test
  void bytesCountEveryTableAndThePeakOutlivesARelease() {
    PromotionCache c = cache(1 << 20);
    assertEquals(0, c.bytes());
    c.insert(b("k1"), new byte[100]);
    long one = PromotionCache.charge(2, 100);
    assertEquals(one, c.bytes());
    ImmutablePromotionCache frozen = c.freeze();
    c.insert(b("k2"), new byte[300]);
    long both = one + PromotionCache.charge(2, 300);
    assertEquals(both, c.bytes(), "the frozen table still counts until released");
    c.release(frozen);
    assertEquals(PromotionCache.charge(2, 300), c.bytes());
    assertEquals(both, c.peakBytes(), "the peak was sampled before the release");

    c.removeIfUnchanged(c.range(b("k2"), b("k2")));
    assertEquals(0, c.bytes());
    assertEquals(both, c.peakBytes());
    c.insert(b("k3"), new byte[1000]);
    assertEquals(PromotionCache.charge(2, 1000), c.peakBytes(), "a higher level now is the peak");
  }

  @Test
  void getReturnsInsertedValueAndNullForAbsentKey() {
    PromotionCache c = cache(1 << 20);
    assertTrue(c.insert(b("k"), b("v")));
    assertArrayEquals(b("v"), c.get(b("k")));
    assertNull(c.get(b("other")));
  }

  @Test
  void insertReplacesAndChargesKeyValueAndOverhead() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("key"), b("12345"));
    assertEquals(3 + 5 + PromotionCache.ENTRY_OVERHEAD_BYTES, c.mutableBytes());
    c.insert(b("key"), b("1"));
    assertArrayEquals(b("1"), c.get(b("key")));
    assertEquals(3 + 1 + PromotionCache.ENTRY_OVERHEAD_BYTES, c.mutableBytes());
    assertEquals(1, c.mutableSize());
  }

  @Test
  void invalidateRemovesKeyAndItsBytes() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("a"), b("1"));
    c.insert(b("b"), b("22"));
    c.invalidate(b("a"));
    c.invalidate(b("absent"));
    assertNull(c.get(b("a")));
    assertArrayEquals(b("22"), c.get(b("b")));
    assertEquals(PromotionCache.charge(1, 2), c.mutableBytes());
    assertEquals(1, c.mutableSize());
  }

  @Test
  void emptyKeyIsAllowed() {
    PromotionCache c = cache(1 << 20);
    c.insert(new byte[0], b("v"));
    assertArrayEquals(b("v"), c.get(new byte[0]));
  }

  @Test
  void nullArgumentsAreRejectedByName() {
    PromotionCache c = cache(1 << 20);
    assertEquals("key", assertThrows(NullPointerException.class, () -> c.get(null)).getMessage());
    assertEquals("value",
        assertThrows(NullPointerException.class, () -> c.insert(b("k"), null)).getMessage());
    assertEquals("key",
        assertThrows(NullPointerException.class, () -> c.invalidate(null)).getMessage());
  }

  @Test
  void recordsAboveTheSizeLimitAreNotCached() {
    PromotionCache c = cache(1 << 20);
    assertEquals(16 * 1024, c.maxRecordBytes());
    byte[] key = b("k");
    assertTrue(c.insert(key, new byte[16 * 1024 - 1]));
    assertFalse(c.insert(b("big"), new byte[16 * 1024 - 2]));
    assertNull(c.get(b("big")));
    assertEquals(1, c.mutableSize());
    assertEquals(PromotionCache.charge(1, 16 * 1024 - 1), c.mutableBytes());
  }

  @Test
  void sizeLimitIsConfigurable() {
    PromotionCache c = PromotionCache.builder().targetBytes(1 << 20).maxRecordBytes(10).build();
    assertTrue(c.insert(b("12345"), b("67890")));
    assertFalse(c.insert(b("12345"), b("678901")));
    assertArrayEquals(b("67890"), c.get(b("12345")), "a refused insert leaves the older entry");
  }

  @Test
  void builderRejectsBadValuesNamingThem() {
    assertEquals("targetBytes must be positive but was 0",
        assertThrows(IllegalArgumentException.class,
            () -> PromotionCache.builder().targetBytes(0)).getMessage());
    assertEquals("maxRecordBytes must not be negative but was -1",
        assertThrows(IllegalArgumentException.class,
            () -> PromotionCache.builder().maxRecordBytes(-1)).getMessage());
    assertEquals("targetBytes was not set",
        assertThrows(IllegalStateException.class, () -> PromotionCache.builder().build())
            .getMessage());
  }

  @Test
  void isFullOnceChargedBytesReachTheTarget() {
    PromotionCache c = cache(2 * PromotionCache.charge(1, 1));
    c.insert(b("a"), b("1"));
    assertFalse(c.isFull());
    assertNull(c.freezeIfFull());
    c.insert(b("b"), b("1"));
    assertTrue(c.isFull());
    ImmutablePromotionCache imm = c.freezeIfFull();
    assertNotNull(imm);
    assertEquals(2, imm.size());
    assertFalse(c.isFull());
  }

  @Test
  void keysAreOrderedAsUnsignedBytes() {
    PromotionCache c = cache(1 << 20);
    byte[][] inOrder = {b(), b(0x00), b(0x00, 0x00), b(0x01), b(0x7f), b(0x7f, 0xff), b(0x80),
        b(0x80, 0x00), b(0xfe), b(0xff), b(0xff, 0x00), b(0xff, 0xff)};
    for (int i = inOrder.length - 1; i >= 0; i--) {
      c.insert(inOrder[i], b(i));
    }
    List<byte[]> mutableOrder = keys(c.range(b(), b(0xff, 0xff, 0xff)));
    assertEquals(inOrder.length, mutableOrder.size());
    for (int i = 0; i < inOrder.length; i++) {
      assertArrayEquals(inOrder[i], mutableOrder.get(i), "position " + i);
    }
    List<byte[]> frozenOrder = keys(c.freeze());
    for (int i = 0; i < inOrder.length; i++) {
      assertArrayEquals(inOrder[i], frozenOrder.get(i), "position " + i);
    }
  }

  @Test
  void rangeIsInclusiveOnBothEndsAndCrossesTheSignBoundary() {
    PromotionCache c = cache(1 << 20);
    for (int k : new int[] {0x10, 0x7f, 0x80, 0x81, 0xf0}) {
      c.insert(b(k), b(k));
    }
    List<byte[]> got = keys(c.range(b(0x7f), b(0x81)));
    assertEquals(3, got.size());
    assertArrayEquals(b(0x7f), got.get(0));
    assertArrayEquals(b(0x80), got.get(1));
    assertArrayEquals(b(0x81), got.get(2));
    assertEquals(1, c.range(b(0x80), b(0x80)).size());
    assertTrue(c.range(b(0x82), b(0xef)).isEmpty());
    assertThrows(IllegalArgumentException.class, () -> c.range(b(0x81), b(0x7f)));
  }

  @Test
  void removeIfUnchangedRemovesOnlyEntriesNotOverwrittenOrInvalidatedSinceTaken() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("a"), b("1"));
    c.insert(b("b"), b("1"));
    c.insert(b("c"), b("1"));
    c.insert(b("d"), b("1"));
    List<Entry> taken = c.range(b("a"), b("c"));
    c.insert(b("b"), b("22")); // overwritten meanwhile: stays
    c.invalidate(b("c")); // gone meanwhile: not counted twice
    assertEquals(1, c.removeIfUnchanged(taken));
    assertNull(c.get(b("a")));
    assertArrayEquals(b("22"), c.get(b("b")));
    assertArrayEquals(b("1"), c.get(b("d")));
    assertEquals(PromotionCache.charge(1, 2) + PromotionCache.charge(1, 1), c.mutableBytes());
  }

  @Test
  void entriesTakenBeforeAFreezeAreNotRemovedFromTheNewMutableTable() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("a"), b("1"));
    List<Entry> taken = c.range(b("a"), b("a"));
    ImmutablePromotionCache imm = c.freeze();
    c.insert(b("a"), b("1"));
    assertEquals(0, c.removeIfUnchanged(taken));
    assertArrayEquals(b("1"), c.get(b("a")));
    assertEquals(1, imm.size());
  }

  @Test
  void freezeMovesEntriesToAnImmutableTableThatGetReadsUntilReleased() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("b"), b("2"));
    c.insert(b("a"), b("1"));
    long bytes = c.mutableBytes();
    ImmutablePromotionCache imm = c.freeze();

    assertArrayEquals(b("1"), c.get(b("a")), "served from the immutable table being checked");
    c.invalidate(b("b"));
    assertNull(c.get(b("b")), "a key written since the freeze is not served from the immutable");
    assertEquals(0, c.mutableBytes());
    assertEquals(0, c.mutableSize());
    assertEquals(bytes, imm.bytes());
    assertEquals(bytes, c.immutableBytes());
    assertEquals(2, imm.size());
    assertArrayEquals(b("1"), imm.get(b("a")));
    assertEquals(List.of(imm), c.immutables());
    Iterator<Entry> it = imm.iterator();
    assertArrayEquals(b("a"), it.next().key());
    assertThrows(UnsupportedOperationException.class, it::remove);
    c.insert(b("a"), b("9"));
    assertArrayEquals(b("9"), c.get(b("a")), "the mutable table comes first");
    c.release(imm);
    assertNull(c.get(b("b")));
    c.invalidate(b("a"));
    assertNull(c.get(b("a")), "released tables are not read");
  }

  @Test
  void getReadsTheNewestImmutableHoldingTheKey() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("k"), b("old"));
    ImmutablePromotionCache older = c.freeze();
    c.invalidate(b("k"));
    c.insert(b("k"), b("new"));
    ImmutablePromotionCache newer = c.freeze();
    assertArrayEquals(b("new"), c.get(b("k")));
    c.release(newer);
    assertNull(c.get(b("k")), "the older copy is marked updated");
    c.release(older);
  }

  @Test
  void freezingAnEmptyTableYieldsAnEmptyImmutable() {
    ImmutablePromotionCache imm = cache(100).freeze();
    assertTrue(imm.isEmpty());
    assertEquals(0, imm.bytes());
  }

  @Test
  void invalidateMarksHeldKeysUpdatedInEveryRegisteredImmutable() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("a"), b("1"));
    c.insert(b("b"), b("1"));
    ImmutablePromotionCache first = c.freeze();
    c.insert(b("a"), b("2"));
    ImmutablePromotionCache second = c.freeze();

    c.invalidate(b("a"));
    c.invalidate(b("zzz"));
    assertTrue(first.isUpdated(b("a")));
    assertTrue(second.isUpdated(b("a")));
    assertFalse(first.isUpdated(b("b")));
    assertFalse(first.isUpdated(b("zzz")), "keys a table does not hold are not recorded");
    assertEquals(1, first.updatedCount());
    assertArrayEquals(b("1"), first.get(b("a")), "marking does not change the entries");
    assertEquals(2, first.size());
  }

  @Test
  void releasedImmutablesAreNoLongerMarked() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("a"), b("1"));
    ImmutablePromotionCache imm = c.freeze();
    c.release(imm);
    c.release(imm); // idempotent
    c.invalidate(b("a"));
    assertFalse(imm.isUpdated(b("a")));
    assertTrue(imm.isReleased());
    assertTrue(c.immutables().isEmpty());
    assertEquals(0, c.immutableBytes());
  }

  @Test
  void releaseKeepsTheOthersInFreezeOrder() {
    PromotionCache c = cache(1 << 20);
    ImmutablePromotionCache x = c.freeze();
    ImmutablePromotionCache y = c.freeze();
    ImmutablePromotionCache z = c.freeze();
    c.release(y);
    assertEquals(List.of(x, z), c.immutables());
  }

  @Test
  void immutablesOfAnotherCacheAreRejected() {
    PromotionCache c = cache(1 << 20);
    ImmutablePromotionCache foreign = cache(1 << 20).freeze();
    assertThrows(IllegalArgumentException.class, () -> c.release(foreign));
    assertThrows(IllegalArgumentException.class, () -> c.putBack(foreign, foreign));
  }

  @Test
  void putBackRestoresEntriesThatWereNotUpdated() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("a"), b("1"));
    c.insert(b("b"), b("2"));
    c.insert(b("c"), b("3"));
    ImmutablePromotionCache imm = c.freeze();
    c.invalidate(b("b"));

    assertEquals(2, c.putBack(imm, imm));
    assertArrayEquals(b("1"), c.get(b("a")));
    assertNull(c.get(b("b")), "an updated entry is stale and stays out");
    assertArrayEquals(b("3"), c.get(b("c")));
    assertEquals(2 * PromotionCache.charge(1, 1), c.mutableBytes());
    assertEquals(2, c.range(b("a"), b("c")).size());
  }

  @Test
  void putBackDoesNotOverwriteNewerEntries() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("a"), b("old"));
    ImmutablePromotionCache imm = c.freeze();
    c.insert(b("a"), b("newer"));
    assertEquals(0, c.putBack(imm, imm));
    assertArrayEquals(b("newer"), c.get(b("a")));
    assertEquals(PromotionCache.charge(1, 5), c.mutableBytes());
  }

  @Test
  void putBackAfterReleaseOrOfForeignEntriesFails() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("a"), b("1"));
    ImmutablePromotionCache imm = c.freeze();
    c.insert(b("a"), b("1"));
    List<Entry> notFromImm = c.range(b("a"), b("a"));
    assertThrows(IllegalArgumentException.class, () -> c.putBack(imm, notFromImm));
    c.release(imm);
    assertThrows(IllegalStateException.class, () -> c.putBack(imm, imm));
  }

  @Test
  void aGetMarksTheEntryItReturnedAsRead() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("read"), b("v"));
    c.insert(b("unread"), b("v"));
    c.get(b("read"));
    c.get(b("absent"));
    ImmutablePromotionCache imm = c.freeze();
    Iterator<Entry> it = imm.iterator();
    Entry read = it.next();
    Entry unread = it.next();
    assertArrayEquals(b("read"), read.key());
    assertTrue(read.wasRead());
    assertFalse(unread.wasRead());
    assertEquals(0, read.putBacksUnread());
    assertEquals(0, unread.putBacksUnread());
  }

  @Test
  void putBackCountsTheChecksAnEntryWaitedThroughUnread() {
    PromotionCache c = cache(1 << 20);
    c.insert(b("a"), b("v"));
    c.insert(b("b"), b("v"));
    ImmutablePromotionCache first = c.freeze();
    c.putBack(first, first);
    c.release(first);
    c.get(b("a"));
    ImmutablePromotionCache second = c.freeze();
    List<Entry> waited = new ArrayList<>();
    second.forEach(waited::add);
    assertEquals(1, waited.get(0).putBacksUnread());
    assertTrue(waited.get(0).wasRead());
    assertEquals(1, waited.get(1).putBacksUnread());
    assertFalse(waited.get(1).wasRead());
    c.putBack(second, second);
    c.release(second);
    ImmutablePromotionCache third = c.freeze();
    Iterator<Entry> it = third.iterator();
    Entry a = it.next();
    Entry b = it.next();
    assertEquals(1, a.putBacksUnread(), "a was read while it waited: its count starts over");
    assertFalse(a.wasRead(), "a put-back entry starts unread");
    assertEquals(2, b.putBacksUnread());
  }

  @Test
  void entryExposesKeyValueAndCharge() {
    PromotionCache c = cache(1 << 20);
    byte[] key = b("key");
    byte[] value = b("value");
    c.insert(key, value);
    Entry e = c.range(key, key).get(0);
    assertSame(key, e.key());
    assertSame(value, e.value());
    assertEquals(3 + 5 + PromotionCache.ENTRY_OVERHEAD_BYTES, e.bytes());
  }
}
