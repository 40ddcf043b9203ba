package io.hotrap.wal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Opens a log directory: scans every segment in sequence order, hands the live records to the
 * caller in that order, and rebuilds each segment's bitmap (§3.3: recovery scans all segments and
 * rebuilds the bitmaps; base and span come from the file).
 *
 * <p>Rules, in the spirit of Kafka's {@code LogSegment.recover}:
 *
 * <ul>
 *   <li>Temporary files are debris of an interrupted rewrite and are deleted. A raw segment whose
 *       packed version exists was superseded by it (the packed one was renamed into place first)
 *       and is deleted.
 *   <li>Only the newest segment, if raw, can have a torn tail, because every segment before it was
 *       forced when it was sealed. Damage whose bytes run to its end is cut off, and the cut is
 *       forced; a segment left without records is deleted. (A last record whose length field is
 *       damaged so that it ends before the file does leaves bytes the reader cannot place; that
 *       reads as corruption, below, and the bytes are kept.)
 *   <li>Any other damage is corruption: replay of that segment stops there, nothing after it in
 *       that file is returned, the file is left as it is and replay goes on with the next segment.
 *       A record is returned only after its checksum, format and order checks pass.
 *   <li>A record is live unless the saved bitmaps ({@link LivenessFile}) say it was dead.
 * </ul>
 *
 * <p>Runs on the opening thread, before the log exists; not shared.
 */
final class Recovery {

  /** What open needs to go on. */
  record Result(TreeMap<Long, Segment> segments, long lastSeq, RecoveryReport report) {}

  private final Path dir;
  private final Consumer<LogRecord> replay;
  private final List<RecoveryReport.Damage> damages = new ArrayList<>();
  private final TreeMap<Long, Segment> segments = new TreeMap<>();
  private Map<Long, LiveBitmap> saved = Map.of();
  private long lastSeq = -1;
  private long replayed;
  private long dead;
  private long truncatedBytes;
  private long truncatedRecords;

  private Recovery(Path dir, Consumer<LogRecord> replay) {
    this.dir = dir;
    this.replay = replay;
  }

  /** Recovers {@code dir}, which must exist; exceptions from {@code replay} propagate. */
  static Result run(Path dir, Consumer<LogRecord> replay) throws IOException {
    return new Recovery(dir, replay).run();
  }

