package io.hotrap.cache.flash;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import net.openhft.chronicle.hash.Data;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;
import net.openhft.chronicle.map.ExternalMapQueryContext;
import net.openhft.chronicle.map.MapEntry;

/**
 * The off-heap {@link FlashIndex}: a Chronicle Map in the file {@value #FILE_NAME} of the cache
 * directory, memory-mapped, so the index takes no heap per item and a clean close leaves it on
 * disk for the next open instead of writing it out ({@link FlashIndexKind#OFF_HEAP}). Only
 * {@link ChronicleSupport} may create the first one in a JVM: Chronicle Map needs JVM options to
 * run at all, and the one-time probe there finds out whether it can. An instance owns its map and
 * the mapping of the file until {@link #close}.
 *
 * <h2>Format</h2>
 * The file is Chronicle Map's own: a header that records the map's configuration, then segments of
 * hash lookups and entries. Each entry holds the key's bytes as the caller gave them and a value
 * of {@value #VALUE_BYTES} bytes, integers big-endian:
 * <pre>
 * offset  size  field
 * 0       4     region
 * 4       8     generation of the region fill
 * 12      4     offset of the item in the region
 * 16      4     length of the item: header, key and value
 * 20      8     group
 * 28      4     slot of the item in its fill (its hit count lives in {@link Region})
 * </pre>
 * The file is not crash-safe by itself: Chronicle changes it in place through the mapping while the
 * cache runs. When it may be read again, and how it is bound to the regions it describes, is the
 * {@link Checkpoint}'s business: only a file a clean close forced and recorded (length and CRC32C)
 * in a checkpoint is opened with {@link #open}; any other is deleted and replaced by an empty one
 * ({@link #create}).
 *
 * <h2>Concurrency</h2>
 * Thread-safe. Each per-key method is one Chronicle query context on the key's segment: lookups
 * under the segment's read lock; conditional changes take its update lock to read the entry and
 * decide, and the write lock to change it (a put, which changes the entry whatever it finds, takes
 * the write lock at once); every change of the bypass filter is made while the write lock is held,
 * so the filter and the map agree about a key whenever the segment is unlocked. {@link #removeGroup} and
 * {@link #restore} walk the segments one at a time under each segment's update lock. No method
 * calls out while it holds a segment lock except into the filter, whose lock is a leaf.
 * {@link #close} must not run concurrently with anything else.
 */
final class ChronicleIndex implements FlashIndex {
  /** The map's file in the cache directory. */
  static final String FILE_NAME = "index.map";
  /** Bytes of an entry's value. */
  static final int VALUE_BYTES = 32;
  /**
   * Key bytes Chronicle sizes its entry chunks for: the caller does not say, and a block cache's
   * keys (an SST file's id and a block offset) or a record cache's user keys are usually shorter.
   * A wrong guess costs space or an extra chunk per entry, never an entry.
   */
  static final int ASSUMED_KEY_BYTES = 24;
  /** Fewest entries the map is sized for. */
  static final long MIN_ENTRIES = 1024;
  /**
   * How far the map may grow past the entries it was sized for (Chronicle adds segment tiers up
   * to this factor), so that items smaller than the expected average still find room; past it a
   * put fails and the item is dropped, as with a full bypass filter.
   */
  static final double MAX_BLOAT = 4.0;

  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final ChronicleMap<byte[], byte[]> map;
  private final CuckooFilter filter;
  private final Path file;
  private boolean closed;

  private ChronicleIndex(ChronicleMap<byte[], byte[]> map, CuckooFilter filter, Path file) {
    this.map = map;
    this.filter = filter;
    this.file = file;
  }

  /**
   * An empty index in {@code dir}, replacing any file there.
   *
   * @param expectedItems items the map is sized for (it may grow {@link #MAX_BLOAT} times that)
   * @param filter the bypass filter to keep in step, or {@code null} for none; must be empty
   */
  static ChronicleIndex create(Path dir, long expectedItems, CuckooFilter filter)
      throws IOException {
    Path file = dir.resolve(FILE_NAME);
    Files.deleteIfExists(file);
    return new ChronicleIndex(builder(expectedItems).createPersistedTo(file.toFile()), filter,
        file);
  }

  /**
   * The index saved in {@code dir} by a clean close, whose file the caller has checked against its
   * checkpoint. Call {@link #restore} next, before any other method: until then the filter knows
   * none of the keys.
   */
  static ChronicleIndex open(Path dir, long expectedItems, CuckooFilter filter) throws IOException {
    Path file = dir.resolve(FILE_NAME);
    if (!Files.isRegularFile(file)) {
      throw new IOException("no index file " + file);
    }
    return new ChronicleIndex(builder(expectedItems).createPersistedTo(file.toFile()), filter,
        file);
  }

  private static ChronicleMapBuilder<byte[], byte[]> builder(long expectedItems) {
    return ChronicleMapBuilder.of(byte[].class, byte[].class)
        .name("hotrap-flash-index")
        .entries(Math.max(MIN_ENTRIES, expectedItems))
        .averageKeySize(ASSUMED_KEY_BYTES)
        .constantValueSizeBySample(new byte[VALUE_BYTES])
        .maxBloatFactor(MAX_BLOAT)
        // The checkpoint's CRC of the whole file stands for Chronicle's per-entry checksums, which
        // only its own recovery reads and which would cost every write a hash of the entry.
        .checksumEntries(false)
        // The cache closes the map; a JVM exit without that close is a crash, and the next open
        // discards the file anyway.
        .skipCloseOnExitHook(true);
  }

