package io.hotrap.wal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Opening logs and looking at their files, for tests. */
final class Logs {

  private Logs() {}

  /** Small segments and blocks, no compression, a tier large enough that nothing is trimmed. */
  static TierLogOptions.Builder small(Path dir) {
    return TierLogOptions.builder()
        .directory(dir)
        .memoryTierBytes(1L << 30)
        .segmentBytes(4096)
        .blockBytes(1024)
        .codec(Codec.NONE);
  }

  /** A log opened on {@code options} and the records it replayed. */
  record Opened(TierLog log, List<LogRecord> replayed) {}

  static Opened open(TierLogOptions options) throws IOException {
    List<LogRecord> replayed = new ArrayList<>();
    TierLog log = TierLog.open(options, replayed::add);
    return new Opened(log, replayed);
  }

  /** Opens, takes the replayed records and the report, closes. */
  static List<LogRecord> replay(TierLogOptions options) throws IOException {
    Opened opened = open(options);
    opened.log().close();
    return opened.replayed();
  }

  static void appendEach(TierLog log, List<LogRecord> records, Durability durability)
      throws IOException {
    for (LogRecord record : records) {
      log.append(record.seq(), record.key(), record.value(), durability);
    }
  }

  /** Segment files ({@code .log} and {@code .seg}) in name order, which is sequence order. */
  static List<Path> segmentFiles(Path dir) throws IOException {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*.{log,seg}")) {
      stream.forEach(files::add);
    }
    files.sort(null);
    return files;
  }

  static List<LogRecord> readFile(Path file) throws IOException {
    String name = file.getFileName().toString();
    long base = Long.parseLong(name.substring(0, 20));
    List<LogRecord> records = new ArrayList<>();
    try (SegmentReader reader = SegmentReader.open(file, base)) {
      LogRecord record;
      while ((record = reader.next()) != null) {
        records.add(record);
      }
      if (reader.failure() != null) {
        throw new IOException(file + ": " + reader.failure());
      }
    }
    return records;
  }

  /** Copies every file of {@code from} into {@code to}: what a crash at this moment would leave. */
  static void copyDirectory(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(from)) {
      for (Path file : stream) {
        if (!file.getFileName().toString().equals(SegmentFiles.LOCK)) {
          Files.copy(file, to.resolve(file.getFileName()));
        }
      }
    }
  }
}
