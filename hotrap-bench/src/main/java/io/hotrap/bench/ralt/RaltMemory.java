package io.hotrap.bench.ralt;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.bench.workload.AccessStream;
import io.hotrap.bench.workload.HotspotStream;
import io.hotrap.bench.workload.Keys;
import io.hotrap.ralt.HotKeyIterator;
import io.hotrap.ralt.Ralt;
import io.hotrap.ralt.RaltOptions;
import io.hotrap.ralt.RaltStats;
import java.io.PrintStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;

/**
 * Memory RALT holds per tracked hot key: its own account ({@link RaltStats#memoryBytes()}: filters
 * and indexes) and what the JVM sees, the heap and the direct and mapped buffer pools before open
 * and after the stream, each after a full collection. Everything the driver itself needs (keys,
 * the access sequence) is allocated before the first measurement.
 *
 * <p>The access buffer is a fixed cost, not a per-key one, so the heap delta is split into what the
 * empty tracker holds right after open and what grew while the records arrived. The paper reports
 * RALT's memory as 0.087% of a data set of 1 KiB records.
 */
public final class RaltMemory {

  static final Path DEFAULT_DIR = Path.of("hotrap-data", "ralt-memory");

  private RaltMemory() {}

  public static void run(List<String> argv, PrintStream out) {
    Args args = Args.parse("ralt-memory", argv,
        "dir", "keys", "hot-fraction", "accesses", "fast-disk-mib", "seed");
    Path dir = args.getPath("dir", DEFAULT_DIR);
    int keyCount = args.getInt("keys", 4_000_000);
    double hotFraction = args.getDouble("hot-fraction", 0.05);
    long dataBytes = keyCount * RaltWorkload.RECORD_BYTES;
    // The paper's ratio: a fast disk of a fifth of the data keeps the hot set inside R_hs.
    long fastDisk = args.getLong("fast-disk-mib", Math.max(1, dataBytes / 5 >> 20)) << 20;
    int accesses = args.getInt("accesses", 6_000_000);
    long seed = args.getLong("seed", 3);

    Directories.fresh(dir);
    byte[][] keys = Keys.keys(keyCount);
    HotspotStream stream = AccessStream.hotspot(keyCount, hotFraction, 0.95, seed);
    int[] ids = stream.fill(new int[accesses]);
    RaltOptions options = RaltWorkload.options(dir, fastDisk).build();
    out.printf("ralt-memory: %,d keys (%s of data), hotspot %.1f%% (%,d hot keys), %,d accesses,"
            + " fast disk %s, buffer %s%n", keyCount, RaltWorkload.bytes(dataBytes),
        100 * hotFraction, stream.hotKeyCount(), accesses, RaltWorkload.bytes(fastDisk),
        RaltWorkload.bytes(options.bufferBytes()));

    Snapshot before = Snapshot.take();
    try (Ralt ralt = Ralt.open(options)) {
      Snapshot empty = Snapshot.take();
      for (int id : ids) {
        ralt.record(keys[id], RaltWorkload.VALUE_BYTES);
      }
      ralt.awaitQuiescence();
      long hotKeys = 0;
      try (HotKeyIterator it = ralt.hotKeys(Keys.lowest(), Keys.highest())) {
        for (; it.isValid(); it.next()) {
          hotKeys++;
        }
      }
      Snapshot after = Snapshot.take();
      RaltStats stats = ralt.stats();

      long heap = after.heap - before.heap;
      long direct = after.direct - before.direct;
      long mapped = after.mapped - before.mapped;
      double perKey = Math.max(1, hotKeys);
      out.println(stats);
      out.printf("hot keys: %,d returned by hotKeys, %,d hot records on disk%n",
          hotKeys, stats.hotRecords());
      out.printf("RALT's account: %s, %.2f bytes per hot key, %.4f%% of the data set%n",
          RaltWorkload.bytes(stats.memoryBytes()), stats.memoryBytes() / perKey,
          100.0 * stats.memoryBytes() / dataBytes);
      long fixed = empty.heap - before.heap;
      long grown = after.heap - empty.heap;
      out.printf("JVM heap delta: %s, %.2f bytes per hot key; of which %s held by the empty tracker"
              + " (buffer %s) and %s grown with the records, %.2f bytes per hot key%n",
          RaltWorkload.bytes(heap), heap / perKey, RaltWorkload.bytes(fixed),
          RaltWorkload.bytes(options.bufferBytes()), RaltWorkload.bytes(grown), grown / perKey);
      out.printf("off-heap delta: direct %s, mapped %s, %.2f bytes per hot key%n",
          RaltWorkload.bytes(direct), RaltWorkload.bytes(mapped), (direct + mapped) / perKey);
      // Keep the driver's arrays reachable until after the last measurement.
      out.printf("(driver: %,d keys, %,d accesses)%n", keys.length, ids.length);
    }
  }

  /** Heap and buffer-pool usage after a full collection. */
  private static final class Snapshot {
    final long heap;
    final long direct;
    final long mapped;

    private Snapshot(long heap, long direct, long mapped) {
      this.heap = heap;
      this.direct = direct;
      this.mapped = mapped;
    }

    static Snapshot take() {
      for (int i = 0; i < 3; i++) {
        System.gc();
      }
      long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      long direct = 0;
      long mapped = 0;
      for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
        if (pool.getName().equals("direct")) {
          direct = pool.getMemoryUsed();
        } else if (pool.getName().startsWith("mapped")) {
          mapped += pool.getMemoryUsed();
        }
      }
      return new Snapshot(heap, direct, mapped);
    }
  }
}
