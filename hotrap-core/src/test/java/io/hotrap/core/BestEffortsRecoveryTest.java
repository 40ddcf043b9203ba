package io.hotrap.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.DbPath;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteOptions;

/**
 * The RocksDB behaviour the memory tier's recovery rests on ({@link MemoryTier}), on plain
 * RocksJava: a column family with two paths, L0 in the first and the levels below in the second,
 * loses its first path's files, and opens with {@code best_efforts_recovery}. With the second
 * path's files linked into the first, the levels below L0 come back; without the links RocksDB
 * 11.8.1 looks for them in the first path only, finds none, and recovers the family empty. If a
 * later RocksDB finds them without help, {@code withoutLinks} fails and the links can go.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BestEffortsRecoveryTest {
  private static final byte[] CF = "fast".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;

  @BeforeAll
  static void load() {
    HotRapDB.loadNativeLibrary();
  }

  private List<ColumnFamilyDescriptor> descriptors(ColumnFamilyOptions fast) {
    return List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
        new ColumnFamilyDescriptor(CF, fast));
  }

  private static byte[] key(int i) {
    return String.format("k%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  @ParameterizedTest(name = "links={0}")
  @ValueSource(booleans = {true, false})
  void theLevelsBelowL0ComeBackOnlyWithTheirFilesLinkedIntoTheFirstPath(boolean links)
      throws Exception {
    Path mem = Files.createDirectories(dir.resolve("mem"));
    Path disk = Files.createDirectories(dir.resolve("disk"));
    Path db = dir.resolve("db");
    long base = 1 << 20;
    byte[] value = new byte[500];
    try (ColumnFamilyOptions fast = new ColumnFamilyOptions()
            .setCfPaths(List.of(new DbPath(mem, base), new DbPath(disk, 1L << 40)))
            .setMaxBytesForLevelBase(base).setWriteBufferSize(256 << 10);
        DBOptions create = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
        WriteOptions noWal = new WriteOptions().setDisableWAL(true);
        FlushOptions flush = new FlushOptions().setWaitForFlush(true);
        CompactRangeOptions toDisk = new CompactRangeOptions().setTargetPathId(1)) {
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      try (RocksDB r = RocksDB.open(create, db.toString(), descriptors(fast), handles)) {
        ColumnFamilyHandle f = handles.get(1);
        for (int i = 0; i < 4000; i++) {
          r.put(f, noWal, key(i), value);
        }
        r.flush(flush, f);
        r.compactRange(f, null, null, toDisk); // below L0, in the second path
        r.put(f, noWal, key(0), "newer".getBytes(StandardCharsets.UTF_8));
        r.flush(flush, f); // an L0 file in the first path
        assertTrue(sstFiles(mem) > 0 && sstFiles(disk) > 0);
        handles.forEach(ColumnFamilyHandle::close);
      }
      TestStores.deleteContents(mem); // the machine's RAM is gone
      if (links) {
        try (Stream<Path> files = Files.list(disk)) {
          for (Path p : (Iterable<Path>) files::iterator) {
            Files.createSymbolicLink(mem.resolve(p.getFileName()), p);
          }
        }
      }
      handles.clear();
      try (DBOptions recover = new DBOptions().setBestEffortsRecovery(true);
          RocksDB r = RocksDB.open(recover, db.toString(), descriptors(fast), handles)) {
        ColumnFamilyHandle f = handles.get(1);
        if (links) {
          for (int i = 0; i < 4000; i++) {
            assertArrayEquals(value, r.get(f, key(i)), "key " + i); // key 0's newer version was in L0
          }
        } else {
          assertNull(r.get(f, key(1)), "RocksDB now finds files in a second path by itself");
        }
        handles.forEach(ColumnFamilyHandle::close);
      }
    }
  }

  private static long sstFiles(Path d) throws Exception {
    try (Stream<Path> files = Files.list(d)) {
      return files.filter(p -> p.toString().endsWith(".sst")).count();
    }
  }
}
