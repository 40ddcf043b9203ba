package io.hotrap.ycsb;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The binary value of one YCSB record: its field map, field names in ascending order.
 *
 * <p><b>Layout</b>, byte by byte:
 * <pre>
 *   record := version:u8 (= 1)  count:varint  field{count}
 *   field  := nameLength:varint  name:u8{nameLength}  valueLength:varint  value:u8{valueLength}
 * </pre>
 * A {@code varint} is an unsigned 32-bit integer in LEB128: seven bits per byte, least significant
 * group first, the high bit set on every byte but the last (1 to 5 bytes; 0..127 take one byte).
 * {@code name} is UTF-8. Field names are unique and written in ascending {@link String} order, so
 * that equal records have equal bytes. YCSB's default record (10 fields {@code field0..field9} of
 * 100 bytes) costs 1 + 1 + 10 × (1 + 6 + 1 + 100) = 1,082 bytes, 22 of them overhead.
 *
 * <p>Decoding checks every length against the bytes that remain and rejects a wrong version, a
 * truncated field, a varint over 5 bytes or 31 bits, and trailing bytes with an
 * {@link IllegalArgumentException} naming the offset. Stateless and thread-safe.
 */
final class RecordCodec {
  /** First byte of every record; a new layout gets a new version. */
  static final byte VERSION = 1;
  private static final int MAX_VARINT_BYTES = 5;
  /** Shift of a varint's fifth byte, which may hold only the top 3 bits of a non-negative int. */
  private static final int LAST_SHIFT = 28;

  private RecordCodec() {}

  /** The record holding {@code fields}, written in ascending name order. */
  static byte[] encode(SortedMap<String, byte[]> fields) {
    byte[][] names = new byte[fields.size()][];
    int size = 1 + varintSize(fields.size());
    int i = 0;
    for (Map.Entry<String, byte[]> e : fields.entrySet()) {
      names[i] = e.getKey().getBytes(StandardCharsets.UTF_8);
      int valueLength = e.getValue().length;
      size = Math.addExact(size, varintSize(names[i].length) + names[i].length
          + varintSize(valueLength) + valueLength);
      i++;
    }
    byte[] out = new byte[size];
    out[0] = VERSION;
    int pos = writeVarint(out, 1, fields.size());
    i = 0;
    for (byte[] value : fields.values()) {
      pos = writeVarint(out, pos, names[i].length);
      System.arraycopy(names[i], 0, out, pos, names[i].length);
      pos += names[i].length;
      pos = writeVarint(out, pos, value.length);
      System.arraycopy(value, 0, out, pos, value.length);
      pos += value.length;
      i++;
    }
    return out;
  }

  /** Every field of {@code record}. */
  static TreeMap<String, byte[]> decode(byte[] record) {
    return decode(record, null);
  }

  /**
   * The fields of {@code record} whose names are in {@code wanted}, or all of them when
   * {@code wanted} is null. Names in {@code wanted} that the record lacks are left out. The
   * values of unwanted fields are skipped, not copied.
   *
   * @throws IllegalArgumentException if {@code record} is not a valid record
   */
  static TreeMap<String, byte[]> decode(byte[] record, Set<String> wanted) {
    if (record.length == 0 || record[0] != VERSION) {
      throw corrupt(0, record.length == 0 ? "empty record" : "unknown version " + record[0]);
    }
    Reader in = new Reader(record, 1);
    int count = in.varint();
    // Every field takes at least two bytes: a bound that stops a corrupt count from looping long.
    if (count > (record.length - in.pos) / 2) {
      throw corrupt(1, "field count " + count + " exceeds what " + record.length + " bytes can hold");
    }
    TreeMap<String, byte[]> fields = new TreeMap<>();
    for (int f = 0; f < count; f++) {
      int nameStart = in.pos;
      int nameLength = in.varint();
      String name = new String(record, in.take(nameLength), nameLength, StandardCharsets.UTF_8);
      int valueLength = in.varint();
      int valueOffset = in.take(valueLength);
      if (wanted == null || wanted.contains(name)) {
        if (fields.put(name, Arrays.copyOfRange(record, valueOffset, valueOffset + valueLength)) != null) {
          throw corrupt(nameStart, "duplicate field " + name);
        }
      }
    }
    if (in.pos != record.length) {
      throw corrupt(in.pos, (record.length - in.pos) + " trailing bytes");
    }
    return fields;
  }

  static int varintSize(int value) {
    int bytes = 1;
    while ((value >>>= 7) != 0) {
      bytes++;
    }
    return bytes;
  }

  private static int writeVarint(byte[] out, int pos, int value) {
    while ((value & ~0x7F) != 0) {
      out[pos++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out[pos++] = (byte) value;
    return pos;
  }

  private static IllegalArgumentException corrupt(int offset, String what) {
    return new IllegalArgumentException("corrupt YCSB record at byte " + offset + ": " + what);
  }

  /** A cursor over a record that refuses to read past its end. */
  private static final class Reader {
    private final byte[] bytes;
    private int pos;

    Reader(byte[] bytes, int pos) {
      this.bytes = bytes;
      this.pos = pos;
    }

    int varint() {
      int start = pos;
      int value = 0;
      for (int shift = 0; shift < 7 * MAX_VARINT_BYTES; shift += 7) {
        if (pos >= bytes.length) {
          throw corrupt(start, "truncated varint");
        }
        byte b = bytes[pos++];
        if (shift == LAST_SHIFT && (b & 0x78) != 0) {
          throw corrupt(start, "length over 2^31 - 1");
        }
        value |= (b & 0x7F) << shift;
        if (b >= 0) {
          return value;
        }
      }
      throw corrupt(start, "varint longer than " + MAX_VARINT_BYTES + " bytes");
    }

    /** Skips {@code length} bytes and returns the offset where they start. */
    int take(int length) {
      if (length > bytes.length - pos) {
        throw corrupt(pos, "length " + length + " runs past the end (" + (bytes.length - pos) + " bytes left)");
      }
      int start = pos;
      pos += length;
      return start;
    }
  }
}
