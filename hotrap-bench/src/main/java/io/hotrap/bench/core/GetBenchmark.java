package io.hotrap.bench.core;

import io.hotrap.core.HotRapDB;
import io.hotrap.core.HotRapOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
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
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * {@code get} of fast-resident records through {@link HotRapDB} against plain RocksJava on the same
 * data, configured like the fast tier (same block cache, block size, Bloom filter, compression),
 * in the same run. Target: HotRapDB at ≥ 0.9× RocksJava's throughput.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class GetBenchmark {

  @Param("20000")
  public int records;

  @Param("100")
  public int valueBytes;

  private Path dir;
  private HotRapDB hotrap;
  private RocksDB rocks;
  private Options rocksOptions;
  private LRUCache cache;
  private BloomFilter filter;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    HotRapDB.loadNativeLibrary();
    dir = Files.createTempDirectory("hotrap-get-bench");
    HotRapOptions o = HotRapOptions.builder()
        .fastPath(dir.resolve("fast")).slowPath(dir.resolve("slow"))
        .fastBudgetBytes(64L << 20).build();
    hotrap = HotRapDB.open(o);
    cache = o.newBlockCache();
    filter = new BloomFilter(o.bloomBitsPerKey());
    rocksOptions = new Options().setCreateIfMissing(true)
        .setWriteBufferSize(o.writeBufferBytes())
        .setTargetFileSizeBase(o.fastTargetFileBytes())
        .setCompressionType(o.fastCompression())
        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache)
            .setBlockSize(o.fastBlockSize()).setFilterPolicy(filter)
            .setCacheIndexAndFilterBlocks(true).setCacheIndexAndFilterBlocksWithHighPriority(true)
            .setPinL0FilterAndIndexBlocksInCache(true));
    rocks = RocksDB.open(rocksOptions, dir.resolve("rocks").toString());
    for (int i = 0; i < records; i++) {
      byte[] v = value(i);
      hotrap.put(key(i), v);
      rocks.put(key(i), v);
    }
    hotrap.flush();
    try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
      rocks.flush(fo);
    }
    hotrap.awaitBackgroundWork();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    hotrap.close();
    rocks.close();
    rocksOptions.close();
    filter.close();
    cache.close();
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  public byte[] hotrapGet() {
    return hotrap.get(key(ThreadLocalRandom.current().nextInt(records)));
  }

  @Benchmark
  public byte[] rocksGet() throws RocksDBException {
    return rocks.get(key(ThreadLocalRandom.current().nextInt(records)));
  }

  HotRapDB hotrap() {
    return hotrap;
  }

  RocksDB rocks() {
    return rocks;
  }

  static byte[] key(int i) {
    return String.format("user%016d", i).getBytes(StandardCharsets.UTF_8);
  }

  private byte[] value(int i) {
    byte[] v = new byte[valueBytes];
    ThreadLocalRandom.current().nextBytes(v);
    return v;
  }
}
