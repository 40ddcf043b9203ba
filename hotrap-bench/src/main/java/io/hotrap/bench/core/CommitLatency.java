package io.hotrap.bench.core;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.core.HotRapStats;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * User write latency while promotion by flush commits: the store is loaded so that nearly every
 * record sits in the slow tier, then reopened with a large budget and the hotness check off, so
 * that readers' slow-tier hits fill promotion tables one after another and each is committed under
 * the commit gate. A paced writer measures how long its puts take meanwhile; the p99 shows what a
 * commit's exclusive section costs writers.
 */
public final class CommitLatency {
  static final Path DEFAULT_DIR = Path.of("hotrap-data", "commit-latency");

  private CommitLatency() {}

  public static void run(List<String> argv, PrintStream out) throws Exception {
    Args args = Args.parse("commit-latency", argv, "dir", "records", "cache-kib", "writes", "readers",
        "pace-us", "seed");
    int records = args.getInt("records", 60_000);
    long cacheBytes = args.getLong("cache-kib", 2048) << 10;
    int writes = args.getInt("writes", 100_000);
    int readers = args.getInt("readers", 1);
    long paceNanos = TimeUnit.MICROSECONDS.toNanos(args.getLong("pace-us", 100));
    long seed = args.getLong("seed", 11);
    // Every option is read before the directory is emptied: a typo must not cost its data.
    Path root = Directories.fresh(args.getPath("dir", DEFAULT_DIR));
    byte[] value = new byte[1000];
    new SplittableRandom(seed).nextBytes(value);
    HotRapOptions.Builder base = HotRapOptions.builder()
        .fastPath(root.resolve("fast")).slowPath(root.resolve("slow"));
    try (HotRapDB db = HotRapDB.open(base.fastBudgetBytes(4L << 20).build())) {
      for (int i = 0; i < records; i++) {
        db.put(GetBenchmark.key(i), value);
      }
      db.awaitBackgroundWork();
    }
    HotRapOptions options = base.fastBudgetBytes(1L << 30).hotnessCheck(false)
        .promotionCacheBytes(cacheBytes).build();
    Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    AtomicBoolean running = new AtomicBoolean(true);
    try (HotRapDB db = HotRapDB.open(options)) {
      Thread[] readerThreads = new Thread[readers];
      for (int r = 0; r < readers; r++) {
        SplittableRandom rnd = new SplittableRandom(seed + 1 + r);
        readerThreads[r] = new Thread(() -> {
          while (running.get()) {
            db.get(GetBenchmark.key(rnd.nextInt(records)));
          }
        }, "reader-" + r);
        readerThreads[r].start();
      }
      byte[] small = new byte[100];
      long start = System.nanoTime();
      for (int n = 0; n < writes; n++) {
        long t0 = System.nanoTime();
        db.put(GetBenchmark.key(records + n), small);
        latency.recordValue(System.nanoTime() - t0);
        LockSupport.parkNanos(paceNanos);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      running.set(false);
      for (Thread t : readerThreads) {
        t.join();
      }
      HotRapStats s = db.stats();
      out.printf("commit-latency: %d paced puts in %.1f s beside %d reader(s); promotion cache %d KiB%n",
          writes, seconds, readers, cacheBytes >> 10);
      out.printf("  put latency us: p50 %.1f  p99 %.1f  p99.9 %.1f  max %.1f%n",
          latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(99) / 1e3,
          latency.getValueAtPercentile(99.9) / 1e3, latency.getMaxValue() / 1e3);
      out.printf("  promoted by flush %.1f MiB; gets from slow %d, from fast %d%n",
          s.bytesPromotedByFlush() / (double) (1 << 20), s.getsServedSlow(), s.getsServedFast());
    }
  }
}
