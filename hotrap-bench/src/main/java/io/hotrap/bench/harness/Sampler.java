package io.hotrap.bench.harness;

import io.hotrap.bench.disk.BlockDeviceStat;
import io.hotrap.bench.report.LatencyRecorder;
import io.hotrap.bench.report.Sample;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Takes one {@link Sample} per second of a run phase on a thread of its own: operations and gets
 * from the clients' counters and the system's, latency percentiles from the recorder, the data
 * blocks the clients' gets found in or missed from the block cache ({@link BlockCacheProbe}),
 * resident memory from {@code /proc/self/status}, the reads and read service time of the block
 * devices under the two tiers ({@link BlockDeviceStat}: the whole device's, every process's), and
 * RALT's share of the process's CPU time from the CPU time of its thread (named {@code ralt-*}).
 * Samples are read after {@link #stop()}.
 */
final class Sampler {
  private static final String RALT_THREAD_PREFIX = "ralt-";

  private final BenchSystem system;
  private final LongAdder operations;
  private final LatencyRecorder latency;
  private final PhaseMark phase;
  private final BlockCacheProbe.Totals blockCache;
  private final Runner.Devices devices;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "bench-sampler");
    t.setDaemon(true);
    return t;
  });
  private final List<Sample> samples = new ArrayList<>();
  final List<Long> getsPerSecond = new ArrayList<>();
  final List<Long> fastGetsPerSecond = new ArrayList<>();
  final List<Long> blockHitsPerSecond = new ArrayList<>();
  final List<Long> blockMissesPerSecond = new ArrayList<>();
  long peakRss;

  private long start;
  private long lastNanos;
  private long lastOps;
  private BenchSystem.Counters first;
  private BenchSystem.Counters last;
  private long lastRaltCpu;
  private long lastProcessCpu;
  private long firstIoBytes;
  private long lastBlockHits;
  private long lastBlockMisses;
  private BlockDeviceStat.Reading lastFastDevice;
  private BlockDeviceStat.Reading lastSlowDevice;

  Sampler(BenchSystem system, LongAdder operations, LatencyRecorder latency,
      PhaseMark phase, BlockCacheProbe.Totals blockCache, Runner.Devices devices) {
    this.system = system;
    this.operations = operations;
    this.latency = latency;
    this.phase = phase;
    this.blockCache = blockCache;
    this.devices = devices;
  }

  void start(long startNanos) {
    start = startNanos;
    lastNanos = startNanos;
    first = system.counters();
    last = first;
    lastRaltCpu = raltCpuNanos();
    lastProcessCpu = processCpuNanos();
    firstIoBytes = ioBytes();
    lastBlockHits = blockCache.hits();
    lastBlockMisses = blockCache.misses();
    lastFastDevice = read(devices.fast());
    lastSlowDevice = read(devices.slow());
    latency.interval(); // drop anything recorded before the run began
    timer.scheduleAtFixedRate(this::sampleQuietly, 1, 1, TimeUnit.SECONDS);
  }

  /** Stops sampling and waits for a sample in progress; the samples are then complete. */
  void stop() throws InterruptedException {
    timer.shutdown();
    timer.awaitTermination(30, TimeUnit.SECONDS);
  }

  List<Sample> samples() {
    return List.copyOf(samples);
  }

  private void sampleQuietly() {
    try {
      sample();
    } catch (RuntimeException e) {
      // A failed reading loses one second of samples, never the run.
      System.err.println("sampling failed: " + e);
    }
  }

  private void sample() {
    long now = System.nanoTime();
    long ops = operations.sum();
    BenchSystem.Counters c = system.counters();
    LatencyRecorder.Interval lat = latency.interval();
    long raltCpu = raltCpuNanos();
    long processCpu = processCpuNanos();
    double seconds = (now - lastNanos) / 1e9;
    long gets = c.gets() - last.gets();
    long fastGets = c.fastGets() - last.fastGets();
    long rss = rssBytes();
    long io = ioBytes();
    BlockDeviceStat.Reading fastDevice = read(devices.fast());
    BlockDeviceStat.Reading slowDevice = read(devices.slow());
    peakRss = Math.max(peakRss, rss);
    double cpu = processCpu - lastProcessCpu;
    samples.add(new Sample((now - start) / 1e9, phase.current(), ops - lastOps,
        (ops - lastOps) / seconds,
        gets == 0 ? Double.NaN : (double) fastGets / gets,
        lat.p50Micros(), lat.p99Micros(),
        c.promotedByFlushBytes() - first.promotedByFlushBytes(),
        c.promotedByCompactionBytes() - first.promotedByCompactionBytes(),
        c.retainedBytes() - first.retainedBytes(),
        c.demotedBytes() - first.demotedBytes(),
        c.fastCompactionBytes() - first.fastCompactionBytes(),
        c.slowCompactionBytes() - first.slowCompactionBytes(),
        c.raltBytes() - first.raltBytes(),
        cpu <= 0 ? 0 : (raltCpu - lastRaltCpu) / cpu,
        rss, c.hotSetLimitBytes(), io < 0 || firstIoBytes < 0 ? -1 : io - firstIoBytes,
        BlockDeviceStat.reads(lastFastDevice, fastDevice),
        BlockDeviceStat.meanReadMillis(lastFastDevice, fastDevice),
        BlockDeviceStat.reads(lastSlowDevice, slowDevice),
        BlockDeviceStat.meanReadMillis(lastSlowDevice, slowDevice)));
    getsPerSecond.add(gets);
    fastGetsPerSecond.add(fastGets);
    long blockHits = blockCache.hits();
    long blockMisses = blockCache.misses();
    blockHitsPerSecond.add(blockHits - lastBlockHits);
    blockMissesPerSecond.add(blockMisses - lastBlockMisses);
    lastBlockHits = blockHits;
    lastBlockMisses = blockMisses;
    lastFastDevice = fastDevice;
    lastSlowDevice = slowDevice;
    last = c;
    lastNanos = now;
    lastOps = ops;
    lastRaltCpu = raltCpu;
    lastProcessCpu = processCpu;
  }

  private static BlockDeviceStat.Reading read(BlockDeviceStat device) {
    return device == null ? null : device.read();
  }

  private static long raltCpuNanos() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long total = 0;
    for (ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (info != null && info.getThreadName() != null
          && info.getThreadName().startsWith(RALT_THREAD_PREFIX)) {
        long t = mx.getThreadCpuTime(info.getThreadId());
        if (t > 0) {
          total += t;
        }
      }
    }
    return total;
  }

  private static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    return -1;
  }

  /**
   * Bytes this process has read from and written to storage devices ({@code read_bytes} plus
   * {@code write_bytes} of {@code /proc/self/io}), or -1 where that file is missing or unreadable.
   */
  static long ioBytes() {
    try {
      long total = 0;
      int found = 0;
      for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
        if (line.startsWith("read_bytes:") || line.startsWith("write_bytes:")) {
          total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
          found++;
        }
      }
      return found == 2 ? total : -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Resident set size from {@code /proc/self/status}, 0 where there is none. */
  static long rssBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          String[] parts = line.substring(6).trim().split("\\s+");
          return Long.parseLong(parts[0]) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return 0;
  }
}
