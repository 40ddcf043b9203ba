package io.hotrap.jni;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * A RocksDB on a test directory whose block-based tables use a given block cache, with 4 KiB
 * blocks, no compression and statistics on. Closing it closes the database and its options, not
 * the cache: the test owns the cache.
 */
final class CachedDb implements AutoCloseable {
  static final int VALUE_BYTES = 200;
  static final long BLOCK_BYTES = 4096;

  final Path dir;
  final RocksDB db;
  final Statistics statistics;
  private final Options options;
  private final WriteOptions writeOptions;

  private CachedDb(Path dir, RocksDB db, Options options, Statistics statistics) {
    this.dir = dir;
    this.db = db;
    this.options = options;
    this.statistics = statistics;
    this.writeOptions = new WriteOptions().setDisableWAL(true);
  }

  static CachedDb open(Path dir, Cache blockCache, AbstractEventListener... listeners)
      throws RocksDBException {
    Statistics statistics = new Statistics();
    BlockBasedTableConfig table =
        new BlockBasedTableConfig().setBlockCache(blockCache).setBlockSize(BLOCK_BYTES);
    Options options =
        new Options()
            .setCreateIfMissing(true)
            .setCompressionType(CompressionType.NO_COMPRESSION)
            .setTableFormatConfig(table)
            .setStatistics(statistics)
            .setDisableAutoCompactions(true);
    if (listeners.length > 0) {
      options.setListeners(List.of(listeners));
    }
    return new CachedDb(dir, RocksDB.open(options, dir.toString()), options, statistics);
  }

  static byte[] key(int i) {
    return String.format("key%08d", i).getBytes(UTF_8);
  }

  /** A value that depends on the key and the round it was written in, VALUE_BYTES long. */
  static byte[] value(int i, int round) {
    byte[] v = new byte[VALUE_BYTES];
    long x = (i * 0x9E3779B97F4A7C15L) ^ round;
    for (int j = 0; j < v.length; j++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      v[j] = (byte) (x >>> 56);
    }
    return v;
  }

  /** Writes keys [0, count) with round {@code round}'s values and flushes them into one file. */
  void load(int count, int round) throws RocksDBException {
    for (int i = 0; i < count; i++) {
      db.put(writeOptions, key(i), value(i, round));
    }
    flush();
  }

  void flush() throws RocksDBException {
    try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush);
    }
  }

  byte[] get(int i) throws RocksDBException {
    return db.get(key(i));
  }

  long ticker(TickerType type) {
    return statistics.getTickerCount(type);
  }

  List<LiveFileMetaData> files() {
    return new ArrayList<>(db.getLiveFilesMetaData());
  }

  Path pathOf(LiveFileMetaData file) {
    return Path.of(file.path(), file.fileName());
  }

  @Override
  public void close() {
    db.close();
    writeOptions.close();
    options.close();
    statistics.close();
  }
}
