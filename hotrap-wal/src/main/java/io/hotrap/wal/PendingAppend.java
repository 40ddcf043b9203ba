package io.hotrap.wal;

import java.util.List;

/**
 * The records of one append call, encoded by the calling thread before it queues them, so that
 * checksums are computed in parallel and the group-commit leader only copies bytes.
 *
 * <p>Immutable after construction.
 *
 * @param seqs the records' sequence numbers, increasing
 * @param sizes each record's encoded size
 * @param bytes the encoded records, back to back
 */
record PendingAppend(long[] seqs, int[] sizes, byte[] bytes) {

  static PendingAppend of(LogRecord record) {
    byte[] bytes = RecordFormat.encode(record);
    return new PendingAppend(new long[] {record.seq()}, new int[] {bytes.length}, bytes);
  }

  /** Encodes {@code records}, whose sequence numbers must increase. */
  static PendingAppend of(List<LogRecord> records) {
    int count = records.size();
    long[] seqs = new long[count];
    int[] sizes = new int[count];
    long total = 0;
    for (int i = 0; i < count; i++) {
      LogRecord record = records.get(i);
      if (record == null) {
        throw new NullPointerException("records[" + i + "]");
      }
      if (i > 0 && record.seq() <= seqs[i - 1]) {
        throw new IllegalArgumentException("records[" + i + "] has seq " + record.seq()
            + ", not above the previous " + seqs[i - 1]);
      }
      seqs[i] = record.seq();
      sizes[i] = RecordFormat.encodedSize(record);
      total += sizes[i];
    }
    if (total > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("batch of " + total + " bytes is too large for one call");
    }
    byte[] bytes = new byte[(int) total];
    int off = 0;
    for (LogRecord record : records) {
      off = RecordFormat.encode(record, bytes, off);
    }
    return new PendingAppend(seqs, sizes, bytes);
  }

  long firstSeq() {
    return seqs[0];
  }

  long lastSeq() {
    return seqs[seqs.length - 1];
  }
}
