package io.hotrap.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TierLogRecoveryTest {

  @TempDir Path root;

  private Path dir() {
    return root.resolve("log");
  }

  /** Writes {@code records} with no compression and closes; returns the segment files. */
  private List<Path> write(Path dir, long segmentBytes, List<LogRecord> records)
      throws IOException {
    try (TierLog log = Logs.open(Logs.small(dir).segmentBytes(segmentBytes).build()).log()) {
      log.append(records, Durability.SYNCED);
    }
    return Logs.segmentFiles(dir);
  }

  private static RecoveryReport.Damage onlyDamage(RecoveryReport report) {
    assertEquals(1, report.damages().size(), report.toString());
    return report.damages().get(0);
  }

  @Test
  void aTornTailAtEveryByteOfTheLastRecordIsCutAndReported() throws IOException {
    List<LogRecord> records = Records.range(0, 20, 30);
    Path file = write(dir(), 1 << 20, records).get(0);
    byte[] whole = Files.readAllBytes(file);
    int last = RecordFormat.encodedSize(records.get(19));
    int start = whole.length - last;
    for (int cut = start; cut < whole.length; cut++) {
      Path dir = root.resolve("cut-" + cut);
      Files.createDirectories(dir);
      Path torn = dir.resolve(file.getFileName());
      Files.write(torn, java.util.Arrays.copyOf(whole, cut));
      Logs.Opened opened = Logs.open(Logs.small(dir).build());
      try (TierLog log = opened.log()) {
        assertEquals(records.subList(0, 19), opened.replayed(), "cut at " + cut);
        RecoveryReport report = log.recoveryReport();
        assertEquals(cut - start, report.truncatedBytes());
        assertEquals(cut == start ? 0 : 1, report.truncatedRecords());
        if (cut > start) {
          RecoveryReport.Damage damage = onlyDamage(report);
          assertEquals(RecoveryReport.Kind.TORN_TAIL, damage.kind());
          assertEquals(start, damage.offset());
        }
        assertEquals(start, Files.size(torn));
        assertEquals(18, log.lastSequence());
        log.append(19, Records.key(19), null, Durability.SYNCED); // the number is free again
      }
      List<LogRecord> after = Logs.replay(Logs.small(dir).build());
      assertEquals(20, after.size());
      assertTrue(after.get(19).isTombstone());
    }
  }

  @Test
  void aLastRecordDamagedAfterItsLengthCountsAsTorn() throws IOException {
    List<LogRecord> records = Records.range(0, 10, 30);
    Path file = write(dir(), 1 << 20, records).get(0);
    byte[] whole = Files.readAllBytes(file);
    int start = whole.length - RecordFormat.encodedSize(records.get(9));
    for (int at = start; at < whole.length; at++) {
      Path dir = root.resolve("flip-" + at);
      Files.createDirectories(dir);
      byte[] bad = whole.clone();
      bad[at] ^= 0x5a;
      Files.write(dir.resolve(file.getFileName()), bad);
      Logs.Opened opened = Logs.open(Logs.small(dir).build());
      opened.log().close();
      assertEquals(records.subList(0, 9), opened.replayed(), "flip at " + at);
      RecoveryReport.Damage damage = onlyDamage(opened.log().recoveryReport());
      assertEquals(start, damage.offset());
      if (at >= start + 4) {
        assertEquals(RecoveryReport.Kind.TORN_TAIL, damage.kind(), "flip at " + at);
        assertEquals(whole.length - start, opened.log().recoveryReport().truncatedBytes());
      } else {
        // A damaged length no longer reaches the end of the file: bytes follow that the reader
        // cannot place, so it reports corruption and keeps them.
        assertTrue(damage.kind() == RecoveryReport.Kind.TORN_TAIL
            || damage.kind() == RecoveryReport.Kind.CORRUPT, "flip at " + at);
      }
    }
  }

  @Test
  void zerosAfterTheLastRecordAreATornTail() throws IOException {
    List<LogRecord> records = Records.range(0, 10, 30);
    Path file = write(dir(), 1 << 20, records).get(0);
    long size = Files.size(file);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.allocate(4096), size);
    }
    Logs.Opened opened = Logs.open(Logs.small(dir()).build());
    opened.log().close();
    assertEquals(records, opened.replayed());
    RecoveryReport report = opened.log().recoveryReport();
    assertEquals(4096, report.truncatedBytes());
    assertEquals(RecoveryReport.Kind.TORN_TAIL, onlyDamage(report).kind());
    assertEquals(size, Files.size(file));
  }

  @Test
  void aCorruptRecordMidSegmentStopsThatSegmentOnlyAndIsLeftInPlace() throws IOException {
    List<LogRecord> records = Records.range(0, 200, 60);
    List<Path> files = write(dir(), 2048, records);
    assertTrue(files.size() >= 4, files.toString());
    Path second = files.get(1);
    List<LogRecord> inSecond = Logs.readFile(second);
    // Damage the value of the fourth record of the second segment.
    long offset = RawSegmentWriter.HEADER_BYTES;
    for (int i = 0; i < 3; i++) {
      offset += RecordFormat.encodedSize(inSecond.get(i));
    }
    byte[] bytes = Files.readAllBytes(second);
    bytes[(int) offset + RecordFormat.OVERHEAD_BYTES + 8] ^= 1;
    Files.write(second, bytes);

    List<LogRecord> expected = new ArrayList<>(records);
    expected.removeAll(inSecond.subList(3, inSecond.size()));
    Logs.Opened opened = Logs.open(Logs.small(dir()).segmentBytes(2048).build());
    try (TierLog log = opened.log()) {
      assertEquals(expected, opened.replayed());
      RecoveryReport.Damage damage = onlyDamage(log.recoveryReport());
      assertEquals(RecoveryReport.Kind.CORRUPT, damage.kind());
      assertEquals(second, damage.file());
      assertEquals(offset, damage.offset());
      assertEquals(bytes.length - offset, damage.bytes());
      assertEquals(0, log.recoveryReport().truncatedBytes());
      log.append(500, Records.key(500), null, Durability.SYNCED);
      log.awaitBackgroundWork();
    }
    assertArrayEquals(bytes, Files.readAllBytes(second));
  }

  @Test
  void corruptionInTheNewestSegmentWithRecordsAfterItIsNotCut() throws IOException {
    List<LogRecord> records = Records.range(0, 10, 30);
    Path file = write(dir(), 1 << 20, records).get(0);
    byte[] bytes = Files.readAllBytes(file);
    long offset = RawSegmentWriter.HEADER_BYTES + 2L * RecordFormat.encodedSize(records.get(0));
    bytes[(int) offset + 12] ^= 1;
    Files.write(file, bytes);
    Logs.Opened opened = Logs.open(Logs.small(dir()).build());
    try (TierLog log = opened.log()) {
      assertEquals(records.subList(0, 2), opened.replayed());
      RecoveryReport.Damage damage = onlyDamage(log.recoveryReport());
      assertEquals(RecoveryReport.Kind.CORRUPT, damage.kind());
      assertEquals(offset, damage.offset());
      log.append(100, Records.key(100), null, Durability.SYNCED); // goes to a new segment
    }
    assertArrayEquals(bytes, Files.readAllBytes(file));
    List<LogRecord> expected = new ArrayList<>(records.subList(0, 2));
    expected.add(LogRecord.delete(100, Records.key(100)));
    assertEquals(expected, Logs.replay(Logs.small(dir()).build()));
  }

  @Test
  void aCorruptBlockOfAPackedSegmentStopsAtThatBlock() throws IOException {
    TierLogOptions options = Logs.small(dir()).codec(Codec.LZ4).segmentBytes(8192).build();
    List<LogRecord> records = Records.range(0, 300, 100);
    try (TierLog log = Logs.open(options).log()) {
      log.append(records, Durability.WRITTEN);
      log.awaitBackgroundWork();
    }
    Path packed = Logs.segmentFiles(dir()).get(0);
    assertTrue(packed.toString().endsWith(".seg"));
    List<LogRecord> inPacked = Logs.readFile(packed);
    byte[] bytes = Files.readAllBytes(packed);
    // Find the second block and damage a byte of its stored data.
    int first = PackedSegmentWriter.HEADER_BYTES;
    int second = first + PackedSegmentWriter.BLOCK_HEADER_BYTES + RecordFormat.getInt(bytes,
        first + 4);
    int firstBlockRecords = countRecords(bytes, first);
    bytes[second + PackedSegmentWriter.BLOCK_HEADER_BYTES + 5] ^= 1;
    Files.write(packed, bytes);

    List<LogRecord> expected = new ArrayList<>(records);
    expected.removeAll(inPacked.subList(firstBlockRecords, inPacked.size()));
    Logs.Opened opened = Logs.open(options);
    try (TierLog log = opened.log()) {
      assertEquals(expected, opened.replayed());
      RecoveryReport.Damage damage = onlyDamage(log.recoveryReport());
      assertEquals(RecoveryReport.Kind.CORRUPT, damage.kind());
      assertEquals(second, damage.offset());
      assertTrue(damage.reason().contains("checksum"), damage.reason());
    }
    assertArrayEquals(bytes, Files.readAllBytes(packed));
  }

  private static int countRecords(byte[] file, int blockOffset) throws IOException {
    int u = RecordFormat.getInt(file, blockOffset);
    int c = RecordFormat.getInt(file, blockOffset + 4);
    byte[] records = new byte[u];
    Codec.LZ4.decompress(file, blockOffset + PackedSegmentWriter.BLOCK_HEADER_BYTES, c, records,
        0, u);
    int count = 0;
    for (int at = 0; at < u; count++) {
      at += RecordFormat.HEADER_BYTES + RecordFormat.bodyLength(records, at);
    }
    return count;
  }

  @Test
  void segmentsFromSeveralRunsReplayInSequenceOrder() throws IOException {
    List<LogRecord> all = new ArrayList<>();
    for (int run = 0; run < 4; run++) {
      Codec codec = run % 2 == 0 ? Codec.ZSTD : Codec.NONE;
      TierLogOptions options = Logs.small(dir()).codec(codec).segmentBytes(2048).build();
      Logs.Opened opened = Logs.open(options);
      try (TierLog log = opened.log()) {
        assertEquals(all, opened.replayed(), "run " + run);
        List<LogRecord> more = Records.range(run * 1000L, run * 1000L + 60, 80);
        Logs.appendEach(log, more, Durability.WRITTEN);
        all.addAll(more);
        if (run % 2 == 0) {
          log.awaitBackgroundWork();
        }
      }
    }
    List<Path> files = Logs.segmentFiles(dir());
    assertTrue(files.stream().anyMatch(f -> f.toString().endsWith(".seg")));
    assertTrue(files.stream().anyMatch(f -> f.toString().endsWith(".log")));
    assertEquals(all, Logs.replay(Logs.small(dir()).build()));
  }

  @Test
  void leftoversOfAnInterruptedRewriteAreCleanedUp() throws IOException {
    TierLogOptions options = Logs.small(dir()).codec(Codec.LZ4).segmentBytes(2048).build();
    List<LogRecord> records = Records.range(0, 100, 80);
    List<Path> raw;
    try (TierLog log = Logs.open(Logs.small(dir()).segmentBytes(2048).build()).log()) {
      log.append(records, Durability.SYNCED);
      raw = Logs.segmentFiles(dir());
    }
    Path copyOfFirst = root.resolve("first.log");
    Files.copy(raw.get(0), copyOfFirst);
    try (TierLog log = Logs.open(options).log()) {
      log.awaitBackgroundWork();
    }
    // A crash after the packed file was renamed in, before the raw one was deleted ...
    Files.copy(copyOfFirst, raw.get(0));
    // ... and one in the middle of writing a packed file.
    Files.write(dir().resolve("00000000000000000050.seg.tmp"), new byte[] {1, 2, 3});
    assertEquals(records, Logs.replay(options));
    assertFalse(Files.exists(raw.get(0)));
    assertFalse(Files.exists(dir().resolve("00000000000000000050.seg.tmp")));
  }

  @Test
  void marksSavedBeforeACrashSurviveIt() throws IOException {
    TierLogOptions options = Logs.small(dir()).segmentBytes(2048).build();
    Path crashed = root.resolve("crashed");
    List<LogRecord> records = Records.range(0, 100, 80);
    try (TierLog log = Logs.open(options).log()) {
      log.append(records, Durability.SYNCED);
      log.markDead(10, 19);
      log.awaitBackgroundWork(); // saves the marks of the sealed segments
      log.markDead(20, 29); // not saved when the crash comes
      Logs.copyDirectory(dir(), crashed);
    }
    List<LogRecord> expected = new ArrayList<>(records);
    expected.removeIf(r -> r.seq() >= 10 && r.seq() <= 19);
    Logs.Opened opened = Logs.open(Logs.small(crashed).segmentBytes(2048).build());
    opened.log().close();
    assertEquals(expected, opened.replayed());
    assertEquals(10, opened.log().recoveryReport().deadRecords());
  }

  @Test
  void aDamagedLivenessFileMakesEveryRecordLive() throws IOException {
    TierLogOptions options = Logs.small(dir()).segmentBytes(2048).build();
    List<LogRecord> records = Records.range(0, 100, 80);
    try (TierLog log = Logs.open(options).log()) {
      log.append(records, Durability.SYNCED);
      log.markDead(10, 19);
    }
    Path liveness = dir().resolve(SegmentFiles.LIVENESS);
    byte[] bytes = Files.readAllBytes(liveness);
    bytes[bytes.length / 2] ^= 1;
    Files.write(liveness, bytes);
    Logs.Opened opened = Logs.open(options);
    opened.log().close();
    assertEquals(records, opened.replayed());
    assertEquals(RecoveryReport.Kind.LIVENESS_LOST,
        onlyDamage(opened.log().recoveryReport()).kind());
  }
}
