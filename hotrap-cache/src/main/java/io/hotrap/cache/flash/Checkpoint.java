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
 * The flash index saved by a clean close, so that the next open finds the items again (a warm
 * restart). The file exists only between a clean close and the next open: open reads it and
 * deletes it before the cache serves, so a crash while open leaves no checkpoint and the next open
 * starts cold — with an empty index, the region file's old bytes are never read — never with an
 * index that disagrees with the regions.
 *
 * <h2>Format</h2>
 * File {@code checkpoint}, integers big-endian (as {@link DataOutputStream} writes them):
 * <pre>
 * size   field
 * 4      magic 0x48524643 ("HRFC")
 * 4      format version, 1
 * 4      region bytes          } must equal the opening cache's, else the checkpoint is ignored
 * 4      region count          }
 * 8      next generation
 * 4      n, then n × 8         remembered invalid groups, oldest first
 * 4      m, then m × 24        stored regions: id (4), generation (8), last access epoch (8),
 *                              used bytes (4)
 * per indexed item:            tag 1 (1), region (4), offset (4), length (4), group (8),
 *                              hits (1, unsigned), key length k (2, unsigned), key (k)
 * 1      tag 0: end of items
 * 8      item count
 * 4      CRC32C of every byte before it
 * </pre>
 * An item's generation is its region's. A checkpoint is accepted only whole: right magic, version
 * and geometry, consistent regions and items (every item inside the used part of a stored
 * region), matching count and CRC, and nothing after the CRC; anything else means a cold start.
 * The file is written to {@code checkpoint.tmp}, forced, renamed over {@code checkpoint} and the
 * directory forced, so a crash during close leaves either no checkpoint or a whole one.
 *
 * <p>Not thread-safe; the flash tier writes it with its worker stopped and reads it before serving.
 */
final class Checkpoint {
  static final String FILE_NAME = "checkpoint";
  static final String TEMP_NAME = "checkpoint.tmp";
  static final int MAGIC = 0x48524643;
  static final int VERSION = 1;

  private static final System.Logger LOG = System.getLogger(Checkpoint.class.getName());
  private static final int TAG_ITEM = 1;
  private static final int TAG_END = 0;

  /** A stored region as the checkpoint records it. */
  record StoredRegion(int id, long generation, long lastAccess, int used) {}

  /** What a valid checkpoint holds. */
  record Contents(long nextGeneration, long[] invalidGroups, List<StoredRegion> regions,
      List<ItemKey> keys, List<Location> locations) {}

  /** Streams one checkpoint to disk; {@link #commit} makes it the checkpoint. */
  static final class Writer implements AutoCloseable {
    private final Path dir;
    private final FileChannel channel;
    private final CRC32C crc = new CRC32C();
    private final DataOutputStream out;
    private long items;
    private boolean committed;

    private Writer(Path dir, int regionBytes, int regionCount, long nextGeneration,
        long[] invalidGroups, List<StoredRegion> regions) throws IOException {
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
      }
    }

    void item(ItemKey key, Location loc) throws IOException {
      out.writeByte(TAG_ITEM);
      out.writeInt(loc.region);
      out.writeInt(loc.offset);
      out.writeInt(loc.length);
      out.writeLong(loc.group);
      out.writeByte(loc.hits);
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

  static Writer writer(Path dir, int regionBytes, int regionCount, long nextGeneration,
      long[] invalidGroups, List<StoredRegion> regions) throws IOException {
    return new Writer(dir, regionBytes, regionCount, nextGeneration, invalidGroups, regions);
  }

  /**
   * Reads the checkpoint of a cache of this geometry and deletes it (and any leftover temporary
   * file), forcing the directory, so that the next open after a crash starts cold.
   *
   * @return the contents, or {@code null} if there is no valid checkpoint
   */
  static Contents readAndDelete(Path dir, int regionBytes, int regionCount) throws IOException {
    Path file = dir.resolve(FILE_NAME);
    Contents contents = null;
    try (InputStream in = Files.newInputStream(file)) {
      contents = parse(in, regionBytes, regionCount);
    } catch (NoSuchFileException e) {
      // cold start
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "ignoring unreadable flash cache checkpoint " + file
          + ": " + e);
    }
    boolean deleted = Files.deleteIfExists(file);
    deleted |= Files.deleteIfExists(dir.resolve(TEMP_NAME));
    if (deleted) {
      syncDirectory(dir);
    }
    return contents;
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
    long[] generationOf = new long[regionCount];
    int[] usedOf = new int[regionCount];
    Set<Long> generations = new HashSet<>();
    for (int i = 0; i < stored; i++) {
      StoredRegion r = new StoredRegion(in.readInt(), in.readLong(), in.readLong(), in.readInt());
      if (r.id() < 0 || r.id() >= regionCount || generationOf[r.id()] != 0
          || r.generation() <= 0 || r.generation() >= nextGeneration
          || !generations.add(r.generation()) || r.used() < 0 || r.used() > regionBytes) {
        return reject("bad region " + r);
      }
      generationOf[r.id()] = r.generation();
      usedOf[r.id()] = r.used();
      regions.add(r);
    }
    List<ItemKey> keys = new ArrayList<>();
    List<Location> locations = new ArrayList<>();
    while (true) {
      int tag = in.readUnsignedByte();
      if (tag == TAG_END) {
        break;
      }
      if (tag != TAG_ITEM) {
        return reject("bad item tag " + tag);
      }
      int region = in.readInt();
      int offset = in.readInt();
      int length = in.readInt();
      long group = in.readLong();
      int hits = in.readUnsignedByte();
      int keyLength = in.readUnsignedShort();
      if (region < 0 || region >= regionCount || generationOf[region] == 0 || offset < 0
          || length < RegionBuffer.HEADER_BYTES + keyLength
          || (long) offset + length > usedOf[region]) {
        return reject("bad item at region " + region + " offset " + offset);
      }
      byte[] key = new byte[keyLength];
      in.readFully(key);
      Location loc = new Location(region, generationOf[region], offset, length, group);
      loc.hits = hits;
      keys.add(new ItemKey(key));
      locations.add(loc);
    }
    long count = in.readLong();
    int expected = (int) crc.getValue();
    int actual = in.readInt(); // updates the CRC, whose value was taken before
    if (count != keys.size() || expected != actual) {
      return reject("item count or checksum mismatch");
    }
    if (checked.read() != -1) {
      return reject("bytes after the checksum");
    }
    return new Contents(nextGeneration, groups, regions, keys, locations);
  }

  private static Contents reject(String why) {
    LOG.log(System.Logger.Level.WARNING, "ignoring flash cache checkpoint: " + why);
    return null;
  }

  /** Deletes any checkpoint without reading it (an open that does not restart warm). */
  static void delete(Path dir) throws IOException {
    boolean deleted = Files.deleteIfExists(dir.resolve(FILE_NAME));
    deleted |= Files.deleteIfExists(dir.resolve(TEMP_NAME));
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
