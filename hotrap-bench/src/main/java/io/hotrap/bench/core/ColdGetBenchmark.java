package io.hotrap.bench.core;

import io.hotrap.bench.Directories;
import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import io.hotrap.core.HotRapStats;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.SplittableRandom;
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
 * {@code get} of cold records that sit in the slow tier, with promotion on and off: what logging a
 * slow-tier hit in RALT, offering it to the promotion cache (whose admission filter turns away
 * keys not read lately) and checking full caches costs. Reads are uniform over fifty times the
 * fast budget, so almost every get reads the slow tier and RALT calls almost nothing hot. Target:
 * promotion on at ≥ 0.9× promotion off.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class ColdGetBenchmark {
  /**
   * System property naming a directory in which the loaded store is kept between trials: the first
   * trial loads the store there, and every trial, in this JVM or a later one, reads a copy of it.
   * A trial that loads its own store gets the slow tier's shape that the timing of its background
   * migrations made, and the rate of cold gets with promotion off moved between about 57k and
   * 72k/s from one such trial to the next. {@code scripts/jmh-pairs.sh} sets it for its trials.
   * Unset, each trial loads its own store in a temporary directory.
   */
  public static final String TEMPLATE_PROPERTY = "hotrap.bench.coldget.template";
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
    keys = new byte[RECORDS][];
    for (int i = 0; i < RECORDS; i++) {
      keys[i] = GetBenchmark.key(i);
    }
    String template = System.getProperty(TEMPLATE_PROPERTY);
    if (template == null) {
      dir = Files.createTempDirectory("hotrap-cold-get");
      db = open(dir, promotion);
      load(db);
    } else {
      // The store records its absolute paths: it is loaded and read at <template>/run, and kept
      // between trials at <template>/loaded.
      Path root = Path.of(template).toAbsolutePath();
      dir = root.resolve("run");
      Path loaded = root.resolve("loaded");
      if (!Files.isDirectory(loaded)) {
        Directories.deleteRecursively(dir);
        try (HotRapDB fresh = open(dir, promotion)) {
          load(fresh);
        }
        Path partial = root.resolve("loaded.partial");
        Directories.deleteRecursively(partial);
        Directories.copyRecursively(dir, partial);
        Files.move(partial, loaded, StandardCopyOption.ATOMIC_MOVE);
      }
      Directories.deleteRecursively(dir);
      Directories.copyRecursively(loaded, dir);
      db = open(dir, promotion);
      db.awaitBackgroundWork();
    }
  }

  private static HotRapDB open(Path dir, boolean promotion) {
    return HotRapDB.open(HotRapOptions.builder()
        .fastPath(dir.resolve("fast")).slowPath(dir.resolve("slow"))
        .fastBudgetBytes(BUDGET).promotion(promotion).build());
  }

  /** Writes the records, random values of {@link #VALUE_BYTES}, and waits for migration to settle. */
  private void load(HotRapDB db) {
    SplittableRandom values = new SplittableRandom(17);
    byte[] value = new byte[VALUE_BYTES];
    for (byte[] key : keys) {
      values.nextBytes(value);
      db.put(key, value);
    }
    db.flush();
    db.awaitBackgroundWork();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    HotRapStats s = db.stats();
    System.out.printf("%npromotion=%b: gets served fast %d, slow %d; slow hits not admitted to the"
        + " promotion cache %d; promoted by flush %d B, by compaction %d B; fast %d B in %d files,"
        + " slow %d B in %d files%n", promotion,
        s.getsServedFast(), s.getsServedSlow(), s.promotionReadsNotAdmitted(), s.bytesPromotedByFlush(),
        s.bytesPromotedByCompaction(), s.fastSstBytes(), sstFiles(dir.resolve("fast")),
        s.slowSstBytes(), sstFiles(dir.resolve("slow")));
    db.close();
    Directories.deleteRecursively(dir);
  }

  /**
   * SST files of the tier whose directory is {@code root}: how many tables a get may have to probe.
   * Names only: the store is still open, and RocksDB and RALT may delete files meanwhile (a walk
   * that read each file's attributes failed on a RALT segment deleted under it).
   */
  private static long sstFiles(Path root) throws IOException {
    long n = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(root.resolve("data"), "*.sst")) {
      for (Path ignored : files) {
        n++;
      }
    }
    return n;
  }

  @Benchmark
  public byte[] coldGet() {
    return db.get(keys[random.nextInt(RECORDS)]);
  }
}
