package io.hotrap.bench.harness;

import io.hotrap.bench.disk.BlockDeviceStat;
import io.hotrap.bench.report.ConsoleProgress;
import io.hotrap.bench.report.FlashResult;
import io.hotrap.bench.report.LatencyRecorder;
import io.hotrap.bench.report.ReplayHitRates;
import io.hotrap.bench.report.RunResult;
import io.hotrap.bench.report.Sample;
import io.hotrap.bench.report.SlowDiskReads;
import io.hotrap.bench.report.Summary;
import io.hotrap.bench.workload.Operation;
import io.hotrap.bench.workload.OperationGenerator;
import io.hotrap.bench.workload.Workload;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Runs the load or the run phase of one workload against one system with many client threads,
 * and samples the system every second (DESIGN.md §12).
 *
 * <p>Client threads share nothing but three counters, the latency recorder and, in the run phase,
 * the {@link AccessLog}; the sampler reads the counters once a second, and the log is replayed
 * after the run ({@link ReplayHitRates}). The slow disk's reads and the system's slow-tier gets
 * are read once when the clients start and once when they stop ({@link SlowDiskReads}). A client
 * failure stops the phase and is rethrown, so a broken system never reports a number.
 */
public final class Runner {
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  /** The share of the run phase over which the summary throughput and hit rate are taken. */
  static final double FINAL_SHARE = Summary.FINAL_SHARE;

  private final PrintStream out;
  private final int threads;

  public Runner(PrintStream out, int threads) {
    if (threads <= 0) {
      throw new IllegalArgumentException("threads must be positive but was " + threads);
    }
    this.out = out;
    this.threads = threads;
  }

