package io.hotrap.wal;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Copies the records of a sealed segment that a bitmap calls live into a packed segment: the file
 * work of both background compression and KV trim (§3.2.1). The new file replaces the target only
 * once complete ({@link PackedSegmentWriter#finish}); the source is not touched.
 *
 * <p>Stateless; the caller makes sure no one else writes the target.
 */
final class SegmentRewriter {

  /** What the new file holds. */
  record Result(int records, long recordBytes, long fileBytes) {}

  /** The source could not be read to its end; nothing was replaced. */
  static final class DamagedSegmentException extends IOException {
    private static final long serialVersionUID = 1L;

    DamagedSegmentException(String message) {
      super(message);
    }
  }

  private SegmentRewriter() {}

  /**
   * Writes {@code target} with exactly the records of {@code source} live in {@code live}, covering
   * {@code live.base() .. live.last()}.
   *
   * @throws DamagedSegmentException if {@code source} has damage; the target is left as it was
   */
  static Result rewrite(Path source, long base, LiveBitmap live, Path target, Codec codec,
      int blockBytes) throws IOException {
    int kept = 0;
    long keptBytes = 0;
    try (SegmentReader reader = SegmentReader.open(source, base);
        PackedSegmentWriter writer =
            new PackedSegmentWriter(target, codec, base, live.last(), blockBytes)) {
      LogRecord record;
      while ((record = reader.next()) != null) {
        if (live.isLive(record.seq())) {
          byte[] encoded = RecordFormat.encode(record);
          writer.add(encoded, 0, encoded.length);
          kept++;
          keptBytes += encoded.length;
        }
      }
      if (reader.failure() != null) {
        throw new DamagedSegmentException("cannot rewrite " + source + ": " + reader.failure());
      }
      return new Result(kept, keptBytes, writer.finish());
    }
  }
}
