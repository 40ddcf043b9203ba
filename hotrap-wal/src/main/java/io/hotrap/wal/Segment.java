package io.hotrap.wal;

import java.nio.file.Path;

/**
 * What the log knows of one segment: its file and its liveness bitmap.
 *
 * <p>Not thread-safe: every field is read and written under the log's state lock, except that the
 * bitmap's base never changes.
 */
final class Segment {

  enum State {
    /** The raw segment appends go to. */
    ACTIVE,
    /** A raw segment no longer appended to, not yet packed. */
    SEALED_RAW,
    /** A packed segment, written by compression or trim. */
    PACKED
  }

  final LiveBitmap live;
  Path file;
  State state;
  /** Codec of a packed segment's blocks. */
  Codec codec = Codec.NONE;
  long fileBytes;
  /** Records in the file, live or dead. */
  int present;
  /** Encoded bytes of those records before compression. */
  long recordBytes;
  /**
   * Reading stopped at damage at open: records after it are unreadable, so the segment is neither
   * compressed nor trimmed (a rewrite would lose the evidence); it is still deleted once its
   * readable records are all dead.
   */
  boolean damaged;

  Segment(long base, Path file, State state) {
    this.live = new LiveBitmap(base);
    this.file = file;
    this.state = state;
  }

  long base() {
    return live.base();
  }

  /** Bytes of the file the live records are estimated to take, by their share of the records. */
  long liveBytesEstimate() {
    return present == 0 ? 0 : (long) ((double) fileBytes * live.liveCount() / present);
  }

  TrimPolicy.Candidate candidate() {
    return new TrimPolicy.Candidate(base(), fileBytes, present, live.liveCount());
  }

  @Override
  public String toString() {
    return "Segment[" + file.getFileName() + ", " + state + ", " + fileBytes + " bytes, "
        + present + " records, " + live.liveCount() + " live]";
  }
}
