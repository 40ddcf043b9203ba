package io.hotrap.core;

import io.hotrap.wal.LogRecord;
import java.nio.ByteBuffer;
import org.rocksdb.RocksDBException;

/**
 * The byte format of the memory tier's log records ({@link MemoryTier}).
 *
 * <p><b>Tier log records</b> ({@link #encode}): one put is the key and the tagged value; one delete
 * the key and a null value; a batch of several operations one record, so that a crash keeps all of
 * it or none: an empty key and {@link #BATCH} followed, per operation, by the key length (int), the
 * key, the value length (int, -1 for a delete) and the value; integers big-endian. The tier log
 * checksums each record (hotrap-wal's {@code RecordFormat}).
 */
final class MemoryRecords {
  /** Tag of a log record holding one put. */
  static final byte VALUE = 0;
  /** Tag of a log record holding a batch of several operations. */
  static final byte BATCH = 2;

  private MemoryRecords() {}

  @FunctionalInterface
  interface OpSink {
    /** {@code value} is the user's value, or null for a delete. */
    void accept(byte[] key, byte[] value) throws RocksDBException;
  }

  /**
   * A log record's payload. One put: key = the key, value = {@link #VALUE} then the value. One
   * delete: key = the key, value null. A batch of several operations: key empty, value =
   * {@link #BATCH} then per operation: key length (int), key, value length (int, -1 for a delete),
   * value. Integers big-endian. The log checksums each record.
   */
  static LogRecord encode(long seq, byte[][] keys, byte[][] values) {
    if (keys.length == 1) {
      return new LogRecord(seq, keys[0], values[0] == null ? null : tagged(values[0]));
    }
    int size = 1;
    for (int i = 0; i < keys.length; i++) {
      size += 8 + keys[i].length + (values[i] == null ? 0 : values[i].length);
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.put(BATCH);
    for (int i = 0; i < keys.length; i++) {
      b.putInt(keys[i].length).put(keys[i]);
      if (values[i] == null) {
        b.putInt(-1);
      } else {
        b.putInt(values[i].length).put(values[i]);
      }
    }
    return new LogRecord(seq, new byte[0], b.array());
  }

  static void decode(LogRecord r, OpSink sink) throws RocksDBException {
    byte[] v = r.value();
    if (v == null) {
      sink.accept(r.key(), null);
    } else if (v[0] == VALUE) {
      sink.accept(r.key(), java.util.Arrays.copyOfRange(v, 1, v.length));
    } else if (v[0] == BATCH) {
      ByteBuffer b = ByteBuffer.wrap(v, 1, v.length - 1);
      while (b.hasRemaining()) {
        byte[] key = new byte[b.getInt()];
        b.get(key);
        int n = b.getInt();
        if (n < 0) {
          sink.accept(key, null);
        } else {
          byte[] value = new byte[n];
          b.get(value);
          sink.accept(key, value);
        }
      }
    } else {
      throw new IllegalStateException("tier log record " + r.seq() + " has an unknown tag " + v[0]);
    }
  }

  static byte[] tagged(byte[] value) {
    byte[] t = new byte[value.length + 1];
    t[0] = VALUE;
    System.arraycopy(value, 0, t, 1, value.length);
    return t;
  }
}
