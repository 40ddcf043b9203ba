package io.hotrap.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Appenders on several threads, a thread marking old records dead the way a memory tier migrates
 * them, and the background thread compressing, deleting and trimming, all at once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TierLogConcurrencyTest {

  private static final int APPENDERS = 4;
  private static final int PER_APPENDER = 2500;
  private static final long TOTAL = (long) APPENDERS * PER_APPENDER;
  /** The newest records the tier holds; older ones die unless sticky. */
  private static final long WINDOW = 300;
  /** Every 40th record outlives the window by ten or twenty windows, so segments need trimming. */
  private static final long STICKY_EVERY = 40;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(value = Codec.class, names = {"LZ4", "ZSTD"})
  void concurrentAppendsMarksAndBackgroundWorkLoseNothingLive(Codec codec) throws Exception {
    TierLogOptions options = Logs.small(dir).codec(codec).segmentBytes(16 << 10)
        .blockBytes(4096).memoryTierBytes(10_000).build();
    Object sequencer = new Object();
    long[] next = {0};
    AtomicLong written = new AtomicLong(-1); // every seq up to this one is written
    BitSet dead = new BitSet();
    ExecutorService pool = Executors.newFixedThreadPool(APPENDERS + 1);
    try (TierLog log = Logs.open(options).log()) {
      List<Future<?>> appenders = new ArrayList<>();
      for (int t = 0; t < APPENDERS; t++) {
        int thread = t;
        appenders.add(pool.submit(() -> {
          for (int i = 0; i < PER_APPENDER; i++) {
            long seq;
            if (thread == 0 && i % 10 == 0) {
              synchronized (sequencer) { // a small batch under one call
                seq = next[0] + 2;
                next[0] += 3;
                log.append(Records.range(seq - 2, seq + 1, 150), Durability.BUFFERED);
              }
              i += 2;
            } else {
              synchronized (sequencer) {
                seq = next[0]++;
                LogRecord record = Records.record(seq, 150);
                log.append(seq, record.key(), record.value(), Durability.BUFFERED);
              }
            }
            log.flush(i % 100 == 0 ? Durability.SYNCED : Durability.WRITTEN);
            written.accumulateAndGet(seq, Math::max);
          }
          return null;
        }));
      }
      Future<?> marker = pool.submit(() -> {
        long deadUpTo = -1;
        long[] stickyDeadUpTo = {-1, -1};
        while (true) {
          boolean done = appenders.stream().allMatch(Future::isDone);
          long limit = (done ? TOTAL - 1 : written.get()) - WINDOW;
          if (limit > deadUpTo) {
            markRange(log, dead, deadUpTo + 1, limit);
            deadUpTo = limit;
          }
          // Sticky records die in two classes, 10 and 20 windows late, so that a segment packed
          // with only sticky records left is partly dead for 10 windows: trimming has work then,
          // whether or not compression kept up with the appends.
          for (int c = 0; c < 2; c++) {
            long stickyLimit = (done ? TOTAL - 1 : written.get()) - (10 + 10 * c) * WINDOW;
            long step = 2 * STICKY_EVERY;
            long offset = c * STICKY_EVERY;
            for (long s = Math.floorDiv(stickyDeadUpTo[c] - offset, step) * step + step + offset;
                s <= stickyLimit;
                s += step) {
              log.markDead(s, s);
              dead.set((int) s);
            }
            stickyDeadUpTo[c] = Math.max(stickyDeadUpTo[c], stickyLimit);
          }
          if (done) { // the last window stays live, as the tier would hold it
            break;
          }
          Thread.onSpinWait();
        }
        return null;
      });
      for (Future<?> appender : appenders) {
        appender.get();
      }
      marker.get();
      log.awaitBackgroundWork();
      TierLogStats stats = log.stats();
      assertEquals(TOTAL, stats.appendedRecords());
      assertTrue(stats.compressions() > 0, stats.toString());
      assertTrue(stats.trims() > 0, stats.toString());
      assertTrue(stats.deletedSegments() > 0, stats.toString());
      assertEquals(TOTAL - dead.cardinality(), stats.liveRecords(), stats.toString());
      assertTrue(stats.syncs() < TOTAL / 100 + APPENDERS, stats.toString());
    } finally {
      pool.shutdownNow();
    }
    List<LogRecord> live = new ArrayList<>();
    for (long seq = 0; seq < TOTAL; seq++) {
      if (!dead.get((int) seq)) {
        live.add(Records.record(seq, 150));
      }
    }
    assertTrue(live.size() > WINDOW, "live " + live.size());
    assertEquals(live, Logs.replay(options));
  }

  /** Kills {@code from .. to} except the sticky records, in a few range calls. */
  private static void markRange(TierLog log, BitSet dead, long from, long to) {
    long start = from;
    for (long s = from; s <= to; s++) {
      if (s % STICKY_EVERY == 0) {
        if (s > start) {
          log.markDead(start, s - 1);
        }
        start = s + 1;
      }
    }
    if (start <= to) {
      log.markDead(start, to);
    }
    for (long s = from; s <= to; s++) {
      if (s % STICKY_EVERY != 0) {
        dead.set((int) s);
      }
    }
  }
}
