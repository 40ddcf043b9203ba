package io.hotrap.bench.core;

import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.core.HotRapStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * {@code get} of cold records that sit in the slow tier, with promotion on and off: what logging a
 * slow-tier hit in RALT, offering it to the promotion cache and checking full caches costs.
 * Reads are uniform over fifty times the fast budget, so almost every get reads the slow tier and
 * RALT calls almost nothing hot. Target: promotion on at ≥ 0.9× promotion off.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class ColdGetBenchmark {
  private static final long BUDGET = 4L << 20;
  private static final int VALUE_BYTES = 1000;
  private static final int RECORDS = (int) (50 * BUDGET / VALUE_BYTES);

  @Param({"true", "false"})
  public boolean promotion;

  private Path dir;
  private HotRapDB db;
  private byte[][] keys;
  private final SplittableRandom random = new SplittableRandom(17);

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("hotrap-cold-get");
    db = HotRapDB.open(HotRapOptions.builder()
        .fastPath(dir.resolve("fast")).slowPath(dir.resolve("slow"))
        .fastBudgetBytes(BUDGET).promotion(promotion).build());
    keys = new byte[RECORDS][];
    byte[] value = new byte[VALUE_BYTES];
    for (int i = 0; i < RECORDS; i++) {
      keys[i] = GetBenchmark.key(i);
      random.nextBytes(value);
      db.put(keys[i], value);
    }
    db.flush();
    db.awaitBackgroundWork();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    HotRapStats s = db.stats();
    System.out.printf("%npromotion=%b: gets served fast %d, slow %d; promoted by flush %d B,"
        + " by compaction %d B; fast %d B in %d files, slow %d B in %d files%n", promotion,
        s.getsServedFast(), s.getsServedSlow(), s.bytesPromotedByFlush(),
        s.bytesPromotedByCompaction(), s.fastSstBytes(), sstFiles(dir.resolve("fast")),
        s.slowSstBytes(), sstFiles(dir.resolve("slow")));
    db.close();
    try (Stream<Path> s2 = Files.walk(dir)) {
      s2.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** SST files under {@code root}: how many tables a get may have to probe. */
  private static long sstFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".sst")).count();
    }
  }

  @Benchmark
  public byte[] coldGet() {
    return db.get(keys[random.nextInt(RECORDS)]);
  }
}
