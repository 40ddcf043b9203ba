package io.hotrap.cache.flash;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * What a clean close saves so that the next open finds the items again (a warm restart): the
 * regions, the generation counter, the invalid groups, the items' hit counts and the index — the
 * on-heap index written out item by item, or for the off-heap index a reference to its map file,
 * {@value ChronicleIndex#FILE_NAME}, which holds the items itself. One file, {@code checkpoint},
 * is the only proof that a saved index may be used, whichever kind it is.
 *
 * <p><b>When it exists.</b> Between a clean close and the next open only: open reads it and
 * deletes it, forcing the directory, before the cache serves and before the off-heap index's map
 * file is opened for writing. So a crash while open leaves no checkpoint and the next open starts
 * cold — with an empty index (a map file left behind is deleted unread), the region file's old
 * bytes never read — never with an index that disagrees with the regions. A close forces the
 * region file, then unmaps and forces the map file, and only then writes the checkpoint.
 *
 * <h2>Format</h2>
 * File {@code checkpoint}, integers big-endian (as {@link DataOutputStream} writes them):
 * <pre>
 * size   field
 * 4      magic 0x48524643 ("HRFC")
 * 4      format version, 2
 * 4      region bytes          } must equal the opening cache's, else the checkpoint is ignored
 * 4      region count          }
 * 8      next generation
 * 1      where the items are: 0 in this file, 1 in the map file
 * 8, 4   map file only: the map file's length and the CRC32C of all its bytes
 * 4      n, then n × 8         remembered invalid groups, oldest first
 * 4      m, then m ×           stored regions: id (4), generation (8), last access epoch (8),
 *                              used bytes (4), items appended s (4), then s hit counts (1 each,
 *                              unsigned, by slot)
 * per indexed item             (items in this file only) tag 1 (1), region (4), offset (4),
 *                              length (4), group (8), slot (4), key length k (2, unsigned), key (k)
 * 1      tag 0: end of items
 * 8      item count (with the items in the map file: the map's entry count)
 * 4      CRC32C of every byte before it
 * </pre>
 * An item's generation is its region's. A checkpoint is accepted only whole: right magic, version
 * and geometry, consistent regions and items (every item inside the used part of a stored
 * region, its slot among the region's items), matching count and CRC, and nothing after the CRC;
 * anything else means a cold start. With the items in the map file, the file's length and CRC
 * must match too, checked before Chronicle Map is given the file, and every entry is checked
 * against the regions as it is restored ({@code IndexLoader}). The file is written to
 * {@code checkpoint.tmp}, forced, renamed over {@code checkpoint} and the directory forced, so a
 * crash during close leaves either no checkpoint or a whole one.
 *
 * <p>Not thread-safe; the flash tier writes it with its worker stopped and reads it before serving.
 */
final class Checkpoint {
  static final String FILE_NAME = "checkpoint";
  static final String TEMP_NAME = "checkpoint.tmp";
  static final int MAGIC = 0x48524643;
  static final int VERSION = 2;

  private static final System.Logger LOG = System.getLogger(Checkpoint.class.getName());
  private static final int TAG_ITEM = 1;
  private static final int TAG_END = 0;
  private static final int ITEMS_HERE = 0;
  private static final int ITEMS_IN_MAP = 1;

  /** A stored region as the checkpoint records it, with its items' hit counts by slot. */
  record StoredRegion(int id, long generation, long lastAccess, int used, byte[] hits) {}

  /** The map file a checkpoint vouches for: its length, CRC32C and entry count. */
  record MapFile(long length, int crc, long entries) {}

  /**
   * What a valid checkpoint holds.
   *
   * @param map the map file holding the items, or {@code null} if they are in {@code keys} and
   *     {@code locations}
   */
  record Contents(long nextGeneration, long[] invalidGroups, List<StoredRegion> regions,
      List<ItemKey> keys, List<Location> locations, MapFile map) {}

  /**
   * The stored regions of a checkpoint by id, and the rule every saved item must pass, whether it
   * comes from the checkpoint or from the map file: its region is stored with the item's
   * generation, the item lies inside the region's used bytes and is long enough for its key, and
   * its slot is one of the region's items.
   */
  static final class RegionTable {
    private final long[] generationOf;
    private final int[] usedOf;
    private final int[] itemsOf;

    RegionTable(int regionCount) {
      this.generationOf = new long[regionCount];
      this.usedOf = new int[regionCount];
      this.itemsOf = new int[regionCount];
    }

    RegionTable(int regionCount, List<StoredRegion> regions) {
      this(regionCount);
      for (StoredRegion r : regions) {
        add(r.id(), r.generation(), r.used(), r.hits().length);
      }
    }

    /** Whether region {@code id} is already in the table. */
    boolean has(int id) {
      return generationOf[id] != Region.NO_GENERATION;
    }

    void add(int id, long generation, int used, int items) {
      generationOf[id] = generation;
      usedOf[id] = used;
      itemsOf[id] = items;
    }

    /** The generation of region {@code id}'s stored fill, or {@link Region#NO_GENERATION}. */
    long generation(int id) {
      return id >= 0 && id < generationOf.length ? generationOf[id] : Region.NO_GENERATION;
    }

    /** Whether an item of a {@code keyLength}-byte key may be saved at {@code loc}. */
    boolean holds(Location loc, int keyLength) {
      long g = generation(loc.region);
      return g != Region.NO_GENERATION && loc.generation == g && loc.offset >= 0
          && loc.length >= RegionBuffer.HEADER_BYTES + keyLength
          && (long) loc.offset + loc.length <= usedOf[loc.region]
          && loc.slot >= 0 && loc.slot < itemsOf[loc.region];
    }
  }

  /** Streams one checkpoint to disk; {@link #commit} makes it the checkpoint. */
  static final class Writer implements AutoCloseable {
    private final Path dir;
    private final FileChannel channel;
    private final CRC32C crc = new CRC32C();
    private final DataOutputStream out;
    private long items;
    private boolean committed;

    private final boolean itemsHere;

    private Writer(Path dir, int regionBytes, int regionCount, long nextGeneration,
        long[] invalidGroups, List<StoredRegion> regions, MapFile map) throws IOException {
      this.dir = dir;
      this.channel = FileChannel.open(dir.resolve(TEMP_NAME), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
      this.out = new DataOutputStream(new BufferedOutputStream(
          new CheckedOutputStream(Channels.newOutputStream(channel), crc), 1 << 16));
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
      out.writeInt(regionBytes);
      out.writeInt(regionCount);
      out.writeLong(nextGeneration);
      this.itemsHere = map == null;
      if (map == null) {
        out.writeByte(ITEMS_HERE);
      } else {
        out.writeByte(ITEMS_IN_MAP);
        out.writeLong(map.length());
        out.writeInt(map.crc());
        items = map.entries();
      }
      out.writeInt(invalidGroups.length);
      for (long g : invalidGroups) {
        out.writeLong(g);
      }
      out.writeInt(regions.size());
      for (StoredRegion r : regions) {
        out.writeInt(r.id());
        out.writeLong(r.generation());
        out.writeLong(r.lastAccess());
        out.writeInt(r.used());
        out.writeInt(r.hits().length);
        out.write(r.hits());
      }
    }

    /** Writes one item; only for a checkpoint that holds the items, not a map file's. */
    void item(ItemKey key, Location loc) throws IOException {
      if (!itemsHere) {
        throw new IllegalStateException("the items of this checkpoint are in the map file");
      }
      out.writeByte(TAG_ITEM);
      out.writeInt(loc.region);
      out.writeInt(loc.offset);
      out.writeInt(loc.length);
      out.writeLong(loc.group);
      out.writeInt(loc.slot);
      out.writeShort(key.bytes.length);
      out.write(key.bytes);
      items++;
    }

    /** Ends the file, forces it and renames it into place. */
    void commit() throws IOException {
      out.writeByte(TAG_END);
      out.writeLong(items);
      out.flush();
      int sum = (int) crc.getValue();
      // The CRC goes to the channel directly: it is not part of what it covers.
      ByteBuffer trailer = ByteBuffer.allocate(4).putInt(0, sum);
      while (trailer.hasRemaining()) {
        channel.write(trailer);
      }
      channel.force(true);
      channel.close();
      Files.move(dir.resolve(TEMP_NAME), dir.resolve(FILE_NAME),
          StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      syncDirectory(dir);
      committed = true;
    }

    @Override
    public void close() throws IOException {
      if (!committed) {
        channel.close();
        Files.deleteIfExists(dir.resolve(TEMP_NAME));
      }
    }
  }

  private Checkpoint() {}

  /**
   * Starts a checkpoint.
   *
   * @param map the map file that holds the items, or {@code null} to write them with
   *     {@link Writer#item}
   */
  static Writer writer(Path dir, int regionBytes, int regionCount, long nextGeneration,
      long[] invalidGroups, List<StoredRegion> regions, MapFile map) throws IOException {
    return new Writer(dir, regionBytes, regionCount, nextGeneration, invalidGroups, regions, map);
  }

  /**
   * What an open found: the contents of a valid checkpoint, or {@code null}; and whether there was
   * a checkpoint at all (one found and not valid is a warm restart refused).
   */
  record Read(Contents contents, boolean found) {}

  /**
   * Reads the checkpoint of a cache of this geometry and deletes it (and any leftover temporary
   * file), forcing the directory, so that the next open after a crash starts cold.
   */
  static Read readAndDelete(Path dir, int regionBytes, int regionCount) throws IOException {
    Path file = dir.resolve(FILE_NAME);
    Contents contents = null;
    boolean found = true;
    try (InputStream in = Files.newInputStream(file)) {
      contents = parse(in, regionBytes, regionCount);
    } catch (NoSuchFileException e) {
      found = false; // cold start
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "ignoring unreadable flash cache checkpoint " + file
          + ": " + e);
    }
    boolean deleted = Files.deleteIfExists(file);
    deleted |= Files.deleteIfExists(dir.resolve(TEMP_NAME));
    if (deleted) {
      syncDirectory(dir);
    }
    return new Read(contents, found);
  }

  private static Contents parse(InputStream raw, int regionBytes, int regionCount)
      throws IOException {
    CRC32C crc = new CRC32C();
    CheckedInputStream checked = new CheckedInputStream(new BufferedInputStream(raw, 1 << 16), crc);
    DataInputStream in = new DataInputStream(checked);
    if (in.readInt() != MAGIC || in.readInt() != VERSION) {
      return reject("bad magic or version");
    }
    if (in.readInt() != regionBytes || in.readInt() != regionCount) {
      return reject("written by a cache of another region geometry");
    }
    long nextGeneration = in.readLong();
    int where = in.readUnsignedByte();
    long mapLength = 0;
    int mapCrc = 0;
    if (where == ITEMS_IN_MAP) {
      mapLength = in.readLong();
      mapCrc = in.readInt();
    } else if (where != ITEMS_HERE) {
      return reject("bad item place " + where);
    }
    int groupCount = in.readInt();
    if (groupCount < 0 || groupCount > 1 << 20) {
      return reject("bad group count " + groupCount);
    }
    long[] groups = new long[groupCount];
    for (int i = 0; i < groupCount; i++) {
      groups[i] = in.readLong();
    }
    int stored = in.readInt();
    if (stored < 0 || stored > regionCount) {
      return reject("bad region count " + stored);
    }
    List<StoredRegion> regions = new ArrayList<>(stored);
    RegionTable table = new RegionTable(regionCount);
    Set<Long> generations = new HashSet<>();
    for (int i = 0; i < stored; i++) {
      int id = in.readInt();
      long generation = in.readLong();
      long lastAccess = in.readLong();
      int used = in.readInt();
      int items = in.readInt();
      // every item takes at least a header
      if (id < 0 || id >= regionCount || table.has(id) || generation <= 0
          || generation >= nextGeneration || !generations.add(generation) || used < 0
          || used > regionBytes || items < 0 || items > used / RegionBuffer.HEADER_BYTES) {
        return reject("bad region " + id + " of generation " + generation + ", " + used
            + " bytes used, " + items + " items");
      }
      byte[] hits = new byte[items];
      in.readFully(hits);
      table.add(id, generation, used, items);
      regions.add(new StoredRegion(id, generation, lastAccess, used, hits));
    }
    List<ItemKey> keys = new ArrayList<>();
    List<Location> locations = new ArrayList<>();
    while (true) {
      int tag = in.readUnsignedByte();
      if (tag == TAG_END) {
        break;
      }
      if (tag != TAG_ITEM || where != ITEMS_HERE) {
        return reject("bad item tag " + tag);
      }
      int region = in.readInt();
      int offset = in.readInt();
      int length = in.readInt();
      long group = in.readLong();
      int slot = in.readInt();
      Location loc = new Location(region, table.generation(region), offset, length, group, slot);
      int keyLength = in.readUnsignedShort();
      if (!table.holds(loc, keyLength)) {
        return reject("bad item " + loc);
      }
      byte[] key = new byte[keyLength];
      in.readFully(key);
      keys.add(new ItemKey(key));
      locations.add(loc);
    }
    long count = in.readLong();
    int expected = (int) crc.getValue();
    int actual = in.readInt(); // updates the CRC, whose value was taken before
    if ((where == ITEMS_HERE && count != keys.size()) || count < 0 || expected != actual) {
      return reject("item count or checksum mismatch");
    }
    if (checked.read() != -1) {
      return reject("bytes after the checksum");
    }
    MapFile map = where == ITEMS_IN_MAP ? new MapFile(mapLength, mapCrc, count) : null;
    return new Contents(nextGeneration, groups, regions, keys, locations, map);
  }

  /**
   * Forces {@code file} and returns its length and the CRC32C of its bytes, with {@code entries}
   * for the record: what a checkpoint vouches for and an open checks ({@link #matches}).
   */
  static MapFile digest(Path file, long entries) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      ch.force(true);
      return new MapFile(ch.size(), crc(ch), entries);
    }
  }

  /** Whether {@code file} has the length and CRC32C recorded in {@code map}. */
  static boolean matches(Path file, MapFile map) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      return ch.size() == map.length() && crc(ch) == map.crc();
    }
  }

  private static int crc(FileChannel ch) throws IOException {
    CRC32C crc = new CRC32C();
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
    long pos = 0;
    int n;
    while ((n = ch.read(buf, pos)) > 0) {
      pos += n;
      buf.flip();
      crc.update(buf);
      buf.clear();
    }
    return (int) crc.getValue();
  }

  private static Contents reject(String why) {
    LOG.log(System.Logger.Level.WARNING, "ignoring flash cache checkpoint: " + why);
    return null;
  }

  /**
   * Deletes any checkpoint without reading it (an open that does not restart warm), and the map
   * file it may vouch for, which is worthless without it.
   */
  static void delete(Path dir) throws IOException {
    boolean deleted = Files.deleteIfExists(dir.resolve(FILE_NAME));
    deleted |= Files.deleteIfExists(dir.resolve(TEMP_NAME));
    deleted |= Files.deleteIfExists(dir.resolve(ChronicleIndex.FILE_NAME));
    if (deleted) {
      syncDirectory(dir);
    }
  }

  /** Forces a directory, so that a rename or delete in it survives a crash. */
  static void syncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some platforms cannot open a directory; the rename is still atomic.
      LOG.log(System.Logger.Level.DEBUG, "could not force directory " + dir + ": " + e);
    }
  }
}
