package io.hotrap.jni;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * A RocksDB on a test directory with a column family {@code fast} that runs a given compaction
 * filter, and a default column family that runs none. Closing it closes the database and its
 * options, not the filter: the test owns the filter and closes it afterwards.
 */
final class FilteredDb implements AutoCloseable {
  static final byte[] FAST = "fast".getBytes(UTF_8);

  final Path dir;
  final RocksDB db;
  final ColumnFamilyHandle fast;
  private final DBOptions dbOptions;
  private final ColumnFamilyOptions defaultOptions;
  private final ColumnFamilyOptions fastOptions;
  private final List<ColumnFamilyHandle> handles;

  private FilteredDb(
      Path dir,
      RocksDB db,
      DBOptions dbOptions,
      ColumnFamilyOptions defaultOptions,
      ColumnFamilyOptions fastOptions,
      List<ColumnFamilyHandle> handles) {
    this.dir = dir;
    this.db = db;
    this.dbOptions = dbOptions;
    this.defaultOptions = defaultOptions;
    this.fastOptions = fastOptions;
    this.handles = handles;
    this.fast = handles.get(1);
  }

  static FilteredDb open(Path dir, DemotionFilter filter) throws RocksDBException {
    return open(dir, filter, options -> {});
  }

  static FilteredDb open(Path dir, DemotionFilter filter, Consumer<ColumnFamilyOptions> tune)
      throws RocksDBException {
    DBOptions dbOptions =
        new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
    ColumnFamilyOptions defaultOptions = new ColumnFamilyOptions();
    ColumnFamilyOptions fastOptions = new ColumnFamilyOptions().setCompactionFilter(filter);
    tune.accept(fastOptions);
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    RocksDB db =
        RocksDB.open(
            dbOptions,
            dir.toString(),
            List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, defaultOptions),
                new ColumnFamilyDescriptor(FAST, fastOptions)),
            handles);
    return new FilteredDb(dir, db, dbOptions, defaultOptions, fastOptions, handles);
  }

  void put(String key, String value) throws RocksDBException {
    db.put(fast, bytes(key), bytes(value));
  }

  String get(String key) throws RocksDBException {
    byte[] value = db.get(fast, bytes(key));
    return value == null ? null : new String(value, UTF_8);
  }

  void flush() throws RocksDBException {
    try (FlushOptions options = new FlushOptions().setWaitForFlush(true)) {
      db.flush(options, fast);
    }
  }

  void compactRange() throws RocksDBException {
    db.compactRange(fast);
  }

  /** The live SST files of {@code fast}. */
  List<LiveFileMetaData> files() {
    List<LiveFileMetaData> files = new ArrayList<>();
    for (LiveFileMetaData file : db.getLiveFilesMetaData()) {
      if (Arrays.equals(file.columnFamilyName(), FAST)) {
        files.add(file);
      }
    }
    return files;
  }

  /** Compacts the given files of {@code fast} into {@code level}. */
  void compactFiles(List<String> fileNames, int level) throws RocksDBException {
    try (CompactionOptions options = new CompactionOptions()) {
      db.compactFiles(options, fast, fileNames, level, -1, null);
    }
  }

  static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  @Override
  public void close() {
    for (ColumnFamilyHandle handle : handles) {
      handle.close();
    }
    db.close();
    fastOptions.close();
    defaultOptions.close();
    dbOptions.close();
  }
}
