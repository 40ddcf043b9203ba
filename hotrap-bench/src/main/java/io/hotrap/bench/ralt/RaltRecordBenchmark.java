package io.hotrap.bench.ralt;

import io.hotrap.bench.Directories;
import io.hotrap.bench.workload.AccessStream;
import io.hotrap.bench.workload.Keys;
import io.hotrap.ralt.Ralt;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link Ralt#record} amortized over the background work it causes, single thread, 24-byte keys
 * and 1000-byte values over a million keys (HotRAP §4), on the hotspot-5% and uniform streams.
 *
 * <p>One invocation records a batch of {@value #BATCH} accesses and then calls
 * {@link Ralt#awaitQuiescence()}, so the measured time includes every flush, merge and eviction
 * the batch triggered; the score is accesses per second. Each iteration opens a fresh tracker in a
 * temporary directory and fills it, unmeasured, with {@value #FILL_BATCHES} batches, so measured
 * batches meet a tracker with populated levels and running evictions. Key ids are drawn before
 * the measurement, keys are precomputed arrays.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 10)
@Measurement(iterations = 5, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@State(Scope.Thread)
public class RaltRecordBenchmark {

  static final int BATCH = 1 << 20;
  static final int FILL_BATCHES = 2;
  /** Length of the precomputed access sequence; a power of two, replayed cyclically. */
  private static final int SEQUENCE = 1 << 23;

  @Param({"hotspot5", "uniform"})
  public String stream;

  private byte[][] keys;
  private int[] ids;
  private int cursor;
  private Path dir;
  private Ralt ralt;

  @Setup(Level.Trial)
  public void drawAccesses() {
    keys = Keys.keys(RaltWorkload.KEYS);
    ids = AccessStream.named(stream, RaltWorkload.KEYS, 42).fill(new int[SEQUENCE]);
  }

  @Setup(Level.Iteration)
  public void openFreshTracker() {
    dir = Directories.temporary("ralt-record-");
    ralt = Ralt.open(RaltWorkload.options(dir, RaltWorkload.FAST_DISK_BYTES).build());
    for (int b = 0; b < FILL_BATCHES; b++) {
      recordBatch();
    }
    ralt.awaitQuiescence();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void record() {
    recordBatch();
    ralt.awaitQuiescence();
  }

  private void recordBatch() {
    int c = cursor;
    for (int i = 0; i < BATCH; i++) {
      ralt.record(keys[ids[c]], RaltWorkload.VALUE_BYTES);
      c = (c + 1) & (SEQUENCE - 1);
    }
    cursor = c;
  }

  @TearDown(Level.Iteration)
  public void closeTracker() {
    System.out.println();
    System.out.println(ralt.stats());
    ralt.close();
    Directories.deleteRecursively(dir);
  }
}
