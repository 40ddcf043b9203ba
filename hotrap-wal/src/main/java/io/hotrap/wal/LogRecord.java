package io.hotrap.wal;

import java.util.Arrays;
import java.util.Objects;

/**
 * One logged write: a sequence number, a key, and a value, or no value for a delete (a tombstone).
 *
 * <p>The arrays are not copied: whoever builds a record hands its arrays over and must not change
 * them afterwards, and a record replayed by {@link TierLog#open} owns fresh arrays the consumer may
 * keep. Equality compares contents.
 *
 * <p>Immutable once its arrays are left alone, so safe to share between threads.
 *
 * @param seq the caller's sequence number, at least 0
 * @param key the key, never null (may be empty)
 * @param value the value, or null for a tombstone
 */
public record LogRecord(long seq, byte[] key, byte[] value) {

  /** Throws if {@code seq} is negative or {@code key} is null. */
  public LogRecord {
    Objects.requireNonNull(key, "key");
    if (seq < 0) {
      throw new IllegalArgumentException("seq must be at least 0 but was " + seq);
    }
  }

  /** A put of {@code value} (not null) under {@code key}. */
  public static LogRecord put(long seq, byte[] key, byte[] value) {
    return new LogRecord(seq, key, Objects.requireNonNull(value, "value"));
  }

  /** A delete of {@code key}. */
  public static LogRecord delete(long seq, byte[] key) {
    return new LogRecord(seq, key, null);
  }

  /** True for a delete. */
  public boolean isTombstone() {
    return value == null;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LogRecord r
        && r.seq == seq
        && Arrays.equals(r.key, key)
        && Arrays.equals(r.value, value);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(seq) * 31 * 31 + Arrays.hashCode(key) * 31 + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "LogRecord[seq=" + seq + ", key=" + key.length + " bytes, "
        + (value == null ? "tombstone" : "value=" + value.length + " bytes") + "]";
  }
}
