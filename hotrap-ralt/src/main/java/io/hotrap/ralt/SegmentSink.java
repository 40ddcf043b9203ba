package io.hotrap.ralt;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Writes records into a sequence of segment files of at most {@code segmentBytes} each. Segments
 * it finished are held by it (one reference each) until {@link #releaseAll()}. A subclass hears of
 * each finished file through {@link #onFileFinished}. Used by one thread at a time.
 */
class SegmentSink {
  final List<Segment> segments = new ArrayList<>();
  private final Path dir;
  private final RaltOptions options;
  private final IoStats io;
  private final LongSupplier fileIds;
  private SegmentWriter writer;

  SegmentSink(Path dir, RaltOptions options, IoStats io, LongSupplier fileIds) {
  this.dir = dir;
  this.options = options;
  this.io = io;
  this.fileIds = fileIds;
  }

  /** Adds a record; true if this finished an output file. */
  boolean add(AccessRecord r) throws IOException {
    if (writer == null) {
      writer = new SegmentWriter(fileIds.getAsLong(), dir, options.blockBytes(),
          options.bloomBitsPerKey(), io);
    }
    writer.add(r);
    if (writer.size() >= options.segmentBytes()) {
      finishFile();
      return true;
    }
    return false;
  }

  void finishFile() throws IOException {
    if (writer == null) {
      return;
    }
    SegmentWriter w = writer;
    writer = null;
    Segment s = w.finish();
    segments.add(s);
    onFileFinished(s, s.lastKey);
  }

  void onFileFinished(Segment s, byte[] lastKey) throws IOException {}

  void abort() {
    if (writer != null) {
      writer.abort();
      writer = null;
    }
  }

  void releaseAll() {
    for (Segment s : segments) {
      s.release();
    }
    segments.clear();
  }
}
