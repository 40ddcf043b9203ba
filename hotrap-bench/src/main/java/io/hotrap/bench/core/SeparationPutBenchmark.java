package io.hotrap.bench.core;

import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.core.HotRapStats;
import io.hotrap.bench.Directories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What write-hot separation costs a put while the writes are uniform and its detector keeps it
 * idle: uniform puts into a store with separation on ({@code separation=true}) or off. Run the two
 * as alternating single-fork pairs ({@code scripts/jmh-pairs.sh SeparationPutBenchmark separation
 * 6}), so that both sides of each pair meet the same load from other work. The store's budget is large enough that no migration runs, so the difference is the write
 * path's own (the detector's per-key count and the routing check), not the machine's noise in
 * flushes and compactions. Target (write-hot separation on WH-uniform): within 2% of separation
 * off. {@link #tearDown} fails the trial if the detector routed any write to {@code fast-hot},
 * which would make the comparison meaningless.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 6, time = 2)
@Fork(1)
public class SeparationPutBenchmark {

  @Param({"false", "true"})
  public boolean separation;

  @Param("200000")
  public int keys;

  @Param("100")
  public int valueBytes;

  private Path dir;
  private HotRapDB db;
  private byte[] value;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    HotRapDB.loadNativeLibrary();
    dir = Files.createTempDirectory("hotrap-separation-put-bench");
    db = HotRapDB.open(HotRapOptions.builder().fastPath(dir.resolve("fast")).slowPath(dir.resolve("slow"))
        .fastBudgetBytes(4L << 30).writeHotSeparation(separation).build());
    value = new byte[valueBytes];
    ThreadLocalRandom.current().nextBytes(value);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    HotRapStats s = db.stats();
    db.close();
    Directories.deleteRecursively(dir);
    if (s.writeHotWrites() > 0) {
      throw new IllegalStateException("uniform puts turned separation on: " + s);
    }
  }

  @Benchmark
  public void put() {
    db.put(GetBenchmark.key(ThreadLocalRandom.current().nextInt(keys)), value);
  }
}