  /** Writes the workload's load phase into {@code system} and lets it settle; returns seconds. */
  public double load(BenchSystem system, Workload workload) throws InterruptedException {
    long start = System.nanoTime();
    LongAdder done = new LongAdder();
    ConsoleProgress progress = new ConsoleProgress(out,
        "load " + system.name() + " " + workload.name(), workload.loadRecords());
    List<OperationGenerator> gens = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      gens.add(workload.loader(t, threads));
    }
    runClients(gens, system, Long.MAX_VALUE, done, null, null, new PhaseMark(List.of("load")), null,
        () -> progress.update(done.sum()));
    progress.finish();
    out.println("settling " + system.name() + " after the load");
    system.settle();
    return (System.nanoTime() - start) / 1e9;
  }

  /**
   * Runs the workload's run phase for at most {@code duration} (or until the workload ends) and
   * returns the run's result.
   */
  public RunResult run(BenchSystem system, Workload workload, Duration duration, RunInfo info)
      throws InterruptedException {
    List<OperationGenerator> gens = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      gens.add(workload.runner(t, threads)); // built before the clock starts (scrambling tables)
    }
    LongAdder done = new LongAdder();
    LatencyRecorder latency = new LatencyRecorder();
    PhaseMark phase = new PhaseMark(workload.phases());
    BlockCacheProbe.Totals blockCache = new BlockCacheProbe.Totals();
    Sampler sampler = new Sampler(system, done, latency, phase, blockCache, info.devices());
    BenchSystem.FlashCounters flashBefore = system.flash();
    AccessLog accesses = new AccessLog(AccessLog.DEFAULT_MAX_OPERATIONS);
    long deadline = System.nanoTime() + duration.toNanos();
    ConsoleProgress progress = new ConsoleProgress(out,
        "run " + system.name() + " " + workload.name() + " (seconds)", duration.toSeconds(), "s");
    long slowGetsBefore = system.counters().slowGets();
    long slowReadsBefore = slowDiskReads(info);
    long start = System.nanoTime();
    sampler.start(start);
    SlowDiskReads slowReads;
    try {
      runClients(gens, system, deadline, done, latency, blockCache, phase, accesses,
          () -> progress.update((System.nanoTime() - start) / NANOS_PER_SECOND));
      // Read as soon as the clients stop, before background work that outlives the run adds to it.
      long slowReadsAfter = slowDiskReads(info);
      slowReads = SlowDiskReads.between(slowReadsBefore, slowReadsAfter, slowGetsBefore,
          system.counters().slowGets());
    } finally {
      sampler.stop();
      progress.finish();
    }
    double runSeconds = (System.nanoTime() - start) / 1e9;
    report(slowReads, info);
    FlashResult flash = flashResult(flashBefore, system.flash());
    List<Sample> samples = sampler.samples();
    int finalCount = Summary.finalWindow(samples.size());
    double throughput = 0;
    long fastGets = 0;
    long gets = 0;
    long blockHits = 0;
    long blockMisses = 0;
    for (int i = Math.max(0, samples.size() - finalCount); i < samples.size(); i++) {
      throughput += samples.get(i).throughput();
      fastGets += sampler.fastGetsPerSecond.get(i);
      gets += sampler.getsPerSecond.get(i);
      blockHits += sampler.blockHitsPerSecond.get(i);
      blockMisses += sampler.blockMissesPerSecond.get(i);
    }
    throughput /= Math.min(finalCount, Math.max(1, samples.size()));
    double hitRate = gets == 0 ? Double.NaN : (double) fastGets / gets;
    ReplayHitRates replay = replay(accesses, info.oracleCapacityRecords());
    return new RunResult(system.name(), workload.name(), info.recordBytes(), info.profile(),
        info.slowDisk(), samples, throughput, hitRate, latency.totalPercentileMicros(50),
        latency.totalPercentileMicros(99), info.oracleHitRate(), replay.belady(), replay.lru(),
        sampler.peakRss, info.loadSeconds(), runSeconds,
        BlockCacheProbe.hitRate(blockHits, blockMisses), slowReads, flash)
        .stamped(BenchVersion.commit(), BenchVersion.now());
  }

  /** The slow disk's cumulative reads now, or {@link SlowDiskReads#UNKNOWN} where not counted. */
  private long slowDiskReads(RunInfo info) {
    if (info.slowDiskReads() == null) {
      return SlowDiskReads.UNKNOWN;
    }
    try {
      return info.slowDiskReads().getAsLong();
    } catch (UncheckedIOException | NumberFormatException e) {
      // The cgroup went away or its file changed shape: the run stands, without this figure.
      out.println("cannot count the slow disk's reads: " + e.getMessage());
      return SlowDiskReads.UNKNOWN;
    }
  }

  /** Says what the slow disk's reads came to, or why they were not counted. */
  private void report(SlowDiskReads r, RunInfo info) {
    if (!r.measured()) {
      out.println("slow disk reads not counted: " + (info.slowDiskReads() == null
          ? "slow disk " + info.slowDisk() : "the counter could not be read or went backwards"));
    } else {
      out.printf(Locale.ROOT, "slow disk reads %,d for %,d slow-tier gets: %.4f per slow get%n",
          r.reads(), r.slowGets(), r.perSlowGet());
    }
  }

  /** Replays the run's operations and says how it went, or why it could not. */
  private ReplayHitRates replay(AccessLog accesses, long capacityRecords) {
    long start = System.nanoTime();
    long operations = accesses.operations();
    ReplayHitRates r = accesses.replay(capacityRecords, FINAL_SHARE);
    if (r.unavailableReason() != null) {
      out.println("belady and lru hit rates not computed: " + r.unavailableReason());
    } else {
      out.printf(Locale.ROOT, "replayed %,d operations with room for %,d records in %.1f s:"
          + " belady %.4f, lru %.4f%n", operations, capacityRecords,
          (System.nanoTime() - start) / 1e9, r.belady(), r.lru());
    }
    return r;
  }

  /** The flash cache's figures over the run phase, from its counters before and after; null without one. */
  static FlashResult flashResult(BenchSystem.FlashCounters a, BenchSystem.FlashCounters b) {
    if (a == null || b == null) {
      return null;
    }
    long lookups = b.lookups() - a.lookups();
    long gets = b.gets() - a.gets();
    long offered = b.offered() - a.offered();
    long dead = b.offeredFromDeleted() - a.offeredFromDeleted();
    long dropped = b.dropped() - a.dropped();
    boolean known = b.offered() >= 0;
    long written = offered - dropped;
    return new FlashResult(
        lookups <= 0 ? Double.NaN : (double) (b.hits() - a.hits()) / lookups,
        gets <= 0 ? Double.NaN : (double) (b.getsWithoutSlowRead() - a.getsWithoutSlowRead()) / gets,
        b.bytesWritten() < 0 ? -1 : b.bytesWritten() - a.bytesWritten(),
        !known || written <= 0 ? Double.NaN : (double) Math.max(0, dead - dropped) / written,
        !known || offered <= 0 ? Double.NaN : (double) dead / offered,
        b.bypassed() - a.bypassed());
  }

  /**
   * What a run's result records besides what the runner measures.
   *
   * @param oracleCapacityRecords the records the hot-set limit holds: the capacity of the oracle
   *     and of the replays
   * @param slowDiskReads the slow disk's cumulative read I/Os by this process, read at the start
   *     and at the end of the run phase ({@link SlowDiskReads}); null where they cannot be
   *     counted, which {@code slowDisk} then explains
   * @param devices the block devices under the fast and the slow tier, sampled each second
   */
  public record RunInfo(int recordBytes, String profile, String slowDisk, double oracleHitRate,
      long oracleCapacityRecords, double loadSeconds, LongSupplier slowDiskReads,
      Devices devices) {

    /** A run whose devices are not sampled. */
    public RunInfo(int recordBytes, String profile, String slowDisk, double oracleHitRate,
        long oracleCapacityRecords, double loadSeconds, LongSupplier slowDiskReads) {
      this(recordBytes, profile, slowDisk, oracleHitRate, oracleCapacityRecords, loadSeconds,
          slowDiskReads, Devices.NONE);
    }

    public RunInfo {
      Objects.requireNonNull(devices, "devices");
    }
  }

  /**
   * The block devices under the two tiers whose read counters each sample records; either may be
   * null (not a block device, or not sampled), and both may be the same device.
   */
  public record Devices(BlockDeviceStat fast, BlockDeviceStat slow) {
    /** Nothing sampled. */
    public static final Devices NONE = new Devices(null, null);

    /** The devices that hold the two directories, where they are block devices. */
    public static Devices of(Path fastDir, Path slowDir) {
      return new Devices(BlockDeviceStat.forDirectory(fastDir).orElse(null),
          BlockDeviceStat.forDirectory(slowDir).orElse(null));
    }
  }

  /**
   * Runs one client thread per generator until they end or the deadline passes; with
   * {@code blockCache}, each client counts its gets' block cache lookups into it, and with
   * {@code accesses}, logs each operation there as it issues it.
   */
  private void runClients(List<OperationGenerator> gens, BenchSystem system, long deadline,
      LongAdder done, LatencyRecorder latency, BlockCacheProbe.Totals blockCache,
      PhaseMark phase, AccessLog accesses, Runnable progress)
      throws InterruptedException {
    CountDownLatch finished = new CountDownLatch(gens.size());
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> clients = new ArrayList<>();
    for (int t = 0; t < gens.size(); t++) {
      OperationGenerator gen = gens.get(t);
      Thread c = new Thread(() -> {
        try {
          if (blockCache == null) {
            client(gen, system, deadline, done, latency, phase, failure, null, accesses);
          } else {
            try (BlockCacheProbe probe = new BlockCacheProbe(blockCache)) {
              client(gen, system, deadline, done, latency, phase, failure, probe, accesses);
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        } finally {
          finished.countDown();
        }
      }, "bench-client-" + t);
      c.setDaemon(true);
      clients.add(c);
      c.start();
    }
    while (!finished.await(250, java.util.concurrent.TimeUnit.MILLISECONDS)) {
      progress.run();
      if (failure.get() != null) {
        break;
      }
    }
    for (Thread c : clients) {
      c.join();
    }
    Throwable f = failure.get();
    if (f != null) {
      throw new IllegalStateException("a client of " + system.name() + " failed", f);
    }
  }

  private static void client(OperationGenerator gen, BenchSystem system, long deadline,
      LongAdder done, LatencyRecorder latency, PhaseMark phase,
      AtomicReference<Throwable> failure, BlockCacheProbe probe, AccessLog accesses) {
    Operation op = new Operation();
    Map<Integer, byte[]> values = new HashMap<>();
    SplittableRandom random = new SplittableRandom(Thread.currentThread().getId());
    int n = 0;
    String lastPhase = null;
    while (gen.next(op)) {
      if (accesses != null) {
        accesses.append(op.keyId, op.type != Operation.Type.READ);
      }
      if (op.type == Operation.Type.READ) {
        long t0 = System.nanoTime();
        system.get(op.key);
        if (latency != null) {
          latency.recordNanos(System.nanoTime() - t0);
        }
      } else {
        byte[] v = values.computeIfAbsent(op.valueBytes, byte[]::new);
        // Fresh random bytes for every write: values that repeat compress several times over
        // (LZ4 within a block), and the tiers would then hold far more records than the budget says.
        random.nextBytes(v);
        system.put(op.key, v);
      }
      done.increment();
      if (op.phase != null && !op.phase.equals(lastPhase)) {
        lastPhase = op.phase;
        phase.reached(op.phase);
      }
      if ((++n & 63) == 0) {
        if (probe != null) {
          probe.publish();
        }
        if (System.nanoTime() - deadline > 0 || failure.get() != null) {
          return;
        }
      }
    }
  }
}
