package io.hotrap.bench.ralt;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.bench.workload.AccessStream;
import io.hotrap.bench.workload.HotspotStream;
import io.hotrap.bench.workload.Keys;
import io.hotrap.ralt.Ralt;
import io.hotrap.ralt.RaltOptions;
import io.hotrap.ralt.RaltStats;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * RALT on its own: a hotspot-5% stream (5% of the keys get 95% of the accesses) over a million
 * 1 KiB records, tracked with the paper's defaults and auto-tuned limits, then compared with the
 * stream's true hot keys.
 */
public final class RaltDemo {

  static final Path DEFAULT_DIR = Path.of("hotrap-data", "ralt-demo");

  private RaltDemo() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("demo", argv, "dir", "keys", "accesses", "fast-disk-mib", "seed");
    Path dir = args.getPath("dir", DEFAULT_DIR);
    int keyCount = args.getInt("keys", RaltWorkload.KEYS);
    long accesses = args.getLong("accesses", 4_000_000);
    long fastDisk = args.getLong("fast-disk-mib", RaltWorkload.FAST_DISK_BYTES >> 20) << 20;
    long seed = args.getLong("seed", 1);

    out.printf("RALT demo: hotspot-5%% over %,d keys of %d bytes, %,d accesses, fast disk %s,"
            + " in %s%n",
        keyCount, RaltWorkload.RECORD_BYTES, accesses, RaltWorkload.bytes(fastDisk),
        dir.toAbsolutePath());
    Directories.fresh(dir);
    byte[][] keys = Keys.keys(keyCount);
    HotspotStream stream = AccessStream.hotspot(keyCount, 0.05, 0.95, seed);
    RaltOptions options = RaltWorkload.options(dir, fastDisk).build();

    try (Ralt ralt = Ralt.open(options)) {
      long start = System.nanoTime();
      RaltWorkload.record(ralt, keys, stream, accesses, RaltWorkload.VALUE_BYTES);
      long recorded = System.nanoTime();
      ralt.awaitQuiescence();
      long quiet = System.nanoTime();

      RaltStats stats = ralt.stats();
      RaltWorkload.Recall r = RaltWorkload.recall(ralt, keys, stream);
      long trueHotBytes = r.trueHot * RaltWorkload.RECORD_BYTES;
      double recordSeconds = (recorded - start) / 1e9;
      double totalSeconds = (quiet - start) / 1e9;

      out.println(stats);
      out.printf("recall of the true hot keys: hotKeys %.2f%% (%,d of %,d), isHot %.2f%%%n",
          100 * r.recall(), r.found, r.trueHot, 100 * r.isHotRecall());
      out.printf("hot keys returned: %,d (%s), beyond the true hot set: %s (D_hs = %s)%n",
          r.returned, RaltWorkload.bytes(r.returnedBytes), RaltWorkload.bytes(r.beyondBytes),
          RaltWorkload.bytes(options.maxUnstableHotBytes()));
      out.printf("hot-set limit %s vs true hot bytes %s (%+.1f%%)%n",
          RaltWorkload.bytes(stats.hotSetLimit()), RaltWorkload.bytes(trueHotBytes),
          100.0 * (stats.hotSetLimit() - trueHotBytes) / trueHotBytes);
      out.printf("elapsed: %.2f s recording (%,.0f accesses/s), %.2f s until quiescent"
              + " (%,.0f accesses/s amortized with merges and evictions)%n",
          recordSeconds, accesses / recordSeconds, totalSeconds, accesses / totalSeconds);
      out.printf("written %s (%.1f bytes per access), read %s, on disk %s%n",
          RaltWorkload.bytes(stats.bytesWritten()), (double) stats.bytesWritten() / accesses,
          RaltWorkload.bytes(stats.bytesRead()), RaltWorkload.bytes(Directories.size(dir)));
    }
  }
}
