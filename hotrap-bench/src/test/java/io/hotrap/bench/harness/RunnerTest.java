package io.hotrap.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotrap.bench.report.RunResult;
import io.hotrap.bench.report.SlowDiskReads;
import io.hotrap.bench.workload.Keys;
import io.hotrap.bench.workload.Workload;
import io.hotrap.bench.workload.WorkloadParams;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerTest {
  @TempDir Path dir;

  private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

  private SystemConfig config() {
    return new SystemConfig(dir.resolve("fast"), dir.resolve("slow"), 4L << 20, false);
  }

  @Test
  void loadWritesEveryKeyOnceAndTheRunReadsThemBack() throws Exception {
    WorkloadParams params = new WorkloadParams(5_000, 100, 1L << 40, 3, 0.99);
    Workload w = Workload.parse("rw-uniform", params);
    try (BenchSystem s = Systems.open("rocksdb-fd", config())) {
      Runner runner = new Runner(QUIET, 3);
      runner.load(s, w);
      for (int i = 0; i < 5_000; i++) {
        assertNotNull(s.get(Keys.key(i)), "key " + i);
      }
      Runner.Devices devices = Runner.Devices.of(dir.resolve("fast"), dir.resolve("slow"));
      RunResult r = runner.run(s, w, Duration.ofMillis(2500),
          new Runner.RunInfo(124, "custom", "unthrottled", 0.5, 100, 1.0, null, devices));
      assertEquals(2, r.samples().size(), "one sample per whole second");
      // Each second reads the counters of the device under each tier where it is a block device
      // (both directories are on the same one here); where it is not, the columns say unknown.
      for (var sample : r.samples()) {
        assertEquals(devices.fast() == null, sample.fastDeviceReads() < 0, sample.toString());
        assertEquals(devices.slow() == null, sample.slowDeviceReads() < 0, sample.toString());
        assertTrue(sample.fastDeviceReads() <= 0 || sample.fastDeviceReadMillis() >= 0,
            sample.toString());
      }
      long ops = r.samples().stream().mapToLong(x -> x.operations()).sum();
      assertTrue(ops > 0);
      // RW: three reads to one insert; every read is served fast on the fast disk.
      assertEquals(1.0, r.fastHitRate(), 1e-9);
      assertTrue(r.p99GetMicros() >= r.p50GetMicros());
      assertTrue(r.peakRssBytes() > 0);
      // Not counted without a slow disk; every get was fast, so none read the slow tier.
      assertEquals(new SlowDiskReads(SlowDiskReads.UNKNOWN, 0), r.slowDiskReads());
      // The replays of the run's own operations with room for 100 of the 5,000 records.
      assertTrue(r.lruHitRate() >= 0 && r.lruHitRate() <= r.beladyHitRate()
          && r.beladyHitRate() > 0 && r.beladyHitRate() < 1,
          "belady " + r.beladyHitRate() + " lru " + r.lruHitRate());
    }
  }

  @Test
  void slowDiskReadsAreCountedOverTheRunPhaseAgainstItsSlowTierGets() throws Exception {
    WorkloadParams params = new WorkloadParams(1_000, 100, 1L << 40, 3, 0.99);
    Workload w = Workload.parse("ro-uniform", params);
    try (BenchSystem real = Systems.open("rocksdb-fd", config())) {
      Runner runner = new Runner(QUIET, 2);
      runner.load(real, w);
      // A stand-in slow disk: every third get reads the slow tier, at two disk reads each, and
      // the disk had served reads before the run, which must not count.
      AtomicLong gets = new AtomicLong();
      AtomicLong slowGets = new AtomicLong(1_000);
      AtomicLong diskReads = new AtomicLong(50_000);
      BenchSystem slowEveryThird = new BenchSystem() {
        @Override public String name() { return "slow-every-third"; }
        @Override public byte[] get(byte[] key) {
          if (gets.incrementAndGet() % 3 == 0) {
            diskReads.addAndGet(2);
            slowGets.incrementAndGet();
          }
          return real.get(key);
        }
        @Override public void put(byte[] key, byte[] value) { real.put(key, value); }
        @Override public void settle() { real.settle(); }
        @Override public Counters counters() {
          long total = 1_000 + gets.get(); // the 1,000 slow gets before the run among them
          return new Counters(total, total - slowGets.get(), 0, 0, 0, 0, 0, 0, 0, 0);
        }
        @Override public void close() {}
      };

      RunResult r = runner.run(slowEveryThird, w, Duration.ofMillis(1500),
          new Runner.RunInfo(124, "custom", "throttled loop7 (7:7) read 500 IOPS", 0.5, 100, 1.0,
              diskReads::get));

      long runSlowGets = gets.get() / 3;
      assertTrue(runSlowGets > 0);
      assertEquals(new SlowDiskReads(2 * runSlowGets, runSlowGets), r.slowDiskReads());
      assertEquals(2.0, r.slowDiskReads().perSlowGet(), 1e-12);
    }
  }

  @Test
  void aFailingClientStopsThePhaseAndTheFailureSurfaces() throws Exception {
    WorkloadParams params = new WorkloadParams(1_000, 100, 1L << 40, 3, 0.99);
    Workload w = Workload.parse("ro-uniform", params);
    try (BenchSystem real = Systems.open("rocksdb-fd", config())) {
      Runner runner = new Runner(QUIET, 2);
      runner.load(real, w);
      AtomicLong gets = new AtomicLong();
      BenchSystem failing = new BenchSystem() {
        @Override public String name() { return "failing"; }
        @Override public byte[] get(byte[] key) {
          if (gets.incrementAndGet() == 500) {
            throw new IllegalStateException("disk gone");
          }
          return real.get(key);
        }
        @Override public void put(byte[] key, byte[] value) { real.put(key, value); }
        @Override public void settle() { real.settle(); }
        @Override public Counters counters() { return real.counters(); }
        @Override public void close() {}
      };
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> runner.run(failing, w, Duration.ofSeconds(30),
              new Runner.RunInfo(124, "custom", "unthrottled", 0.5, 100, 1.0, null)));
      assertEquals("disk gone", e.getCause().getMessage());
    }
  }
}
