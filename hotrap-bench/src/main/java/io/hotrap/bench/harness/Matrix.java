package io.hotrap.bench.harness;

import io.hotrap.bench.disk.SlowDisk;
import io.hotrap.bench.report.MarkdownReport;
import io.hotrap.bench.report.Plots;
import io.hotrap.bench.report.RunCsv;
import io.hotrap.bench.report.RunResult;
import io.hotrap.bench.report.Sample;
import io.hotrap.bench.report.SlowDiskReads;
import io.hotrap.bench.report.Summary;
import io.hotrap.bench.workload.Workload;
import io.hotrap.bench.workload.WorkloadParams;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * Runs a {@link Profile}'s matrix and writes what it measured (DESIGN.md §12).
 *
 * <p>Loading is the slow part of a run and the same for every workload, so each system family
 * (RocksDB on the fast disk, tiered RocksDB, HotRAP with any ablation) loads once per record size
 * into a template, closed and copied aside on the fast disk; each run starts from a fresh copy at
 * the same paths. Before each run the data directories are emptied, so runs never see each other.
 *
 * <p>Output under {@code outDir}: {@code runs/<system>__<workload>__<bytes>.csv} per run,
 * {@code summary.csv} (updated after every run, so an interrupted matrix keeps what it finished),
 * {@code README.md} and the PNG plots, rebuilt at the end from every run CSV in the directory.
 */
public final class Matrix {
  /** Hot-set size limit ceiling R_hs over the fast budget (DESIGN.md §10): the oracle's capacity. */
  private static final double MAX_HOT_SET_SHARE = 0.7;
  /** Operations of each of the dynamic workload's seven phases, per profile budget MiB. */
  private static final long DYNAMIC_OPS_PER_PHASE_PER_MIB = 8_000;
  /** Far more operations than a timed run phase gets through. */
  private static final long UNBOUNDED_OPS = 1L << 40;
  /** The smallest fast budget: HotRAP's options need room for a few files of the smallest size. */
  static final long MIN_BUDGET_BYTES = 1L << 20;

  private final Path workDir;
  private final Path slowDir;
  private final Path outDir;
  private final PrintStream out;
  private final long seed;
  private final boolean directIo;
  private final long blockCacheBytes;
  /** Operations per phase of the dynamic workload; 0 for {@link #DYNAMIC_OPS_PER_PHASE_PER_MIB}. */
  private long dynamicPhaseOps;
  private final Map<String, Double> loadSeconds = new HashMap<>();
  private String slowDisk;
  /** The slow disk's cumulative reads by this process; null where they cannot be counted. */
  private LongSupplier slowDiskReads;

  public Matrix(Path workDir, Path slowDir, Path outDir, PrintStream out, long seed,
      boolean directIo) {
    this(workDir, slowDir, outDir, out, seed, directIo, 0);
  }

  /**
   * A matrix whose systems all get a block cache of {@code blockCacheBytes}; 0 for the size HotRAP
   * derives from the budget.
   */
  public Matrix(Path workDir, Path slowDir, Path outDir, PrintStream out, long seed,
      boolean directIo, long blockCacheBytes) {
    this.workDir = workDir.toAbsolutePath();
    this.slowDir = slowDir.toAbsolutePath();
    this.outDir = outDir.toAbsolutePath();
    this.out = out;
    this.seed = seed;
    this.directIo = directIo;
    this.blockCacheBytes = blockCacheBytes;
  }

  /**
   * Sets the operations of each phase of the dynamic workload; 0 restores the default of
   * {@value #DYNAMIC_OPS_PER_PHASE_PER_MIB} per MiB of the fast budget. Longer phases show where
   * the hit rate and RALT's hot-set limit settle after each change, beyond the first seconds.
   *
   * @throws IllegalArgumentException if {@code ops} is negative
   */
  public Matrix dynamicPhaseOps(long ops) {
    if (ops < 0) {
      throw new IllegalArgumentException("dynamic phase operations must be >= 0 but were " + ops);
    }
    this.dynamicPhaseOps = ops;
    return this;
  }

