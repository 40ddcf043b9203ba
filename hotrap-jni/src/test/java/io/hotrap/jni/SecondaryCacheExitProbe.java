package io.hotrap.jni;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * Run in a child JVM by {@link SecondaryCacheThreadsTest}: makes RocksDB's own threads call the
 * backend (compactions whose new tables put their index and filter blocks into a full LRU, which
 * evicts into the secondary cache), prints the names of the threads that inserted, and exits with
 * {@code System.exit} (argument {@code exit}) or by returning from main (argument {@code return}).
 */
final class SecondaryCacheExitProbe {
  private SecondaryCacheExitProbe() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("hotrap-sc-exit");
    MapBackend backend = new MapBackend();
    try (FlashSecondaryCache cache =
            FlashSecondaryCache.builder(backend).capacity(64 * 1024).numShardBits(0).build();
        Options options =
            new Options()
                .setCreateIfMissing(true)
                .setCompressionType(CompressionType.NO_COMPRESSION)
                .setLevel0FileNumCompactionTrigger(2)
                .setTableFormatConfig(
                    new BlockBasedTableConfig()
                        .setBlockCache(cache)
                        .setBlockSize(1024)
                        .setCacheIndexAndFilterBlocks(true));
        RocksDB db = RocksDB.open(options, dir.toString());
        FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      for (int round = 0; round < 6; round++) {
        for (int i = 0; i < 5_000; i++) {
          db.put(CachedDb.key(i), CachedDb.value(i, round));
        }
        db.flush(flush);
        for (int i = 0; i < 5_000; i += 7) {
          db.get(CachedDb.key(i));
        }
      }
      db.compactRange();
    }
    System.out.println("threads=" + new TreeSet<>(backend.insertThreads));
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(file);
      }
    }
    if (args.length > 0 && args[0].equals("exit")) {
      System.exit(0);
    }
  }
}
