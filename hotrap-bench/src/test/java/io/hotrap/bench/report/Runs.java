package io.hotrap.bench.report;

import java.util.ArrayList;
import java.util.List;

/** Run results made up for the report tests. */
final class Runs {

  static final long MIB = 1L << 20;

  private Runs() {}

  /** A sample whose counters grow with time, so that the last sample's totals are known. */
  static Sample sample(double elapsedSeconds, String phase, double throughput, double hitRate) {
    long t = (long) elapsedSeconds;
    return new Sample(elapsedSeconds, phase, (long) throughput, throughput, hitRate, 10.5, 250.25,
        t * MIB, 2 * t * MIB, 3 * t * MIB, 4 * t * MIB, 5 * t * MIB, 6 * t * MIB, 7 * t * MIB,
        0.015, 1_000 * MIB + t, 64 * MIB + t * MIB / 2, 70 * t * MIB, 9_000 + t, 0.125,
        1_600 + t, 0.5);
  }

  /** {@code seconds} samples of one phase at a constant throughput and hit rate. */
  static List<Sample> steady(int seconds, double throughput, double hitRate) {
    List<Sample> samples = new ArrayList<>();
    for (int i = 1; i <= seconds; i++) {
      samples.add(sample(i, "run", throughput, hitRate));
    }
    return samples;
  }

  static RunResult run(String system, String workload, int recordBytes, double throughput,
      List<Sample> samples) {
    return new RunResult(system, workload, recordBytes, "quick", "unthrottled", samples,
        throughput, 0.875, 12.25, 480.5, 0.95, 0.96, 0.81, 2_000 * MIB, 30.5, 60.0, 0.75,
        new SlowDiskReads(123_456, 100_000));
  }

  static RunResult run(String system, String workload, int recordBytes, double throughput) {
    return run(system, workload, recordBytes, throughput, steady(10, throughput, 0.9));
  }

  /** The dynamic workload in miniature: three phases, the hot-set limit changing with them. */
  static RunResult dynamic(String system, int secondsPerPhase) {
    String[] phases = {"uniform", "hotspot-1%", "hotspot-3%"};
    List<Sample> samples = new ArrayList<>();
    int t = 0;
    for (int p = 0; p < phases.length; p++) {
      for (int i = 0; i < secondsPerPhase; i++) {
        t++;
        double hit = i == 0 ? Double.NaN : 0.3 + 0.2 * p + 0.01 * i;
        Sample s = sample(t, phases[p], 1000 + 100 * p + i, hit);
        samples.add(new Sample(s.elapsedSeconds(), s.phase(), s.operations(), s.throughput(),
            s.fastHitRate(), s.p50GetMicros(), s.p99GetMicros(), s.promotedByFlushBytes(),
            s.promotedByCompactionBytes(), s.retainedBytes(), s.demotedBytes(),
            s.fastCompactionBytes(), s.slowCompactionBytes(), s.raltBytes(), s.raltCpuShare(),
            s.rssBytes(), (p + 1) * 10 * MIB + i * MIB, s.ioBytes()));
      }
    }
    return run(system, "dynamic", 1024, 1234.5, samples);
  }
}
