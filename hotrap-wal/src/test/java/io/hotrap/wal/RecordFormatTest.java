package io.hotrap.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RecordFormatTest {

  @Test
  void putsDeletesAndEmptyArraysRoundTrip() {
    LogRecord[] records = {
      LogRecord.put(0, new byte[0], new byte[0]),
      LogRecord.put(Long.MAX_VALUE, new byte[] {1, 2, 3}, Records.value(9, 1000)),
      LogRecord.delete(42, new byte[] {7}),
      LogRecord.delete(43, new byte[0]),
    };
    for (LogRecord record : records) {
      byte[] bytes = RecordFormat.encode(record);
      assertEquals(RecordFormat.encodedSize(record), bytes.length);
      int n = RecordFormat.bodyLength(bytes, 0);
      assertEquals(bytes.length - RecordFormat.HEADER_BYTES, n);
      LogRecord decoded = RecordFormat.decode(bytes, 0, n);
      assertEquals(record, decoded);
      assertEquals(record.isTombstone(), decoded.isTombstone());
    }
  }

  @Test
  void headerIsLengthThenChecksumThenTypeSeqAndKeyLength() {
    byte[] bytes = RecordFormat.encode(LogRecord.put(0x0102030405060708L, new byte[] {9},
        new byte[] {10, 11}));
    assertEquals(RecordFormat.OVERHEAD_BYTES + 3, bytes.length);
    assertEquals(13 + 3, RecordFormat.getInt(bytes, 0));
    assertEquals(RecordFormat.TYPE_PUT, bytes[8]);
    assertEquals(0x0102030405060708L, RecordFormat.getLong(bytes, 9));
    assertEquals(1, RecordFormat.getInt(bytes, 17));
    assertArrayEquals(new byte[] {9, 10, 11}, java.util.Arrays.copyOfRange(bytes, 21, 24));
  }

  @Test
  void everySingleBitFlipIsRejected() {
    byte[] good = RecordFormat.encode(LogRecord.put(77, Records.key(77), Records.value(77, 40)));
    for (int i = 0; i < good.length; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] bad = good.clone();
        bad[i] ^= (byte) (1 << bit);
        int n = RecordFormat.bodyLength(bad, 0);
        if (n < 0 || RecordFormat.HEADER_BYTES + n > bad.length) {
          continue; // the reader stops on the length alone
        }
        assertNull(RecordFormat.decode(bad, 0, n), "flip of bit " + bit + " of byte " + i);
      }
    }
  }

  @Test
  void recordsLargerThanTheLimitAreRefused() {
    LogRecord huge = LogRecord.put(1, new byte[0], new byte[RecordFormat.MAX_RECORD_BYTES]);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RecordFormat.encodedSize(huge));
    assertTrue(e.getMessage().contains(String.valueOf(RecordFormat.MAX_RECORD_BYTES)));
  }

  @Test
  void lengthsOutOfRangeAreFlagged() {
    byte[] bytes = new byte[8];
    RecordFormat.putInt(bytes, 0, 12);
    assertEquals(-1, RecordFormat.bodyLength(bytes, 0));
    RecordFormat.putInt(bytes, 0, RecordFormat.MAX_RECORD_BYTES);
    assertEquals(-1, RecordFormat.bodyLength(bytes, 0));
    RecordFormat.putInt(bytes, 0, -5);
    assertEquals(-1, RecordFormat.bodyLength(bytes, 0));
  }

  @Test
  void logRecordRejectsNegativeSeqsAndNullKeys() {
    assertThrows(IllegalArgumentException.class, () -> LogRecord.delete(-1, new byte[0]));
    NullPointerException e =
        assertThrows(NullPointerException.class, () -> LogRecord.put(1, null, new byte[0]));
    assertEquals("key", e.getMessage());
    e = assertThrows(NullPointerException.class, () -> LogRecord.put(1, new byte[0], null));
    assertEquals("value", e.getMessage());
  }
}
