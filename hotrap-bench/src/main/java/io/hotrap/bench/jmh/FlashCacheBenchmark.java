package io.hotrap.bench.jmh;

import io.hotrap.bench.Directories;
import io.hotrap.cache.flash.FlashCache;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link FlashCache} operations, single thread, 1 KiB values: a get served by DRAM, a get served by
 * flash (the region file, through the page cache), a miss the bypass filter answers, and a put.
 *
 * <p>Two caches: one whose DRAM holds all {@value #DRAM_KEYS} DRAM keys, and one with no DRAM, so
 * that every get of its {@value #FLASH_KEYS} keys reads flash (a flash hit's copy into DRAM is
 * evicted again at once and not rewritten, since its flash copy is still indexed).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class FlashCacheBenchmark {
  static final int VALUE_BYTES = 1024;
  static final int DRAM_KEYS = 4096;
  static final int FLASH_KEYS = 32_768;
  private static final int MISS_KEYS = 1 << 16;

  private Path dir;
  private FlashCache withDram;
  private FlashCache flashOnly;
  private byte[][] dramKeys;
  private byte[][] flashKeys;
  private byte[][] missingKeys;
  private byte[] value;
  private int cursor;

  @Setup(Level.Trial)
  public void fill() throws InterruptedException {
    dir = Directories.temporary("flash-cache-bench-");
    value = new byte[VALUE_BYTES];
    withDram = FlashCache.builder().directory(dir.resolve("dram")).flashBytes(64L << 20)
        .dramBytes(16L << 20).build();
    flashOnly = FlashCache.builder().directory(dir.resolve("flash")).flashBytes(256L << 20)
        .dramBytes(0).build();
    dramKeys = keys("d", DRAM_KEYS);
    flashKeys = keys("f", FLASH_KEYS);
    missingKeys = keys("m", MISS_KEYS);
    for (byte[] k : dramKeys) {
      withDram.put(k, value);
    }
    for (byte[] k : flashKeys) {
      flashOnly.put(k, value);
    }
    flashOnly.awaitQuiescence();
  }

  private static byte[][] keys(String prefix, int n) {
    byte[][] keys = new byte[n][];
    for (int i = 0; i < n; i++) {
      keys[i] = (prefix + "-key-" + i).getBytes(StandardCharsets.UTF_8);
    }
    return keys;
  }

  @TearDown(Level.Trial)
  public void close() {
    System.out.println();
    System.out.println("dram cache " + withDram.stats());
    System.out.println("flash cache " + flashOnly.stats());
    withDram.close();
    flashOnly.close();
    Directories.deleteRecursively(dir);
  }

  @Benchmark
  public byte[] getDramHit() {
    return withDram.get(dramKeys[cursor++ & (DRAM_KEYS - 1)]);
  }

  @Benchmark
  public byte[] getFlashHit() {
    return flashOnly.get(flashKeys[cursor++ & (FLASH_KEYS - 1)]);
  }

  @Benchmark
  public byte[] getMiss() {
    return withDram.get(missingKeys[cursor++ & (MISS_KEYS - 1)]);
  }

  @Benchmark
  public void put() {
    withDram.put(dramKeys[cursor++ & (DRAM_KEYS - 1)], value);
  }
}
