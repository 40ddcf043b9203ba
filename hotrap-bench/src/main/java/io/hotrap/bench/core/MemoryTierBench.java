package io.hotrap.bench.core;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.bench.disk.SlowDisk;
import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.core.HotRapStats;
import io.hotrap.wal.Codec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The memory tier against HotRAP without one, at the same total RAM (DESIGN.md §15): {@code hotrap}
 * gets the memory tier's bytes as block cache (three quarters) and larger fast-tier write buffers
 * (a quarter), {@code hotrap-mem} gets them as a memory tier. With {@code --write-buffer-mib N}
 * both systems use write buffers of N MiB and {@code hotrap} gets all of the tier's bytes as block
 * cache. For each workload the two systems
 * run alternately, {@code --rounds} times each, on fresh stores, so that the shared machine's noise
 * hits both alike. Workloads (HotRAP §4 names): {@code WH-uniform}, 50% inserts of uniformly random new keys
 * and 50% reads of keys drawn the same way (mostly misses, answered by Bloom filters); {@code UH-zipf}, after a load of {@code --keys} records,
 * 50% updates and 50% reads, both Zipfian (s = 0.99).
 *
 * <p>Values are half random, half a repeat of the random half (about 2:1 compressible, db_bench's
 * default ratio of 0.5). Fast-disk bytes written are read from the block device under {@code --fast-dir}, which must
 * be a loop device made by {@code scripts/slowdisk.sh up} (no limits needed): every byte the store
 * writes there counts, the RocksDB WAL, the tier log, flushes, ingested files and compactions
 * alike ({@code fast_sst_bytes_written}: the fast column family's flush and compaction output
 * alone, from RocksDB's statistics, L0 files in the memory directory included; ingested files are
 * not in it). The tier log's size is sampled every 100 ms; the steady state is the second half of the
 * run. After each {@code hotrap-mem} run the store is closed, the memory directory wiped, and the
 * whole reopen timed (RocksDB's recovery without L0, the replay of the log, the flush after it),
 * against the bytes of the log it replayed.
 */
public final class MemoryTierBench {

  private MemoryTierBench() {}

  public static void run(List<String> argv, PrintStream out) throws Exception {
    Args args = Args.parse("memory-tier", argv, "fast-dir", "slow-dir", "mem-dir", "memory-mib",
        "budget-mib", "ops", "keys", "value-bytes", "threads", "rounds", "workloads", "codec",
        "trim", "systems", "seed", "write-buffer-mib");
    Path fastDir = args.getPath("fast-dir", null);
    Path slowDir = args.getPath("slow-dir", null);
    Path memDir = args.getPath("mem-dir", null);
    if (fastDir == null || slowDir == null || memDir == null) {
      throw new IllegalArgumentException("memory-tier needs --fast-dir, --slow-dir and --mem-dir");
    }
    long memory = args.getLong("memory-mib", 64) << 20;
    long budget = args.getLong("budget-mib", 256) << 20;
    long ops = args.getLong("ops", 2_000_000);
    int keys = args.getInt("keys", 500_000);
    int valueBytes = args.getInt("value-bytes", 1000);
    int threads = args.getInt("threads", 2);
    int rounds = args.getInt("rounds", 1);
    String[] workloads = args.getString("workloads", "WH-uniform,UH-zipf").split(",");
    String[] systems = args.getString("systems", "hotrap,hotrap-mem").split(",");
    Codec codec = Codec.valueOf(args.getString("codec", "LZ4").toUpperCase(Locale.ROOT));
    boolean trim = Boolean.parseBoolean(args.getString("trim", "true"));
    long seed = args.getLong("seed", 1);
    // Both systems' write buffers, or 0: the defaults, with the baseline's grown by the tier's RAM.
    long writeBuffer = args.getLong("write-buffer-mib", 0) << 20;
    SlowDisk fastDevice = SlowDisk.find(fastDir).orElseThrow(() -> new IllegalArgumentException(
        "--fast-dir " + fastDir + " must be on a loop device made by scripts/slowdisk.sh up, so"
            + " that the bytes written to it can be counted"));
    out.printf(Locale.ROOT, "# memory-tier: memory %d MiB, budget %d MiB, ops %d, keys %d, value %d B,"
            + " threads %d, codec %s, trim %s, fast device %s%n", memory >> 20, budget >> 20, ops,
        keys, valueBytes, threads, codec, trim, fastDevice.device());
    out.println("workload,system,round,ops_per_s,fast_bytes_written,fast_bytes_per_op,"
        + "tierlog_steady_mean,tierlog_steady_max,tierlog_peak,memory_tier_bytes,tierlog_trims,"
        + "recovery_s,replayed_log_bytes,recovery_s_per_gib_log,fast_sst_bytes_written,slow_sst_bytes_written,write_stall_s");
    for (String workload : workloads) {
      for (int round = 0; round < rounds; round++) {
        for (String system : systems) {
          Directories.fresh(fastDir.resolve("store"));
          Directories.fresh(slowDir.resolve("store"));
          Directories.fresh(memDir.resolve("store"));
          HotRapOptions.Builder b = HotRapOptions.builder()
              .fastPath(fastDir.resolve("store").resolve("fast"))
              .slowPath(slowDir.resolve("store").resolve("slow"))
              .fastBudgetBytes(budget);
          if (writeBuffer > 0) {
            b.writeBufferBytes(writeBuffer);
          }
          HotRapOptions defaults = b.build();
          if (system.equals("hotrap-mem")) {
            b.memoryTier(memDir.resolve("store"), memory).tierLogCodec(codec).tierLogTrim(trim);
          } else if (writeBuffer > 0) {
            // Same RAM, the write buffers fixed for both: the tier's bytes as block cache.
            b.blockCacheBytes(defaults.blockCacheBytes() + memory);
          } else {
            // Same RAM: the memory tier's bytes as block cache and fast-tier write buffers.
            // Four write buffers (two per tier) grow by an eighth each, the cache takes the rest.
            long buffers = memory / 8;
            b.blockCacheBytes(defaults.blockCacheBytes() + memory - 4 * buffers)
                .writeBufferBytes(defaults.writeBufferBytes() + buffers);
          }
          out.println(runOne(b.build(), workload, system, round, ops, keys, valueBytes, threads,
              seed + round, fastDevice, memDir.resolve("store")));
          out.flush();
        }
      }
    }
  }

  private static String runOne(HotRapOptions options, String workload, String system, int round,
      long ops, int keys, int valueBytes, int threads, long seed, SlowDisk fastDevice,
      Path memDir) throws Exception {
    boolean zipf = workload.equalsIgnoreCase("UH-zipf");
    if (!zipf && !workload.equalsIgnoreCase("WH-uniform")) {
      throw new IllegalArgumentException("unknown workload " + workload + "; known: WH-uniform, UH-zipf");
    }
    AtomicLong inserted = new AtomicLong();
    long[] sstBefore = new long[2];
    long opsPerSecond;
    long written;
    List<Long> samples = new ArrayList<>();
    HotRapStats last;
    try (HotRapDB db = HotRapDB.open(options)) {
      if (zipf) {
        byte[] v = new byte[valueBytes];
        SplittableRandom load = new SplittableRandom(seed * 1_000_003);
        for (int i = 0; i < keys; i++) {
          fill(load, v);
          db.put(key(i), v);
        }
        inserted.set(keys);
        db.flush();
        db.awaitBackgroundWork();
      }
      long before = sectorsWritten(fastDevice);
      HotRapStats first = db.stats();
      sstBefore[0] = first.fastBytesWritten();
      sstBefore[1] = first.slowBytesWritten();
      long start = System.nanoTime();
      Thread[] workers = new Thread[threads];
      AtomicLong done = new AtomicLong();
      for (int t = 0; t < threads; t++) {
        SplittableRandom rnd = new SplittableRandom(seed * 31 + t);
        Zipf z = zipf ? new Zipf(keys, 0.99) : null;
        workers[t] = new Thread(() -> {
          byte[] v = new byte[valueBytes];
          while (done.getAndIncrement() < ops) {
            boolean write = rnd.nextBoolean();
            if (zipf) {
              int k = scatter(z.next(rnd), keys);
              if (write) {
                fill(rnd, v);
                db.put(key(k), v);
              } else {
                db.get(key(k));
              }
            } else if (write) {
              fill(rnd, v);
              db.put(key(rnd.nextInt(Integer.MAX_VALUE)), v);
              inserted.incrementAndGet();
            } else {
              db.get(key(rnd.nextInt(Integer.MAX_VALUE)));
            }
          }
        });
        workers[t].start();
      }
      boolean running = true;
      while (running) {
        running = false;
        for (Thread w : workers) {
          w.join(100); // the sampling period, not a wait for work
          running |= w.isAlive();
        }
        samples.add(db.stats().tierLogBytes());
      }
      long nanos = System.nanoTime() - start;
      opsPerSecond = (long) (ops / (nanos / 1e9));
      last = db.stats();
      written = (sectorsWritten(fastDevice) - before) * 512;
    }
    syncAndCount(fastDevice);
    List<Long> steady = samples.subList(samples.size() / 2, samples.size());
    double mean = steady.stream().mapToLong(Long::longValue).average().orElse(0);
    long max = steady.stream().mapToLong(Long::longValue).max().orElse(0);
    String recovery = ",,";
    if (options.memoryTier()) {
      // Machine loss: the memory directory is emptied, the store rebuilds the tier from the log.
      try (Stream<Path> walk = Files.walk(memDir)) {
        for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
          if (!p.equals(memDir)) {
            Files.delete(p);
          }
        }
      }
      long logBytes = logBytes(options.fastPath());
      long begin = System.nanoTime();
      try (HotRapDB db = HotRapDB.open(options)) {
        double seconds = (System.nanoTime() - begin) / 1e9;
        double gib = logBytes / (double) (1L << 30);
        recovery = String.format(Locale.ROOT, "%.3f,%d,%.2f", seconds, logBytes,
            gib > 0 ? seconds / gib : 0);
      }
    }
    return String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%.1f,%.0f,%d,%d,%d,%d,%s,%d,%d,%.1f", workload,
        system, round, opsPerSecond, written, written / (double) ops, mean, max,
        last.tierLogPeakBytes(), last.memoryTierBytes(), last.tierLogTrims(), recovery,
        last.fastBytesWritten() - sstBefore[0], last.slowBytesWritten() - sstBefore[1],
        last.writeStallNanos() / 1e9);
  }

  /** Bytes of the tier log's files under a store's fast directory: what an open replays. */
  private static long logBytes(Path fastPath) throws IOException {
    Path dir = fastPath.resolve("tierlog");
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(dir)) {
      long total = 0;
      for (Path p : (Iterable<Path>) files::iterator) {
        total += Files.size(p);
      }
      return total;
    }
  }

  /** Bytes written to the device so far counted after a sync, so write-back is included. */
  private static long syncAndCount(SlowDisk device) throws IOException, InterruptedException {
    new ProcessBuilder("sync").inheritIO().start().waitFor();
    return sectorsWritten(device);
  }

  private static long sectorsWritten(SlowDisk device) throws IOException, InterruptedException {
    new ProcessBuilder("sync").inheritIO().start().waitFor();
    String[] f = Files.readString(Path.of("/sys/block", device.deviceName(), "stat")).trim()
        .split("\\s+");
    return Long.parseLong(f[6]);
  }

  /** Half random bytes, half a repeat of them: compressible to about half, as db_bench's default. */
  private static void fill(SplittableRandom rnd, byte[] v) {
    int half = v.length / 2;
    for (int i = 0; i < half; i++) {
      v[i] = (byte) rnd.nextInt(256);
    }
    for (int i = half; i < v.length; i++) {
      v[i] = v[i - half];
    }
  }

  private static byte[] key(long i) {
    return String.format(Locale.ROOT, "user%016d", i).getBytes(StandardCharsets.UTF_8);
  }

  /** Spreads Zipfian ranks over the key space so hot keys are not neighbours. */
  private static int scatter(long rank, int keys) {
    return (int) Math.floorMod(rank * 0x9E3779B97F4A7C15L, keys);
  }

  /** Zipfian ranks in [0, n) with exponent s (Gray et al., SIGMOD '94, as YCSB). */
  private static final class Zipf {
    private final int n;
    private final double theta;
    private final double alpha;
    private final double zetan;
    private final double eta;

    Zipf(int n, double theta) {
      this.n = n;
      this.theta = theta;
      double z = 0;
      for (int i = 1; i <= n; i++) {
        z += 1 / Math.pow(i, theta);
      }
      this.zetan = z;
      double zeta2 = 1 + 1 / Math.pow(2, theta);
      this.alpha = 1 / (1 - theta);
      this.eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
    }

    long next(SplittableRandom rnd) {
      double u = rnd.nextDouble();
      double uz = u * zetan;
      if (uz < 1) {
        return 0;
      }
      if (uz < 1 + Math.pow(0.5, theta)) {
        return 1;
      }
      return (long) (n * Math.pow(eta * u - eta + 1, alpha)) % n;
    }
  }
}
