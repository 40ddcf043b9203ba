package io.hotrap.bench.jmh;

import io.hotrap.bench.Directories;
import io.hotrap.cache.flash.FlashCache;
import io.hotrap.cache.flash.FlashIndexKind;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the flash index costs a {@link FlashCache} get, on the heap and off it
 * ({@link FlashIndexKind}), single thread, with {@value #ITEMS} items of {@value #VALUE_BYTES}-byte
 * values on flash and no DRAM tier:
 *
 * <ul>
 *   <li>{@code getHit}: a flash hit, keys in random order: the index lookup, the read of the item
 *       (through the page cache) and its checks, and the promotion's second lookup;
 *   <li>{@code getMiss}: a key never put, with the bypass filter off so that every miss asks the
 *       index: one lookup and the get's fixed costs.
 * </ul>
 * Everything but the index is the same for both kinds, so the difference between them is the
 * index's. The forked JVM gets Chronicle Map's options (see {@link FlashIndexKind#OFF_HEAP}): JMH
 * starts it with {@code java -cp}, which reads no manifest.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g",
    "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class FlashIndexBenchmark {
  static final int ITEMS = 1 << 20;
  static final int VALUE_BYTES = 100;

  @Param({"ON_HEAP", "OFF_HEAP"})
  public FlashIndexKind index;

  private Path dir;
  private FlashCache cache;
  private byte[][] keys;
  private byte[][] missing;
  private int[] order;
  private int cursor;

  @Setup(Level.Trial)
  public void fill() throws InterruptedException {
    dir = Directories.temporary("flash-index-bench-");
    keys = keys("k", ITEMS);
    missing = keys("m", ITEMS);
    order = new int[ITEMS];
    for (int i = 0; i < ITEMS; i++) {
      order[i] = (int) ((i * 0x9E3779B1L) & (ITEMS - 1)); // odd multiplier: a permutation
    }
    int itemBytes = 26 + keys[0].length + VALUE_BYTES;
    cache = FlashCache.builder().directory(dir).flashBytes((long) ITEMS * itemBytes * 5 / 4)
        .regionBytes(4 << 20).dramBytes(0).bypassFilter(false).averageItemBytes(itemBytes)
        .indexKind(index).build();
    if (cache.indexKind() != index) {
      throw new IllegalStateException("asked for the " + index + " index, got "
          + cache.indexKind());
    }
    byte[] value = new byte[VALUE_BYTES];
    for (byte[] k : keys) {
      cache.put(k, value);
    }
    cache.awaitQuiescence();
  }

  private static byte[][] keys(String prefix, int n) {
    byte[][] keys = new byte[n][];
    for (int i = 0; i < n; i++) {
      keys[i] = String.format("%s-key-%08d", prefix, i).getBytes(StandardCharsets.UTF_8);
    }
    return keys;
  }

  @TearDown(Level.Trial)
  public void close() {
    System.out.println();
    System.out.println(index + " " + cache.stats());
    cache.close();
    Directories.deleteRecursively(dir);
  }

  @Benchmark
  public byte[] getHit() {
    return cache.get(keys[order[cursor++ & (ITEMS - 1)]]);
  }

  @Benchmark
  public byte[] getMiss() {
    return cache.get(missing[order[cursor++ & (ITEMS - 1)]]);
  }
}
