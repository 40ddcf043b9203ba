package io.hotrap.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TierLogTest {

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(Codec.class)
  void recordsComeBackInOrderAfterReopenWithEveryCodec(Codec codec) throws IOException {
    TierLogOptions options = Logs.small(dir).codec(codec).build();
    List<LogRecord> expected = Records.range(0, 400, 100);
    try (TierLog log = Logs.open(options).log()) {
      Logs.appendEach(log, expected.subList(0, 200), Durability.WRITTEN);
      log.append(expected.subList(200, 400), Durability.SYNCED);
      log.awaitBackgroundWork();
      TierLogStats stats = log.stats();
      assertEquals(400, stats.appendedRecords());
      assertTrue(stats.segments() > 5, stats.toString());
      if (codec != Codec.NONE) {
        assertEquals(stats.segments() - 1, stats.packedSegments(), stats.toString());
        assertEquals(stats.packedSegments(), stats.compressions());
      }
    }
    Logs.Opened reopened = Logs.open(options);
    try (TierLog log = reopened.log()) {
      assertEquals(expected, reopened.replayed());
      assertTrue(log.recoveryReport().clean(), log.recoveryReport().toString());
      assertEquals(400, log.recoveryReport().replayedRecords());
    }
  }

  @ParameterizedTest
  @EnumSource(value = Codec.class, names = {"LZ4", "ZSTD"})
  void sealedSegmentsOfHalfRandomValuesShrink(Codec codec) throws IOException {
    TierLogOptions options = Logs.small(dir).codec(codec).segmentBytes(64 << 10)
        .blockBytes(16 << 10).build();
    try (TierLog log = Logs.open(options).log()) {
      log.append(Records.range(0, 2000, 1000), Durability.WRITTEN);
      log.awaitBackgroundWork();
      TierLogStats stats = log.stats();
      assertTrue(stats.compressedRecordBytes() > 1_000_000, stats.toString());
      // Half of each value is a copy of the other half: anything above 0.7 means no compression.
      assertTrue(stats.compressionRatio() < 0.7, stats.toString());
      assertTrue(stats.totalBytes() < stats.appendedBytes() * 0.7, stats.toString());
    }
  }

  @Test
  void reopenedLogContinuesAfterItsLastSequence() throws IOException {
    TierLogOptions options = Logs.small(dir).build();
    try (TierLog log = Logs.open(options).log()) {
      assertEquals(-1, log.lastSequence());
      log.append(Records.range(10, 20, 50), Durability.WRITTEN);
    }
    try (TierLog log = Logs.open(options).log()) {
      assertEquals(19, log.lastSequence());
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> log.append(19, Records.key(19), null, Durability.WRITTEN));
      assertTrue(e.getMessage().contains("19"), e.getMessage());
      log.append(25, Records.key(25), null, Durability.WRITTEN);
    }
    List<LogRecord> expected = new ArrayList<>(Records.range(10, 20, 50));
    expected.add(LogRecord.delete(25, Records.key(25)));
    assertEquals(expected, Logs.replay(options));
  }

  @Test
  void deadRecordsAreNotReplayedAfterReopen() throws IOException {
    TierLogOptions options = Logs.small(dir).build();
    try (TierLog log = Logs.open(options).log()) {
      log.append(Records.range(0, 300, 100), Durability.WRITTEN);
      log.markDead(5, 5);
      log.markDead(40, 140); // spans several segments
      log.markDead(100, 120); // already dead
      log.markDead(290, 1000); // reaches past the last record
      log.markDead(-50, -1); // before the first
    }
    List<LogRecord> expected = new ArrayList<>(Records.range(0, 300, 100));
    expected.removeIf(r -> r.seq() == 5 || (r.seq() >= 40 && r.seq() <= 140) || r.seq() >= 290);
    Logs.Opened reopened = Logs.open(options);
    try (TierLog log = reopened.log()) {
      assertEquals(expected, reopened.replayed());
      RecoveryReport report = log.recoveryReport();
      assertEquals(expected.size(), report.replayedRecords());
      // Seq 5 sits in a segment that is not all dead, so it is read and skipped; segments wholly
      // inside 40..140 may already have been deleted, their records then not even read.
      assertTrue(report.deadRecords() >= 1 && report.deadRecords() <= 300 - expected.size(),
          report.toString());
    }
  }

  @Test
  void appendsAfterMarkDeadOfFutureNumbersStayLive() throws IOException {
    TierLogOptions options = Logs.small(dir).build();
    try (TierLog log = Logs.open(options).log()) {
      log.append(Records.range(0, 10, 10), Durability.WRITTEN);
      log.markDead(0, 100);
      log.append(Records.range(10, 20, 10), Durability.WRITTEN);
      assertEquals(10, log.stats().liveRecords());
    }
    assertEquals(Records.range(10, 20, 10), Logs.replay(options));
  }

  @Test
  void segmentsWhoseRecordsAreAllDeadAreDeleted() throws IOException {
    TierLogOptions options = Logs.small(dir).build();
    try (TierLog log = Logs.open(options).log()) {
      log.append(Records.range(0, 300, 100), Durability.WRITTEN);
      int before = log.stats().segments();
      List<Path> files = Logs.segmentFiles(dir);
      long secondBase = Long.parseLong(files.get(1).getFileName().toString().substring(0, 20));
      log.markDead(0, secondBase - 1); // exactly the first segment
      log.awaitBackgroundWork();
      assertFalse(Files.exists(files.get(0)));
      assertTrue(Files.exists(files.get(1)));
      assertEquals(before - 1, log.stats().segments());
      assertEquals(1, log.stats().deletedSegments());
      log.markDead(0, 299); // the open segment stays, the sealed ones go
      log.awaitBackgroundWork();
      assertEquals(1, log.stats().segments());
      assertEquals(0, log.stats().liveRecords());
    }
  }

  /**
   * With compressAboveRatio, sealed segments stay raw while the log is small against the tier and
   * are compressed once it outgrows the ratio; replay returns the same records either way.
   */
  @Test
  void segmentsAreCompressedOnlyOnceTheLogOutgrowsItsRatio() throws IOException {
    TierLogOptions options = Logs.small(dir).codec(Codec.LZ4).compressAboveRatio(1.0).build();
    List<LogRecord> records = Records.range(0, 300, 100);
    try (TierLog log = Logs.open(options).log()) {
      log.append(records, Durability.WRITTEN);
      log.awaitBackgroundWork();
      assertTrue(log.stats().segments() > 2, "too few segments: " + log.stats());
      assertEquals(0, log.stats().compressions(), "compressed below the ratio: " + log.stats());
      log.setMemoryTierBytes(Math.max(1, log.stats().totalBytes() / 2)); // the log is now 2x the tier
      log.awaitBackgroundWork();
      assertTrue(log.stats().compressions() > 0, "not compressed above the ratio: " + log.stats());
      assertEquals(log.stats().packedSegments(), log.stats().compressions());
    }
    assertEquals(records, Logs.replay(options));
  }

  @Test
  void statsCountBytesAndGroupCommits() throws IOException {
    TierLogOptions options = Logs.small(dir).segmentBytes(1 << 20).build();
    try (TierLog log = Logs.open(options).log()) {
      for (LogRecord record : Records.range(0, 10, 100)) {
        log.append(record.seq(), record.key(), record.value(), Durability.BUFFERED);
      }
      assertEquals(0, log.stats().writes());
      log.flush(Durability.SYNCED);
      TierLogStats stats = log.stats();
      assertEquals(1, stats.writes());
      assertEquals(1, stats.syncs());
      long bytes = 0;
      for (LogRecord record : Records.range(0, 10, 100)) {
        bytes += RecordFormat.encodedSize(record);
      }
      assertEquals(bytes, stats.appendedBytes());
      assertEquals(bytes + RawSegmentWriter.HEADER_BYTES, stats.totalBytes());
      assertEquals(Files.size(Logs.segmentFiles(dir).get(0)), stats.totalBytes());
      assertEquals(stats.totalBytes(), stats.liveBytes());
      log.markDead(0, 4);
      assertEquals(stats.totalBytes() / 2, log.stats().liveBytes(), 1);
    }
  }

  @Test
  void closeIsIdempotentAndLaterUseThrows() throws IOException {
    TierLog log = Logs.open(Logs.small(dir).build()).log();
    log.append(1, Records.key(1), Records.value(1, 10), Durability.BUFFERED);
    log.close();
    log.close();
    assertThrows(IllegalStateException.class,
        () -> log.append(2, Records.key(2), null, Durability.WRITTEN));
    assertThrows(IllegalStateException.class, () -> log.append(List.of(), Durability.WRITTEN));
    assertThrows(IllegalStateException.class, () -> log.flush(Durability.SYNCED));
    assertThrows(IllegalStateException.class, () -> log.markDead(0, 1));
    assertThrows(IllegalStateException.class, log::awaitBackgroundWork);
    assertThrows(IllegalStateException.class, log::lastSequence);
    assertThrows(IllegalStateException.class, () -> log.setMemoryTierBytes(5));
    assertEquals(1, log.stats().appendedRecords()); // the buffered record was written by close
    assertEquals(List.of(LogRecord.put(1, Records.key(1), Records.value(1, 10))),
        Logs.replay(Logs.small(dir).build()));
  }

  @Test
  void nullArgumentsAreRejectedByName() throws IOException {
    TierLogOptions options = Logs.small(dir).build();
    assertEquals("options", assertThrows(NullPointerException.class,
        () -> TierLog.open(null, r -> {})).getMessage());
    assertEquals("replay", assertThrows(NullPointerException.class,
        () -> TierLog.open(options, null)).getMessage());
    try (TierLog log = Logs.open(options).log()) {
      assertEquals("key", assertThrows(NullPointerException.class,
          () -> log.append(1, null, null, Durability.WRITTEN)).getMessage());
      assertEquals("durability", assertThrows(NullPointerException.class,
          () -> log.append(1, new byte[0], null, null)).getMessage());
      assertEquals("records", assertThrows(NullPointerException.class,
          () -> log.append(null, Durability.WRITTEN)).getMessage());
      List<LogRecord> withNull = new ArrayList<>(Records.range(1, 3, 1));
      withNull.add(null);
      assertEquals("records[2]", assertThrows(NullPointerException.class,
          () -> log.append(withNull, Durability.WRITTEN)).getMessage());
      assertEquals("durability", assertThrows(NullPointerException.class,
          () -> log.flush(null)).getMessage());
    }
  }

  @Test
  void badArgumentsAreRejected() throws IOException {
    try (TierLog log = Logs.open(Logs.small(dir).build()).log()) {
      assertThrows(IllegalArgumentException.class, () -> log.markDead(5, 4));
      assertThrows(IllegalArgumentException.class,
          () -> log.append(-1, new byte[0], null, Durability.WRITTEN));
      assertThrows(IllegalArgumentException.class, () -> log.append(
          List.of(LogRecord.delete(3, new byte[0]), LogRecord.delete(3, new byte[0])),
          Durability.WRITTEN));
      assertThrows(IllegalArgumentException.class, () -> log.setMemoryTierBytes(0));
    }
  }

  @Test
  void aDirectoryHoldsOneOpenLog() throws IOException {
    TierLogOptions options = Logs.small(dir).build();
    try (TierLog log = Logs.open(options).log()) {
      assertEquals(-1, log.lastSequence());
      IOException e = assertThrows(IOException.class, () -> TierLog.open(options, r -> {}));
      assertTrue(e.getMessage().contains("another tier log"), e.getMessage());
    }
    Logs.replay(options); // released by close
  }
}
