package io.hotrap.wal;

import java.util.zip.CRC32C;

/**
 * The encoding of one record, the unit every segment file is made of.
 *
 * <p>All integers are big-endian.
 *
 * <pre>
 * offset  size     field
 * 0       4        n, the body length: 13 + k &lt;= n &lt;= {@link #MAX_RECORD_BYTES} - 8
 * 4       4        CRC32C of bytes [0, 4) followed by bytes [8, 8 + n)
 * 8       1        type: 1 = put, 2 = delete (tombstone)
 * 9       8        sequence number, at least 0
 * 17      4        k, the key length
 * 21      k        key
 * 21 + k  n-13-k   value; a delete has none
 * </pre>
 *
 * <p>The checksum covers the length, so a damaged length that still points inside the file fails
 * the check instead of shifting every later record. Nothing outside the record is needed to read
 * it, which lets the same bytes be written to a raw segment and, unchanged, into a block of a packed
 * one.
 *
 * <p>Stateless; safe for any number of threads.
 */
final class RecordFormat {

  static final int HEADER_BYTES = 8;
  /** Type, sequence number and key length. */
  static final int BODY_FIXED_BYTES = 13;
  static final int OVERHEAD_BYTES = HEADER_BYTES + BODY_FIXED_BYTES;
  /**
   * Largest encoded record, so that a damaged length field is caught by its size before it makes
   * the reader wait for bytes that never come.
   */
  static final int MAX_RECORD_BYTES = 64 << 20;

  static final byte TYPE_PUT = 1;
  static final byte TYPE_DELETE = 2;

  private RecordFormat() {}

  /** Bytes {@code record} takes once encoded; throws if it is larger than allowed. */
  static int encodedSize(LogRecord record) {
    long size = (long) OVERHEAD_BYTES + record.key().length
        + (record.value() == null ? 0 : record.value().length);
    if (size > MAX_RECORD_BYTES) {
      throw new IllegalArgumentException("record of " + size + " bytes (seq " + record.seq()
          + ") is larger than the limit of " + MAX_RECORD_BYTES + " bytes");
    }
    return (int) size;
  }

  /** Writes {@code record} at {@code off}; returns the offset just past it. */
  static int encode(LogRecord record, byte[] dst, int off) {
    byte[] key = record.key();
    byte[] value = record.value();
    int valueLength = value == null ? 0 : value.length;
    int n = BODY_FIXED_BYTES + key.length + valueLength;
    putInt(dst, off, n);
    int body = off + HEADER_BYTES;
    dst[body] = value == null ? TYPE_DELETE : TYPE_PUT;
    putLong(dst, body + 1, record.seq());
    putInt(dst, body + 9, key.length);
    System.arraycopy(key, 0, dst, body + BODY_FIXED_BYTES, key.length);
    if (value != null) {
      System.arraycopy(value, 0, dst, body + BODY_FIXED_BYTES + key.length, valueLength);
    }
    putInt(dst, off + 4, checksum(dst, off, n));
    return body + n;
  }

  /** Encodes {@code record} into a new array of exactly its size. */
  static byte[] encode(LogRecord record) {
    byte[] bytes = new byte[encodedSize(record)];
    encode(record, bytes, 0);
    return bytes;
  }

  /**
   * Body length announced by the header at {@code off}, or -1 if it is out of range (too small to
   * hold the fixed fields or larger than any record may be).
   */
  static int bodyLength(byte[] buf, int off) {
    int n = getInt(buf, off);
    return n < BODY_FIXED_BYTES || n > MAX_RECORD_BYTES - HEADER_BYTES ? -1 : n;
  }

  /**
   * Decodes the record whose {@code HEADER_BYTES + n} bytes start at {@code off}, with {@code n}
   * from {@link #bodyLength}. Returns null if the checksum does not match or the body is
   * malformed; {@link #describeFailure} then tells which.
   */
  static LogRecord decode(byte[] buf, int off, int n) {
    if (checksum(buf, off, n) != getInt(buf, off + 4)) {
      return null;
    }
    int body = off + HEADER_BYTES;
    byte type = buf[body];
    long seq = getLong(buf, body + 1);
    int keyLength = getInt(buf, body + 9);
    if ((type != TYPE_PUT && type != TYPE_DELETE) || seq < 0
        || keyLength < 0 || keyLength > n - BODY_FIXED_BYTES
        || (type == TYPE_DELETE && keyLength != n - BODY_FIXED_BYTES)) {
      return null;
    }
    int keyStart = body + BODY_FIXED_BYTES;
    byte[] key = java.util.Arrays.copyOfRange(buf, keyStart, keyStart + keyLength);
    byte[] value = type == TYPE_DELETE
        ? null
        : java.util.Arrays.copyOfRange(buf, keyStart + keyLength, body + n);
    return new LogRecord(seq, key, value);
  }

  /** Why {@link #decode} refused the record at {@code off}. */
  static String describeFailure(byte[] buf, int off, int n) {
    return checksum(buf, off, n) != getInt(buf, off + 4)
        ? "checksum mismatch"
        : "malformed body (type " + buf[off + HEADER_BYTES] + ")";
  }

  private static int checksum(byte[] buf, int off, int n) {
    CRC32C crc = new CRC32C();
    crc.update(buf, off, 4);
    crc.update(buf, off + HEADER_BYTES, n);
    return (int) crc.getValue();
  }

  static void putInt(byte[] b, int off, int v) {
    b[off] = (byte) (v >>> 24);
    b[off + 1] = (byte) (v >>> 16);
    b[off + 2] = (byte) (v >>> 8);
    b[off + 3] = (byte) v;
  }

  static void putLong(byte[] b, int off, long v) {
    putInt(b, off, (int) (v >>> 32));
    putInt(b, off + 4, (int) v);
  }

  static int getInt(byte[] b, int off) {
    return (b[off] & 0xff) << 24 | (b[off + 1] & 0xff) << 16 | (b[off + 2] & 0xff) << 8
        | (b[off + 3] & 0xff);
  }

  static long getLong(byte[] b, int off) {
    return (long) getInt(b, off) << 32 | (getInt(b, off + 4) & 0xffffffffL);
  }
}