  /**
   * Checks, without touching the disk, that every run of {@code profile} can start: positive
   * sizes and durations, known systems, records longer than their key, and workloads that parse
   * at the profile's sizes (a trace file is read).
   *
   * @throws IllegalArgumentException naming the first setting that cannot run
   */
  public void check(Profile profile) {
    if (profile.fastBudgetBytes() < MIN_BUDGET_BYTES) {
      throw new IllegalArgumentException("the fast budget must be at least "
          + (MIN_BUDGET_BYTES >> 20) + " MiB but was " + profile.fastBudgetBytes() + " bytes");
    }
    if (profile.threads() <= 0) {
      throw new IllegalArgumentException("--threads must be positive but was " + profile.threads());
    }
    for (Duration d : List.of(profile.runDuration(), profile.dynamicRunDuration())) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("--duration must be positive but was "
            + d.toMillis() + " ms");
      }
    }
    try {
      config(profile).shared(); // the store's own checks of the sizes it derives from the budget
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    for (Profile.Run r : profile.runs()) {
      Systems.requireKnown(r.system());
      if (r.recordBytes() <= Profile.KEY_BYTES) {
        throw new IllegalArgumentException("--record-bytes must exceed the " + Profile.KEY_BYTES
            + "-byte key but was " + r.recordBytes());
      }
      try {
        Workload.parse(r.workload(), params(profile, r));
      } catch (UncheckedIOException e) {
        throw new IllegalArgumentException(e.getMessage() + ": " + e.getCause().getMessage(), e);
      }
    }
  }

  /**
   * Runs every entry of {@code profile}; returns the results of this invocation. Call
   * {@link #check} first to reject a profile that cannot run before anything is written.
   */
  public List<RunResult> run(Profile profile, String commandLine) throws Exception {
    check(profile);
    prepareSlowDisk();
    Files.createDirectories(outDir.resolve("runs"));
    SystemConfig config = config(profile);
    List<RunResult> results = new ArrayList<>();
    int i = 0;
    for (Profile.Run r : profile.runs()) {
      i++;
      out.printf("%n[%d/%d] %s on %s, %d B records%n", i, profile.runs().size(), r.system(),
          r.workload(), r.recordBytes());
      RunResult result = runOne(profile, config, r);
      results.add(result);
      RunCsv.write(result, outDir.resolve("runs").resolve(fileName(result)));
      Summary.upsert(outDir.resolve("summary.csv"), List.of(result));
      out.printf(Locale.ROOT, "  throughput %.0f ops/s, fast hit rate %.4f (oracle %.4f, belady"
          + " %.4f, lru %.4f), block cache hit rate %.4f, get p99 %.0f us (final 10%% of %.0f s);"
          + " slow disk reads %s, %.4f per slow-tier get (whole run)%n",
          result.throughput(), result.fastHitRate(), result.oracleHitRate(),
          result.beladyHitRate(), result.lruHitRate(), result.blockCacheHitRate(),
          result.p99GetMicros(), result.runSeconds(), slowReads(result.slowDiskReads()),
          result.slowDiskReads().perSlowGet());
    }
    report(profile, commandLine);
    return results;
  }

  private SystemConfig config(Profile profile) {
    return new SystemConfig(workDir.resolve("fast"), slowDir.resolve("data"),
        profile.fastBudgetBytes(), directIo, blockCacheBytes);
  }

  private void prepareSlowDisk() throws IOException {
    Files.createDirectories(slowDir);
    SlowDisk disk = SlowDisk.find(slowDir).orElse(null);
    if (disk == null) {
      slowDisk = SlowDisk.describeUnthrottled();
    } else if (disk.processInCgroup() || disk.joinCgroup()) {
      slowDisk = disk.describe();
      // The kernel's throttle layer, which keeps blkio.throttle.io_serviced, sees a device's
      // I/O only once a limit is set on it: without one the count would stay at 0.
      slowDiskReads = disk.limits().any() ? disk::cgroupReadsServiced : null;
    } else {
      slowDisk = SlowDisk.describeUnthrottled() + "; the throttled cgroup could not be joined: "
          + disk.joinFailure().orElse("unknown reason");
    }
    out.println("slow disk: " + slowDisk);
  }

  private WorkloadParams params(Profile profile, Profile.Run r) {
    int valueBytes = r.recordBytes() - Profile.KEY_BYTES;
    long records = profile.records(r.recordBytes());
    boolean dynamic = r.workload().endsWith("-dynamic");
    long perPhase = dynamicPhaseOps > 0 ? dynamicPhaseOps
        : DYNAMIC_OPS_PER_PHASE_PER_MIB * (profile.fastBudgetBytes() >> 20);
    long ops = dynamic ? 7 * perPhase : UNBOUNDED_OPS;
    return new WorkloadParams(records, valueBytes, ops, seed, WorkloadParams.DEFAULT_ZIPF_S);
  }

  private RunResult runOne(Profile profile, SystemConfig config, Profile.Run r) throws Exception {
    Workload workload = Workload.parse(r.workload(), params(profile, r));
    String family = Systems.loadFamily(r.system());
    Path template = workDir.resolve("templates").resolve(family + "-" + r.recordBytes());
    Runner runner = new Runner(out, profile.threads());
    if (!Files.isDirectory(template)) {
      clear(config);
      try (BenchSystem s = Systems.open(family, config)) {
        double seconds = runner.load(s, workload);
        loadSeconds.put(template.toString(), seconds);
        Summary.upsert(outDir.resolve("summary.csv"),
            List.of(loadResult(family, profile, r, workload, seconds, s.counters())));
      }
      copyTree(config.fastDir().resolve(family), template.resolve("fast"));
      copyTree(config.slowDir().resolve(family), template.resolve("slow"));
    }
    clear(config);
    copyTree(template.resolve("fast"), config.fastDir().resolve(family));
    copyTree(template.resolve("slow"), config.slowDir().resolve(family));
    long capacity = (long) (MAX_HOT_SET_SHARE * profile.fastBudgetBytes() / r.recordBytes());
    Runner.RunInfo info = new Runner.RunInfo(r.recordBytes(), profile.name(), slowDisk,
        workload.oracleHitRate(capacity), capacity,
        loadSeconds.getOrDefault(template.toString(), Double.NaN), slowDiskReads,
        Runner.Devices.of(config.fastDir(), config.slowDir()));
    Duration duration = profile.duration(r.workload());
    try (BenchSystem s = Systems.open(r.system(), config)) {
      return runner.run(s, workload, duration, info);
    } finally {
      clear(config);
    }
  }

  /**
   * The {@code load} row of a system family in {@code summary.csv}: load throughput (records over
   * the seconds of the load, settling included) and the bytes each tier's flushes and compactions
   * wrote during it.
   */
  private RunResult loadResult(String family, Profile profile, Profile.Run r, Workload workload,
      double seconds, BenchSystem.Counters c) {
    double opsPerSecond = workload.loadRecords() / seconds;
    Sample end = new Sample(seconds, "load", workload.loadRecords(), opsPerSecond, Double.NaN,
        Double.NaN, Double.NaN, c.promotedByFlushBytes(), c.promotedByCompactionBytes(),
        c.retainedBytes(), c.demotedBytes(), c.fastCompactionBytes(), c.slowCompactionBytes(),
        c.raltBytes(), Double.NaN, 0, c.hotSetLimitBytes(), -1);
    return new RunResult(family, "load", r.recordBytes(), profile.name(), slowDisk, List.of(end),
        opsPerSecond, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0,
        seconds, 0, Double.NaN, SlowDiskReads.UNMEASURED)
        .stamped(BenchVersion.commit(), BenchVersion.now());
  }

  /** Rebuilds the summary, Markdown report and plots from every run CSV under the output. */
  public void report(Profile profile, String commandLine) throws IOException {
    List<RunResult> all = new ArrayList<>();
    try (Stream<Path> files = Files.list(outDir.resolve("runs"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".csv")).sorted().toList()) {
        all.add(RunCsv.read(f));
      }
    }
    if (all.isEmpty()) {
      return;
    }
    if (slowDisk == null) {
      slowDisk = all.get(0).slowDisk(); // a report rebuilt later: the runs say what the disk was
    }
    // Each run's row from its CSV, with the commit and time it was made; rows without a run CSV
    // (the load rows) stay as they are.
    Summary.upsert(outDir.resolve("summary.csv"), all);
    Map<String, List<RunResult>> byWorkload = new LinkedHashMap<>();
    for (RunResult r : all) {
      byWorkload.computeIfAbsent(r.workload() + "/" + r.recordBytes(), k -> new ArrayList<>()).add(r);
    }
    for (List<RunResult> same : byWorkload.values()) {
      Plots.timeSeries(same, outDir);
    }
    Plots.finalThroughput(all, outDir);
    for (RunResult r : all) {
      if (Plots.showsHotSetLimit(r)) {
        Plots.hotSetLimit(r, outDir);
      }
    }
    MarkdownReport.write(outDir.resolve("README.md"), all,
        "HotRAP-J benchmark results (" + profile.name() + ")", commandLine, machineNotes(profile));
  }

  private String machineNotes(Profile profile) {
    Runtime rt = Runtime.getRuntime();
    return String.format(Locale.ROOT, "%d cores, %d MiB max heap, Java %s; slow disk: %s; fast"
        + " budget %d MiB, data %d× the budget, %d client threads, run phase %d s (dynamic %d s),"
        + " direct I/O %s, block cache %d MiB, seed %d.", rt.availableProcessors(),
        rt.maxMemory() >> 20, Runtime.version(), slowDisk, profile.fastBudgetBytes() >> 20,
        Profile.DATA_TO_BUDGET, profile.threads(), profile.runDuration().toSeconds(),
        profile.dynamicRunDuration().toSeconds(), directIo ? "on" : "off",
        config(profile).shared().blockCacheBytes() >> 20, seed);
  }

  /** The slow disk's reads of a run for the console: the count, or NaN where not counted. */
  static String slowReads(SlowDiskReads r) {
    return r.measured() ? String.format(Locale.ROOT, "%,d", r.reads()) : "NaN";
  }

  static String fileName(RunResult r) {
    return r.system() + "__" + r.workload().replaceAll("[^A-Za-z0-9.-]", "_") + "__"
        + r.recordBytes() + ".csv";
  }

  private static void clear(SystemConfig config) throws IOException {
    deleteTree(config.fastDir());
    deleteTree(config.slowDir());
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  static void copyTree(Path from, Path to) throws IOException {
    deleteTree(to);
    try (Stream<Path> s = Files.walk(from)) {
      s.forEach(p -> {
        try {
          Path target = to.resolve(from.relativize(p).toString());
          if (Files.isDirectory(p)) {
            Files.createDirectories(target);
          } else {
            Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
