package io.hotrap.wal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Records for tests: deterministic keys and values, half of each value repeating, like db_bench. */
final class Records {

  private Records() {}

  static byte[] key(long seq) {
    return ("key-" + seq).getBytes(StandardCharsets.UTF_8);
  }

  /** A value of {@code length} bytes, about half of it random and half a copy of that half. */
  static byte[] value(long seq, int length) {
    SplittableRandom random = new SplittableRandom(seq);
    byte[] value = new byte[length];
    int half = (length + 1) / 2;
    for (int i = 0; i < half; i++) {
      value[i] = (byte) random.nextInt(256);
    }
    System.arraycopy(value, 0, value, half, length - half);
    return value;
  }

  /** The record tests log for {@code seq}: every seventh a delete, the others puts. */
  static LogRecord record(long seq, int valueLength) {
    return seq % 7 == 3 ? LogRecord.delete(seq, key(seq))
        : LogRecord.put(seq, key(seq), value(seq, valueLength));
  }

  static List<LogRecord> range(long from, long toExclusive, int valueLength) {
    List<LogRecord> records = new ArrayList<>();
    for (long seq = from; seq < toExclusive; seq++) {
      records.add(record(seq, valueLength));
    }
    return records;
  }
}
