package io.hotrap.bench.ralt;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.bench.workload.AccessStream;
import io.hotrap.bench.workload.Keys;
import io.hotrap.ralt.Ralt;
import io.hotrap.ralt.RaltStats;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * RALT's bytes written per access on the hotspot-5%, Zipfian and uniform streams, each on a fresh
 * tracker with the paper's defaults. Write amplification is bytes written over the bytes of the
 * access records handed to RALT, an access record being estimated as the tracker's bytes on disk
 * per tracked record (the paper's analysis gives about 20).
 */
public final class RaltWriteAmplification {

  static final Path DEFAULT_DIR = Path.of("hotrap-data", "ralt-wa");

  private RaltWriteAmplification() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("ralt-wa", argv, "dir", "keys", "accesses", "fast-disk-mib", "streams");
    Path root = args.getPath("dir", DEFAULT_DIR);
    int keyCount = args.getInt("keys", RaltWorkload.KEYS);
    long accesses = args.getLong("accesses", 5_000_000);
    long fastDisk = args.getLong("fast-disk-mib", RaltWorkload.FAST_DISK_BYTES >> 20) << 20;
    String streams = args.getString("streams", "hotspot5,zipfian,uniform");

    byte[][] keys = Keys.keys(keyCount);
    out.printf("ralt-wa: %,d keys of %d bytes, %,d accesses per stream, fast disk %s%n",
        keyCount, RaltWorkload.RECORD_BYTES, accesses, RaltWorkload.bytes(fastDisk));
    out.printf("%-10s %14s %12s %12s %12s %8s %10s %12s  %s%n", "stream", "bytes written",
        "B/access", "B read/acc", "B/record", "WA", "evictions", "accesses/s", "runs per level");
    for (String name : streams.split(",")) {
      Path dir = Directories.fresh(root.resolve(name));
      AccessStream stream = AccessStream.named(name, keyCount, 11);
      try (Ralt ralt = Ralt.open(RaltWorkload.options(dir, fastDisk).build())) {
        long start = System.nanoTime();
        RaltWorkload.record(ralt, keys, stream, accesses, RaltWorkload.VALUE_BYTES);
        ralt.awaitQuiescence();
        double seconds = (System.nanoTime() - start) / 1e9;
        RaltStats s = ralt.stats();
        double perAccess = (double) s.bytesWritten() / s.accesses();
        double perRecord =
            s.trackedRecords() == 0 ? 0 : (double) s.physicalBytes() / s.trackedRecords();
        double wa = perRecord == 0 ? 0 : perAccess / perRecord;
        out.printf("%-10s %14s %12.1f %12.1f %12.1f %8.1f %10d %,12.0f  %s%n", name,
            RaltWorkload.bytes(s.bytesWritten()), perAccess, (double) s.bytesRead() / s.accesses(),
            perRecord, wa, s.evictions(), accesses / seconds, Arrays.toString(s.runsPerLevel()));
      }
    }
  }
}
