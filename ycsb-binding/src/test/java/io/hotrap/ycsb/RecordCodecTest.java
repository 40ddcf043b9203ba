package io.hotrap.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RecordCodecTest {

  private static TreeMap<String, byte[]> fields(String... nameValue) {
    TreeMap<String, byte[]> m = new TreeMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      m.put(nameValue[i], nameValue[i + 1].getBytes(StandardCharsets.UTF_8));
    }
    return m;
  }

  private static void assertSameFields(Map<String, byte[]> expected, Map<String, byte[]> actual) {
    assertEquals(expected.keySet(), actual.keySet());
    for (String name : expected.keySet()) {
      assertArrayEquals(expected.get(name), actual.get(name), name);
    }
  }

  @Test
  void decodeReturnsWhatEncodeWrote() {
    TreeMap<String, byte[]> record = fields("field0", "alpha", "field1", "", "feld-ü", "ünïcødé");
    assertSameFields(record, RecordCodec.decode(RecordCodec.encode(record)));
  }

  @Test
  void emptyRecordIsTwoBytes() {
    byte[] bytes = RecordCodec.encode(new TreeMap<>());
    assertArrayEquals(new byte[] {RecordCodec.VERSION, 0}, bytes);
    assertTrue(RecordCodec.decode(bytes).isEmpty());
  }

  @Test
  void layoutIsVersionCountThenLengthPrefixedFieldsInNameOrder() {
    byte[] bytes = RecordCodec.encode(fields("b", "2", "a", "xy"));
    assertArrayEquals(new byte[] {1, 2, 1, 'a', 2, 'x', 'y', 1, 'b', 1, '2'}, bytes);
  }

  @Test
  void defaultYcsbRecordCostsTwentyTwoBytesOfOverhead() {
    TreeMap<String, byte[]> record = new TreeMap<>();
    for (int i = 0; i < 10; i++) {
      record.put("field" + i, new byte[100]);
    }
    assertEquals(1082, RecordCodec.encode(record).length);
  }

  @Test
  void valuesLongerThan127BytesUseMultiByteLengths() {
    TreeMap<String, byte[]> record = new TreeMap<>();
    for (int length : List.of(127, 128, 16383, 16384, 300_000)) {
      byte[] v = new byte[length];
      Arrays.fill(v, (byte) length);
      record.put("f" + length, v);
    }
    assertSameFields(record, RecordCodec.decode(RecordCodec.encode(record)));
    assertEquals(1, RecordCodec.varintSize(127));
    assertEquals(2, RecordCodec.varintSize(128));
    assertEquals(3, RecordCodec.varintSize(16384));
    assertEquals(5, RecordCodec.varintSize(Integer.MAX_VALUE));
  }

  @Test
  void decodeWithFieldSetReturnsOnlyThoseThatExist() {
    byte[] bytes = RecordCodec.encode(fields("field0", "a", "field1", "b", "field2", "c"));
    TreeMap<String, byte[]> some = RecordCodec.decode(bytes, Set.of("field2", "field0", "nosuch"));
    assertSameFields(fields("field0", "a", "field2", "c"), some);
    assertTrue(RecordCodec.decode(bytes, Set.of()).isEmpty());
  }

  @Test
  void equalRecordsHaveEqualBytesWhateverTheInsertionOrder() {
    Map<String, byte[]> a = new LinkedHashMap<>();
    a.put("z", new byte[] {1});
    a.put("a", new byte[] {2});
    Map<String, byte[]> b = new LinkedHashMap<>();
    b.put("a", new byte[] {2});
    b.put("z", new byte[] {1});
    assertArrayEquals(RecordCodec.encode(new TreeMap<>(a)), RecordCodec.encode(new TreeMap<>(b)));
  }

  @Test
  void corruptRecordsAreRejectedWithTheOffset() {
    byte[] good = RecordCodec.encode(fields("a", "xy", "b", "z"));
    assertCorrupt(new byte[0], "empty record");
    assertCorrupt(new byte[] {2, 0}, "unknown version 2");
    assertCorrupt(Arrays.copyOf(good, good.length - 1), "runs past the end");
    assertCorrupt(Arrays.copyOf(good, good.length + 1), "1 trailing bytes");
    assertCorrupt(new byte[] {1, 100, 0, 0}, "field count 100");
    assertCorrupt(new byte[] {1, 1, (byte) 0x80, (byte) 0x80}, "truncated varint");
    assertCorrupt(new byte[] {1, 1, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0x0F},
        "length over 2^31 - 1");
    assertCorrupt(new byte[] {1, 1, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0},
        "longer than 5 bytes");
    assertCorrupt(new byte[] {1, 2, 1, 'a', 0, 1, 'a', 0}, "duplicate field a");
  }

  private static void assertCorrupt(byte[] bytes, String what) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RecordCodec.decode(bytes));
    assertTrue(e.getMessage().contains(what), e.getMessage());
    assertTrue(e.getMessage().startsWith("corrupt YCSB record at byte "), e.getMessage());
  }
}
