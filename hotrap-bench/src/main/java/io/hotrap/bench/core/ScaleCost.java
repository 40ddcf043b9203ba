package io.hotrap.bench.core;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.bench.harness.HotRapSystem;
import io.hotrap.bench.harness.Profile;
import io.hotrap.bench.harness.Runner;
import io.hotrap.bench.harness.SystemConfig;
import io.hotrap.bench.harness.Systems;
import io.hotrap.bench.report.RunResult;
import io.hotrap.bench.workload.Workload;
import io.hotrap.bench.workload.WorkloadParams;
import io.hotrap.core.HotRapStats;
import io.hotrap.ralt.RaltStats;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What HotRAP's own structures cost as the store grows (issue 21): RALT's memory per hot key, the
 * migration picker's time and heap per fast file, and the promotion cache's bytes, at each fast
 * budget of {@code --budgets}, with each also divided by the data so that growth faster than the
 * data shows as a column that rises from row to row.
 *
 * <p>Each budget gets a fresh {@code hotrap} store loaded as the {@code run} command loads one
 * ({@link Profile#DATA_TO_BUDGET} times the budget in records of {@code --record-bytes}, through
 * {@link Runner#load}), then, with the store still open, {@code --seconds} of a read workload
 * ({@code ro-zipf} unless told) through {@link Runner#run}, long enough for RALT to call records
 * hot and for the promotion cache to fill and be checked. The figures are read from
 * {@link HotRapStats} at the end, so the picker's cover every ranking since the open (most are the
 * load's):
 *
 * <ul>
 *   <li>RALT: {@link RaltStats#memoryBytes()} (its filters and indexes; the access buffer is a fixed
 *       cost) over {@link RaltStats#hotRecords()};
 *   <li>picker: {@link HotRapStats#migrationPickNanos()} per ranking and per fast file ranked, and
 *       {@link HotRapStats#migrationPickPeakBytes()}, the estimated heap of the largest ranking,
 *       per fast file of a mean ranking;
 *   <li>promotion cache: {@link HotRapStats#promotionCachePeakBytes()} and
 *       {@link HotRapStats#promotionCacheBytes()} at the end, the charged bytes of its tables, and
 *       the admission filter's bits;
 *   <li>the JVM heap after a full collection with the store open, less the heap before it was
 *       opened (the workload's own tables included in both): everything the store holds on the
 *       heap, RALT and the cache among it.
 * </ul>
 *
 * <p>Output: a table on stdout and {@code scale.csv} in {@code --out} (default {@code --dir}).
 * Each budget's store is deleted once measured.
 */
public final class ScaleCost {
  static final Path DEFAULT_DIR = Path.of("hotrap-data", "scale");
  static final String CSV = "scale.csv";
  static final String HEADER = "budget_mib,records,data_bytes,fast_sst_bytes,slow_sst_bytes,"
      + "fast_files,load_seconds,run_seconds,throughput,fast_hit_rate,"
      + "ralt_memory_bytes,ralt_hot_records,ralt_bytes_per_hot_key,heap_delta_bytes,"
      + "picks,pick_fast_files_mean,pick_slow_files_mean,pick_us,pick_us_per_fast_file,"
      + "pick_peak_bytes,pick_bytes_per_fast_file,"
      + "cache_target_bytes,cache_peak_bytes,cache_end_bytes,admission_bytes,"
      + "ralt_memory_ppm_of_data,heap_delta_ppm_of_data,pick_us_per_data_gib,"
      + "pick_peak_ppm_of_data,cache_peak_ppm_of_data";
  /** Parts per million: the normalised columns are small shares of the data. */
  private static final double PPM = 1e6;
  private static final double GIB = 1L << 30;

  private ScaleCost() {}

  public static void run(List<String> argv, PrintStream out) throws Exception {
    Args args = Args.parse("scale", argv, "dir", "out", "budgets", "workload", "seconds", "threads",
        "record-bytes", "direct-io", "seed");
    Path dir = args.getPath("dir", DEFAULT_DIR);
    Path outDir = args.getPath("out", dir);
    List<Long> budgets = new ArrayList<>();
    for (String b : args.getString("budgets", "16,128,256").split(",")) {
      long mib;
      try {
        mib = Long.parseLong(b.strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--budgets must list MiB as integers but had '" + b + "'");
      }
      if (mib <= 0) {
        throw new IllegalArgumentException("--budgets must be positive but had " + mib);
      }
      budgets.add(mib);
    }
    String workloadName = args.getString("workload", "ro-zipf");
    int seconds = args.getInt("seconds", 60);
    int threads = args.getInt("threads", 2);
    int recordBytes = args.getInt("record-bytes", 1024);
    if (recordBytes <= Profile.KEY_BYTES) {
      throw new IllegalArgumentException("--record-bytes must exceed the key's "
          + Profile.KEY_BYTES + " bytes but was " + recordBytes);
    }
    boolean directIo = Boolean.parseBoolean(args.getString("direct-io", "false"));
    long seed = args.getLong("seed", 1);
    Workload.parse(workloadName, params(1, recordBytes, seed)); // a bad name fails first

    Directories.fresh(dir);
    Files.createDirectories(outDir);
    out.printf("scale: hotrap, %s for %d s after a load of %dx the budget in %d B records,"
        + " %d threads%n", workloadName, seconds, Profile.DATA_TO_BUDGET, recordBytes, threads);
    List<Row> rows = new ArrayList<>();
    StringBuilder csv = new StringBuilder(HEADER).append('\n');
    for (long mib : budgets) {
      Row row = measure(mib, dir.resolve(mib + "mib"), workloadName, seconds, threads, recordBytes,
          directIo, seed, out);
      rows.add(row);
      // Written after each budget: a long series stopped early keeps the rows it measured.
      csv.append(row.csv()).append('\n');
      try {
        Files.writeString(outDir.resolve(CSV), csv, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    printTable(rows, out);
  }

  private static WorkloadParams params(long records, int recordBytes, long seed) {
    return new WorkloadParams(records, recordBytes - Profile.KEY_BYTES, 1L << 40, seed,
        WorkloadParams.DEFAULT_ZIPF_S);
  }

  private static Row measure(long mib, Path dir, String workloadName, int seconds, int threads,
      int recordBytes, boolean directIo, long seed, PrintStream out) throws Exception {
    long budget = mib << 20;
    long records = Profile.DATA_TO_BUDGET * budget / recordBytes;
    Workload workload = Workload.parse(workloadName, params(records, recordBytes, seed));
    SystemConfig config = new SystemConfig(dir.resolve("fast"), dir.resolve("slow"), budget,
        directIo);
    Runner runner = new Runner(out, threads);
    long heapBefore = heapAfterCollection();
    Row row;
    try (HotRapSystem system = (HotRapSystem) Systems.open("hotrap", config)) {
      double loadSeconds = runner.load(system, workload);
      // The oracle is not needed here; the replay's capacity is the run command's.
      long capacity = (long) (0.7 * budget / recordBytes);
      RunResult result = runner.run(system, workload, Duration.ofSeconds(seconds),
          new Runner.RunInfo(recordBytes, "scale", "unthrottled", Double.NaN, capacity,
              loadSeconds, null));
      HotRapStats s = system.stats();
      long heapDelta = heapAfterCollection() - heapBefore;
      long fastFiles = sstFiles(config.fastDir());
      row = new Row(mib, records, records * recordBytes, s, fastFiles, loadSeconds,
          result.runSeconds(), result.throughput(), result.fastHitRate(), heapDelta,
          system.options().promotionCacheBytes());
    }
    Directories.deleteRecursively(dir);
    out.println(row.line());
    return row;
  }

  /** SST files of the fast tier's column families under {@code fastDir} (RALT's files are not SSTs). */
  private static long sstFiles(Path fastDir) throws IOException {
    try (Stream<Path> files = Files.walk(fastDir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".sst")).count();
    }
  }

  /** Heap in use after full collections. */
  static long heapAfterCollection() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static void printTable(List<Row> rows, PrintStream out) {
    out.printf("%n%8s %10s %7s %10s %9s %9s %9s %11s %9s %11s %11s%n", "budget", "data MiB",
        "fast", "RALT B", "B/hotkey", "pick us", "us/file", "pick B/file", "cache MiB",
        "RALT ppm", "pick ppm");
    for (Row r : rows) {
      out.printf(Locale.ROOT, "%6dMi %10.0f %7d %10d %9.1f %9.0f %9.1f %11.0f %9.2f %11.1f %11.2f%n",
          r.mib, r.dataBytes / (double) (1 << 20), r.fastFiles, r.raltMemory, r.raltPerHotKey(),
          r.pickMicros(), r.pickMicrosPerFastFile(), r.pickBytesPerFastFile(),
          r.cachePeak / (double) (1 << 20), PPM * r.raltMemory / r.dataBytes,
          PPM * r.pickPeak / r.dataBytes);
    }
  }

  /** One budget's figures. */
  private static final class Row {
    final long mib;
    final long records;
    final long dataBytes;
    final long fastSst;
    final long slowSst;
    final long fastFiles;
    final double loadSeconds;
    final double runSeconds;
    final double throughput;
    final double hitRate;
    final long raltMemory;
    final long hotRecords;
    final long heapDelta;
    final long picks;
    final long pickFastFiles;
    final long pickSlowFiles;
    final long pickNanos;
    final long pickPeak;
    final long cacheTarget;
    final long cachePeak;
    final long cacheEnd;
    final long admission;

    Row(long mib, long records, long dataBytes, HotRapStats s, long fastFiles, double loadSeconds,
        double runSeconds, double throughput, double hitRate, long heapDelta, long cacheTarget) {
      this.mib = mib;
      this.records = records;
      this.dataBytes = dataBytes;
      this.fastSst = s.fastSstBytes();
      this.slowSst = s.slowSstBytes();
      this.fastFiles = fastFiles;
      this.loadSeconds = loadSeconds;
      this.runSeconds = runSeconds;
      this.throughput = throughput;
      this.hitRate = hitRate;
      RaltStats ralt = s.raltStats();
      this.raltMemory = ralt == null ? 0 : ralt.memoryBytes();
      this.hotRecords = ralt == null ? 0 : ralt.hotRecords();
      this.heapDelta = heapDelta;
      this.picks = s.migrationPicks();
      this.pickFastFiles = s.migrationPickFastFiles();
      this.pickSlowFiles = s.migrationPickSlowFiles();
      this.pickNanos = s.migrationPickNanos();
      this.pickPeak = s.migrationPickPeakBytes();
      this.cacheTarget = cacheTarget;
      this.cachePeak = s.promotionCachePeakBytes();
      this.cacheEnd = s.promotionCacheBytes();
      this.admission = s.admissionFilterBytes();
    }

    double raltPerHotKey() {
      return hotRecords == 0 ? Double.NaN : (double) raltMemory / hotRecords;
    }

    double fastFilesPerPick() {
      return picks == 0 ? Double.NaN : (double) pickFastFiles / picks;
    }

    double pickMicros() {
      return picks == 0 ? Double.NaN : pickNanos / 1e3 / picks;
    }

    double pickMicrosPerFastFile() {
      return pickFastFiles == 0 ? Double.NaN : pickNanos / 1e3 / pickFastFiles;
    }

    /** The largest ranking's heap over the fast files a mean ranking ranks. */
    double pickBytesPerFastFile() {
      return pickPeak / fastFilesPerPick();
    }

    String line() {
      return String.format(Locale.ROOT, "budget %d MiB: %,d records, fast %,d B in %d files, slow %,d B;"
          + " RALT %,d B for %,d hot records (%.1f B each); heap +%,d B; %d picks, %.1f fast and"
          + " %.1f slow files each, %.0f us each (%.1f us per fast file), peak %,d B; cache peak %,d B,"
          + " end %,d B (target %,d B), admission %,d B", mib, records, fastSst, fastFiles, slowSst,
          raltMemory, hotRecords, raltPerHotKey(), heapDelta, picks, fastFilesPerPick(),
          picks == 0 ? Double.NaN : (double) pickSlowFiles / picks, pickMicros(),
          pickMicrosPerFastFile(), pickPeak, cachePeak, cacheEnd, cacheTarget, admission);
    }

    String csv() {
      double data = dataBytes;
      return String.join(",", Long.toString(mib), Long.toString(records), Long.toString(dataBytes),
          Long.toString(fastSst), Long.toString(slowSst), Long.toString(fastFiles),
          f(loadSeconds, 1), f(runSeconds, 1), f(throughput, 0), f(hitRate, 4),
          Long.toString(raltMemory), Long.toString(hotRecords), f(raltPerHotKey(), 2),
          Long.toString(heapDelta), Long.toString(picks), f(fastFilesPerPick(), 1),
          f(picks == 0 ? Double.NaN : (double) pickSlowFiles / picks, 1), f(pickMicros(), 1),
          f(pickMicrosPerFastFile(), 2), Long.toString(pickPeak), f(pickBytesPerFastFile(), 1),
          Long.toString(cacheTarget), Long.toString(cachePeak), Long.toString(cacheEnd),
          Long.toString(admission), f(PPM * raltMemory / data, 2), f(PPM * heapDelta / data, 1),
          f(pickMicros() / (data / GIB), 1), f(PPM * pickPeak / data, 3),
          f(PPM * cachePeak / data, 1));
    }

    private static String f(double v, int decimals) {
      return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
  }
}