  private Result run() throws IOException {
    TreeSet<Long> raw = new TreeSet<>();
    TreeSet<Long> packed = new TreeSet<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (name.endsWith(SegmentFiles.TEMP_SUFFIX)) {
          Files.delete(file);
        } else if (SegmentFiles.baseOf(name, SegmentFiles.RAW_SUFFIX) >= 0) {
          raw.add(SegmentFiles.baseOf(name, SegmentFiles.RAW_SUFFIX));
        } else if (SegmentFiles.baseOf(name, SegmentFiles.PACKED_SUFFIX) >= 0) {
          packed.add(SegmentFiles.baseOf(name, SegmentFiles.PACKED_SUFFIX));
        }
      }
    }
    for (Long base : packed) {
      if (raw.remove(base)) {
        Files.delete(SegmentFiles.raw(dir, base));
      }
    }
    loadSaved();
    TreeSet<Long> bases = new TreeSet<>(raw);
    bases.addAll(packed);
    Long newestRaw = raw.isEmpty() || (!packed.isEmpty() && packed.last() > raw.last())
        ? null
        : raw.last();
    for (long base : bases) {
      boolean newest = newestRaw != null && newestRaw == base;
      recover(packed.contains(base) ? SegmentFiles.packed(dir, base) : SegmentFiles.raw(dir, base),
          base, newest);
    }
    SegmentFiles.syncDirectory(dir);
    List<LiveBitmap> bitmaps = new ArrayList<>();
    for (Segment segment : segments.values()) {
      bitmaps.add(segment.live);
    }
    // Drops entries of segments that are gone, so a later segment can never meet a stale one.
    LivenessFile.save(dir, bitmaps);
    return new Result(segments, lastSeq, new RecoveryReport(segments.size(), replayed, dead,
        truncatedBytes, truncatedRecords, damages));
  }

  private void loadSaved() {
    try {
      saved = LivenessFile.load(dir);
    } catch (IOException e) {
      damages.add(new RecoveryReport.Damage(dir.resolve(SegmentFiles.LIVENESS), 0,
          RecoveryReport.Kind.LIVENESS_LOST, 0, String.valueOf(e.getMessage())));
    }
  }

  private void recover(Path file, long base, boolean newest) throws IOException {
    boolean isPacked = file.getFileName().toString().endsWith(SegmentFiles.PACKED_SUFFIX);
    Segment segment = new Segment(base, file,
        isPacked ? Segment.State.PACKED : Segment.State.SEALED_RAW);
    LiveBitmap savedBitmap = saved.get(base);
    ReadFailure failure = null;
    try (SegmentReader reader = SegmentReader.open(file, base)) {
      segment.fileBytes = reader.fileBytes();
      LogRecord record;
      while ((record = reader.next()) != null) {
        if (record.seq() <= lastSeq || record.seq() - base >= Integer.MAX_VALUE - 64) {
          failure = new ReadFailure(reader.validEnd() - reader.lastRecordBytes(),
              "sequence number " + record.seq() + " overlaps the previous segment (last "
                  + lastSeq + ") or is too far from base " + base, false);
          break;
        }
        lastSeq = record.seq();
        segment.present++;
        segment.recordBytes += reader.lastRecordBytes();
        boolean live = savedBitmap == null || record.seq() > savedBitmap.last()
            || savedBitmap.isLive(record.seq());
        if (live) {
          segment.live.addLive(record.seq());
          replayed++;
          replay.accept(record);
        } else {
          segment.live.extendTo(record.seq());
          dead++;
        }
      }
      if (failure == null) {
        failure = reader.failure();
      }
      if (reader instanceof PackedSegmentReader packedReader && packedReader.codec() != null) {
        segment.codec = packedReader.codec();
        if (reader.coveredLast() > segment.live.last()) {
          segment.live.extendTo(reader.coveredLast());
        }
      }
    }
    settle(segment, failure, newest);
  }

  /** Cuts a torn tail, reports corruption, and keeps or drops the segment. */
  private void settle(Segment segment, ReadFailure failure, boolean newest) throws IOException {
    Path file = segment.file;
    long fileBytes = segment.fileBytes;
    if (failure != null && newest && failure.reachesEnd()) {
      long cut = failure.offset();
      truncatedBytes += fileBytes - cut;
      truncatedRecords++;
      damages.add(new RecoveryReport.Damage(file, cut, RecoveryReport.Kind.TORN_TAIL,
          fileBytes - cut, failure.reason()));
      if (segment.present == 0) {
        Files.delete(file);
        return;
      }
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
        channel.truncate(cut);
      }
      segment.fileBytes = cut;
    } else if (failure != null) {
      damages.add(new RecoveryReport.Damage(file, failure.offset(), RecoveryReport.Kind.CORRUPT,
          fileBytes - failure.offset(), failure.reason()));
      segment.damaged = true;
      if (segment.present == 0) {
        // Nothing to track, and its name would block a new segment with the same base.
        Files.move(file, file.resolveSibling(file.getFileName() + ".damaged"),
            StandardCopyOption.REPLACE_EXISTING);
        return;
      }
    } else if (segment.present == 0 && segment.state == Segment.State.SEALED_RAW) {
      Files.delete(file); // created just before a crash, never written to
      return;
    }
    if (newest) {
      // Its records may sit in the page cache only (after a process crash): force them before
      // the saved bitmaps, which describe them, can outlive them.
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
        channel.force(true);
      }
    }
    segments.put(segment.base(), segment);
  }
}
