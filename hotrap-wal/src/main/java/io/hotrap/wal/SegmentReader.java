package io.hotrap.wal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads the records of one segment file in order and stops at the first thing it cannot trust:
 * a record is returned only if its checksum matches, its fields are well formed, and its sequence
 * number is above the previous one and not below the segment's base.
 *
 * <p>Not thread-safe; one reader per thread.
 */
interface SegmentReader extends Closeable {

  /** Opens a raw ({@code .log}) or packed ({@code .seg}) segment, judged by its name. */
  static SegmentReader open(Path file, long base) throws IOException {
    return file.getFileName().toString().endsWith(SegmentFiles.PACKED_SUFFIX)
        ? new PackedSegmentReader(file, base)
        : new RawSegmentReader(file, base);
  }

  /**
   * The next record, or null at the end of the file or at the first damage ({@link #failure} then
   * says where and why).
   */
  LogRecord next() throws IOException;

  /** Why reading stopped early, or null if it has not (yet). */
  ReadFailure failure();

  /** Encoded size of the record {@link #next} returned last. */
  int lastRecordBytes();

  /**
   * Offset just past the last record returned by {@link #next} (raw segments), where a torn tail
   * would be cut; a packed segment returns its size.
   */
  long validEnd();

  /** Last sequence number the segment covers as written in its header, or -1 if none is. */
  long coveredLast();

  /** Size of the file in bytes. */
  long fileBytes();
}
