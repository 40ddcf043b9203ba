package io.hotrap.core;

import java.nio.charset.StandardCharsets;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The store's metadata in RocksDB's {@code default} column family (DESIGN.md §3). Keys and values
 * are UTF-8 strings:
 * <pre>
 * hotrap.format.version   layout version, {@value StoreLayout#FORMAT_VERSION}
 * hotrap.store.id         UUID shared with the HOTRAP_STORE markers ({@link StoreLayout})
 * hotrap.fast.path        absolute fast directory the store was created with
 * hotrap.slow.path        absolute slow directory the store was created with
 * </pre>
 * Written once, with sync, when the store is created; checked on every open. A mismatch means the
 * RocksDB directory and the markers disagree, for instance after a directory was copied by hand.
 */
final class StoreMetadata {
  private static final byte[] FORMAT = utf8("hotrap.format.version");
  private static final byte[] STORE_ID = utf8("hotrap.store.id");
  private static final byte[] FAST_PATH = utf8("hotrap.fast.path");
  private static final byte[] SLOW_PATH = utf8("hotrap.slow.path");

  private StoreMetadata() {}

  /**
   * Writes the metadata of a new store or checks that of an existing one.
   *
   * @throws IllegalArgumentException if the stored metadata disagrees with the options or markers
   */
  static void writeOrCheck(RocksDB db, ColumnFamilyHandle meta, HotRapOptions o, String storeId)
      throws RocksDBException {
    if (db.get(meta, FORMAT) == null) {
      try (WriteBatch batch = new WriteBatch(); WriteOptions sync = new WriteOptions().setSync(true)) {
        batch.put(meta, FORMAT, utf8(Integer.toString(StoreLayout.FORMAT_VERSION)));
        batch.put(meta, STORE_ID, utf8(storeId));
        batch.put(meta, FAST_PATH, utf8(o.fastPath().toString()));
        batch.put(meta, SLOW_PATH, utf8(o.slowPath().toString()));
        db.write(sync, batch);
      }
      return;
    }
    expect(db, meta, FORMAT, Integer.toString(StoreLayout.FORMAT_VERSION), "format version");
    expect(db, meta, STORE_ID, storeId, "store id");
    expect(db, meta, FAST_PATH, o.fastPath().toString(), "fastPath");
    expect(db, meta, SLOW_PATH, o.slowPath().toString(), "slowPath");
  }

  private static void expect(RocksDB db, ColumnFamilyHandle meta, byte[] key, String expected,
      String what) throws RocksDBException {
    byte[] v = db.get(meta, key);
    String actual = v == null ? null : new String(v, StandardCharsets.UTF_8);
    if (!expected.equals(actual)) {
      throw new IllegalArgumentException("the store was created with " + what + " " + actual
          + " but was opened with " + expected);
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
