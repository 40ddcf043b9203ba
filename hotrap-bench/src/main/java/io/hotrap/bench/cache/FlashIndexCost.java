package io.hotrap.bench.cache;

import io.hotrap.bench.Args;
import io.hotrap.bench.Directories;
import io.hotrap.cache.flash.FlashCache;
import io.hotrap.cache.flash.FlashCacheStats;
import io.hotrap.cache.flash.FlashIndexKind;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What each {@link FlashIndexKind} costs a flash cache of many small items besides lookups (which
 * {@code FlashIndexBenchmark} measures): heap per item on flash, after filling and after a warm
 * restart; the time of a clean close and of the warm open after it; the files left. One kind per
 * run, so that what one kind leaves behind in the JVM (Chronicle's classes and compiled code, a
 * closed cache's garbage) does not blur the other's heap. Heap is measured after full collections,
 * against the same cache open and empty, so what the regions' buffers and the bypass filter hold is
 * not counted, while the per-item keys the regions keep for eviction are. After the fill, the key
 * arrays are the driver's and not counted; after the restart the cache holds its own copies.
 *
 * <p>Run it from the jar ({@code java -jar hotrap-bench.jar flash-index}), whose manifest gives the
 * JVM the options the off-heap index needs; without them that run falls back to the heap and says
 * so.
 */
public final class FlashIndexCost {

  static final Path DEFAULT_DIR = Path.of("hotrap-data", "flash-index");
  private static final int HEADER_BYTES = 26;

  private FlashIndexCost() {}

  public static void run(List<String> argv, PrintStream out) throws InterruptedException {
    Args args = Args.parse("flash-index", argv, "dir", "items", "value-bytes", "kind");
    Path dir = args.getPath("dir", DEFAULT_DIR);
    int items = args.getInt("items", 1_000_000);
    int valueBytes = args.getInt("value-bytes", 100);
    FlashIndexKind kind = FlashIndexKind.valueOf(args.getString("kind", "OFF_HEAP"));
    byte[][] keys = new byte[items][];
    for (int i = 0; i < items; i++) {
      keys[i] = String.format("key-%09d", i).getBytes(StandardCharsets.UTF_8);
    }
    byte[] value = new byte[valueBytes];
    int itemBytes = HEADER_BYTES + keys[0].length + valueBytes;
    long flashBytes = Math.max(64L << 20, (long) items * itemBytes * 5 / 4);
    out.printf("flash-index %s: %,d items of %d bytes (key %d, value %d), flash %,d MiB in 4 MiB"
            + " regions, no DRAM tier; JVM %s%n", kind, items, itemBytes, keys[0].length,
        valueBytes, flashBytes >> 20, Runtime.version());
    Directories.fresh(dir);

    long t0 = System.nanoTime();
    try (FlashCache first = open(dir, kind, flashBytes, itemBytes)) {
      out.printf("first open %.0f ms (for the off-heap index, Chronicle's start-up); index in use"
          + " %s%n", millis(t0), first.indexKind());
    }
    Directories.fresh(dir);
    FlashCache cache = open(dir, kind, flashBytes, itemBytes);
    long empty = heapAfterGc();
    t0 = System.nanoTime();
    for (byte[] k : keys) {
      cache.put(k, value);
    }
    cache.awaitQuiescence();
    double fillSeconds = (System.nanoTime() - t0) / 1e9;
    long full = heapAfterGc();
    FlashCacheStats s = cache.stats();
    out.printf("filled in %.1f s (%,.0f puts/s): %,d items on flash, %,d dropped; heap %.1f bytes"
            + " per item%n", fillSeconds, items / fillSeconds, s.flashItems(), s.droppedInserts(),
        (double) (full - empty) / s.flashItems());

    t0 = System.nanoTime();
    cache.close();
    out.printf("clean close %.0f ms: checkpoint %,d bytes, map file %s%n", millis(t0),
        size(dir.resolve("checkpoint")), Files.exists(dir.resolve("index.map"))
            ? String.format("%,d bytes", size(dir.resolve("index.map"))) : "none");

    t0 = System.nanoTime();
    cache = open(dir, kind, flashBytes, itemBytes);
    double openMs = millis(t0);
    long restored = cache.stats().restoredItems();
    long warm = heapAfterGc();
    int hits = 0;
    int sampled = 0;
    for (int i = 0; i < items; i += 97, sampled++) {
      if (cache.get(keys[i]) != null) {
        hits++;
      }
    }
    out.printf("warm open %.0f ms: %,d items restored (%.2f µs each), %,d of %,d sampled gets hit;"
            + " heap %.1f bytes per item%n", openMs, restored,
        openMs * 1000 / Math.max(1, restored), hits, sampled,
        (double) (warm - empty) / Math.max(1, restored));
    cache.close();
    out.printf("(driver: %,d keys)%n", keys.length);
  }

  private static FlashCache open(Path d, FlashIndexKind kind, long flashBytes, int itemBytes) {
    return FlashCache.builder().directory(d).flashBytes(flashBytes).regionBytes(4 << 20)
        .dramBytes(0).averageItemBytes(itemBytes).indexKind(kind).build();
  }

  private static double millis(long since) {
    return (System.nanoTime() - since) / 1e6;
  }

  private static long size(Path f) {
    try {
      return Files.exists(f) ? Files.size(f) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Used heap after full collections, repeated until it stops shrinking by more than 1%. */
  private static long heapAfterGc() {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      boolean stable = now > used - used / 100;
      used = Math.min(used, now);
      if (stable) {
        break;
      }
    }
    return used;
  }
}
