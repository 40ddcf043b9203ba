package io.hotrap.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.query.Position;

/**
 * The file that keeps a store's {@link Position} across restarts, as Kafka's own stores keep theirs
 * in {@code <task dir>/<store>.position}: the offsets of the input records whose writes the store
 * holds, which interactive queries compare with their {@code PositionBound}.
 *
 * <p>Format, UTF-8 text, lines separated by {@code \n}:
 * <pre>
 * line 1      the format version, {@value #VERSION}
 * line 2..n   topic SPACE partition SPACE offset   (one per topic partition; decimal numbers)
 * </pre>
 * Topic names cannot hold spaces, so a line splits at its last two spaces. The file is written to
 * {@code <name>.tmp}, synced and renamed over the old one, so a crash leaves the old or the new
 * file. A missing file is an empty position; an unreadable one is an error naming the file.
 *
 * <p>Not thread-safe: the store writes it from its stream thread.
 */
final class PositionCheckpoint {
  static final int VERSION = 1;

  private final Path file;

  PositionCheckpoint(Path file) {
    this.file = file;
  }

  Path file() {
    return file;
  }

  /** The stored position, or an empty one if the file does not exist. */
  Position read() {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return Position.emptyPosition();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the position file " + file, e);
    }
    if (lines.isEmpty() || !lines.get(0).equals(Integer.toString(VERSION))) {
      throw new IllegalStateException("the position file " + file + " has version "
          + (lines.isEmpty() ? "(none)" : lines.get(0)) + "; this version reads " + VERSION);
    }
    Map<String, Map<Integer, Long>> positions = new HashMap<>();
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isEmpty()) {
        continue;
      }
      int second = line.lastIndexOf(' ');
      int first = second > 0 ? line.lastIndexOf(' ', second - 1) : -1;
      if (first <= 0) {
        throw new IllegalStateException("line " + (i + 1) + " of the position file " + file
            + " is not \"topic partition offset\": " + line);
      }
      try {
        int partition = Integer.parseInt(line.substring(first + 1, second));
        long offset = Long.parseLong(line.substring(second + 1));
        positions.computeIfAbsent(line.substring(0, first), t -> new HashMap<>()).put(partition, offset);
      } catch (NumberFormatException e) {
        throw new IllegalStateException("line " + (i + 1) + " of the position file " + file
            + " has a bad number: " + line, e);
      }
    }
    return Position.fromMap(positions);
  }

  /** Replaces the file with {@code position}, atomically and durably. */
  void write(Position position) {
    StringBuilder text = new StringBuilder().append(VERSION).append('\n');
    for (String topic : position.getTopics()) {
      for (Map.Entry<Integer, Long> e : position.getPartitionPositions(topic).entrySet()) {
        text.append(topic).append(' ').append(e.getKey()).append(' ').append(e.getValue()).append('\n');
      }
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE,
          StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
        ch.write(ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
        ch.force(true);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the position file " + file, e);
    }
  }
}
