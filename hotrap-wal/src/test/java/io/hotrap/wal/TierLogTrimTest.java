package io.hotrap.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TierLogTrimTest {

  private static final int RECORDS = 3000;

  @TempDir Path dir;

  /** Appends RECORDS records and marks about 85% of them dead at random; returns the live ones. */
  private static BitSet appendAndKillMost(TierLog log) throws IOException {
    log.append(Records.range(0, RECORDS, 100), Durability.WRITTEN);
    SplittableRandom random = new SplittableRandom(3);
    BitSet live = new BitSet();
    live.set(0, RECORDS);
    for (int seq = 0; seq < RECORDS; seq++) {
      if (random.nextInt(100) < 85) {
        log.markDead(seq, seq);
        live.clear(seq);
      }
    }
    return live;
  }

  @ParameterizedTest
  @EnumSource(Codec.class)
  void trimKeepsExactlyTheLiveRecordsAndBringsTheLogUnderTheTarget(Codec codec)
      throws IOException {
    // About 340 KB appended, about 34 KB of it live after the marks. The memory tier is large
    // while the records are appended and marked, so that no trim runs before the last mark; then
    // it shrinks to 30 KB: λ_t × tier = 75 KB and λ_s × tier = 60 KB, so the log is over the
    // trigger even when every sealed segment was compressed first (LZ4 brings it to about 95 KB).
    TierLogOptions options = Logs.small(dir).codec(codec).segmentBytes(8192)
        .memoryTierBytes(10_000_000).trimTriggerRatio(2.5).trimTargetRatio(2.0).build();
    BitSet live;
    try (TierLog log = Logs.open(options).log()) {
      live = appendAndKillMost(log);
      log.setMemoryTierBytes(30_000);
      log.awaitBackgroundWork();
      TierLogStats stats = log.stats();
      assertTrue(stats.trims() > 0, stats.toString());
      assertTrue(stats.trimRounds() > 0, stats.toString());
      assertTrue(stats.trimmedBytes() > 0, stats.toString());
      assertTrue(stats.totalBytes() <= 2.5 * 30_000, stats.toString());
      assertEquals(live.cardinality(), stats.liveRecords());

      // Every file keeps every live record of its range. With no codec, packed files come from
      // trim alone and hold exactly the live records; with one, a file packed on sealing (before
      // the marks) may hold dead ones too.
      int exact = 0;
      for (Path file : Logs.segmentFiles(dir)) {
        List<Long> inFile = Logs.readFile(file).stream().map(LogRecord::seq).toList();
        long base = Long.parseLong(file.getFileName().toString().substring(0, 20));
        long end = nextBase(file, base);
        List<Long> liveInRange = new ArrayList<>();
        for (int seq = live.nextSetBit((int) base); seq >= 0 && seq < end;
            seq = live.nextSetBit(seq + 1)) {
          liveInRange.add((long) seq);
        }
        assertTrue(inFile.containsAll(liveInRange), file.toString());
        if (inFile.equals(liveInRange)) {
          exact++;
        } else if (codec == Codec.NONE) {
          assertTrue(file.toString().endsWith(".log"), file + " holds " + inFile);
        }
      }
      assertTrue(exact >= (codec == Codec.NONE ? stats.packedSegments() : 1),
          exact + " exact files, " + stats);
    }
    List<LogRecord> expected = new ArrayList<>(Records.range(0, RECORDS, 100));
    expected.removeIf(r -> !live.get((int) r.seq()));
    assertEquals(expected, Logs.replay(options));
  }

  private long nextBase(Path file, long base) throws IOException {
    List<Path> files = Logs.segmentFiles(dir);
    int at = files.indexOf(file);
    return at + 1 < files.size()
        ? Long.parseLong(files.get(at + 1).getFileName().toString().substring(0, 20))
        : Long.MAX_VALUE;
  }

  @Test
  void nothingIsTrimmedWhileTheLogIsUnderTheTrigger() throws IOException {
    TierLogOptions options = Logs.small(dir).segmentBytes(8192).memoryTierBytes(200_000).build();
    try (TierLog log = Logs.open(options).log()) {
      appendAndKillMost(log);
      log.awaitBackgroundWork();
      TierLogStats stats = log.stats();
      assertTrue(stats.totalBytes() < 2.5 * 200_000, stats.toString());
      assertEquals(0, stats.trims());
    }
  }

  @Test
  void aSmallerTierReportedAtRunTimeTriggersTrim() throws IOException {
    TierLogOptions options = Logs.small(dir).segmentBytes(8192).memoryTierBytes(200_000).build();
    try (TierLog log = Logs.open(options).log()) {
      appendAndKillMost(log);
      log.setMemoryTierBytes(40_000);
      log.awaitBackgroundWork();
      TierLogStats stats = log.stats();
      assertTrue(stats.trims() > 0, stats.toString());
      assertTrue(stats.amplification() <= 2.5, stats.toString());
      assertEquals(40_000, stats.memoryTierBytes());
    }
  }
}
