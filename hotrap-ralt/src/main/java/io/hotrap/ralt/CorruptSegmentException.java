package io.hotrap.ralt;

import java.io.IOException;

/** A block of a segment file failed its checksum or ended early when read. */
final class CorruptSegmentException extends IOException {
  private static final long serialVersionUID = 1L;
  final transient Segment segment;

  CorruptSegmentException(Segment segment, String message) {
    super(message);
    this.segment = segment;
  }
}