  /**
   * Exercises a small in-memory map through the same calls the index makes: the self-test of
   * {@link ChronicleSupport}'s probe. Throws whatever Chronicle throws when it cannot run.
   */
  static void selfTest() {
    try (ChronicleMap<byte[], byte[]> m = builder(MIN_ENTRIES).create()) {
      ChronicleIndex index = new ChronicleIndex(m, null, null);
      ItemKey key = new ItemKey(new byte[] {1, 2, 3});
      Location loc = new Location(1, 2, 3, 40, 5, 6);
      Location moved = new Location(7, 8, 9, 40, 5, 0);
      if (!index.put(key, loc) || !loc.equals(index.get(key))
          || !index.replace(key, loc, moved) || !index.remove(key, moved)
          || index.containsKey(key) || index.size() != 0) {
        throw new IllegalStateException("Chronicle Map does not behave as a map");
      }
    }
  }

  @Override
  public boolean mightContain(ItemKey key) {
    return filter == null || filter.mightContain(key.hash);
  }

  @Override
  public Location get(ItemKey key) {
    try (ExternalMapQueryContext<byte[], byte[], ?> c = map.queryContext(key.bytes)) {
      MapEntry<byte[], byte[]> e = c.entry();
      return e == null ? null : decode(e.value());
    }
  }

  @Override
  public boolean containsKey(ItemKey key) {
    return map.containsKey(key.bytes);
  }

  @Override
  public boolean put(ItemKey key, Location loc) {
    byte[] value = encode(loc);
    try (ExternalMapQueryContext<byte[], byte[], ?> c = map.queryContext(key.bytes)) {
      c.writeLock().lock();
      MapEntry<byte[], byte[]> e = c.entry();
      if (e != null) {
        c.replaceValue(e, c.wrapValueAsData(value));
        return true;
      }
      if (filter != null && !filter.add(key.hash)) {
        return false;
      }
      try {
        c.insert(c.absentEntry(), c.wrapValueAsData(value));
      } catch (IllegalStateException full) { // no segment tier left: MAX_BLOAT reached
        if (filter != null) {
          filter.remove(key.hash);
        }
        return false;
      }
      return true;
    }
  }

  @Override
  public boolean replace(ItemKey key, Location expected, Location moved) {
    try (ExternalMapQueryContext<byte[], byte[], ?> c = map.queryContext(key.bytes)) {
      c.updateLock().lock();
      MapEntry<byte[], byte[]> e = c.entry();
      if (e == null || !expected.sameAppend(decode(e.value()))) {
        return false;
      }
      c.replaceValue(e, c.wrapValueAsData(encode(moved)));
      return true;
    }
  }

  @Override
  public boolean remove(ItemKey key, Location expected) {
    try (ExternalMapQueryContext<byte[], byte[], ?> c = map.queryContext(key.bytes)) {
      c.updateLock().lock();
      MapEntry<byte[], byte[]> e = c.entry();
      if (e == null || (expected != null && !expected.sameAppend(decode(e.value())))) {
        return false;
      }
      c.remove(e);
      if (filter != null) {
        filter.remove(key.hash);
      }
      return true;
    }
  }

  @Override
  public long removeGroup(long group) {
    long[] removed = {0};
    map.forEachEntry(e -> {
      if (decode(e.value()).group == group) {
        long hash = ItemKey.hash(e.key().get());
        e.doRemove();
        if (filter != null) {
          filter.remove(hash);
        }
        removed[0]++;
      }
    });
    return removed[0];
  }

  /**
   * Walks the entries of a map just {@link #open opened}: keeps those {@code valid} accepts and
   * the filter has room for, adding them to the filter and handing them to {@code kept}, and
   * removes the rest.
   *
   * @return how many entries were removed
   * @throws IllegalStateException if an entry's value has the wrong length (the file was not
   *     written by this index); Chronicle may throw anything on a damaged map
   */
  long restore(BiPredicate<ItemKey, Location> valid, BiConsumer<ItemKey, Location> kept) {
    long[] removed = {0};
    map.forEachEntry(e -> {
      Data<byte[]> v = e.value();
      if (v.size() != VALUE_BYTES) {
        throw new IllegalStateException("index entry of " + v.size() + " bytes");
      }
      ItemKey key = new ItemKey(e.key().getUsing(null)); // get() may reuse one array per length
      Location loc = decode(v);
      if (valid.test(key, loc) && (filter == null || filter.add(key.hash))) {
        kept.accept(key, loc);
        return;
      }
      e.doRemove();
      removed[0]++;
    });
    return removed[0];
  }

  @Override
  public long size() {
    return map.longSize();
  }

  /** The map's file. */
  Path file() {
    return file;
  }

  /** Unmaps the file; Chronicle's changes are in the page cache, not yet forced. Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      map.close();
    }
  }

  static byte[] encode(Location loc) {
    byte[] b = new byte[VALUE_BYTES];
    INT.set(b, 0, loc.region);
    LONG.set(b, 4, loc.generation);
    INT.set(b, 12, loc.offset);
    INT.set(b, 16, loc.length);
    LONG.set(b, 20, loc.group);
    INT.set(b, 28, loc.slot);
    return b;
  }

  static Location decode(byte[] b) {
    return new Location((int) INT.get(b, 0), (long) LONG.get(b, 4), (int) INT.get(b, 12),
        (int) INT.get(b, 16), (long) LONG.get(b, 20), (int) INT.get(b, 28));
  }

  /** Decodes a value in place: the array {@code get()} returns is Chronicle's, reused later. */
  private static Location decode(Data<byte[]> value) {
    return decode(value.get());
  }
}
