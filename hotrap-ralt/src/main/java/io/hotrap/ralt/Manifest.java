package io.hotrap.ralt;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ByteArrayInputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The tracker's state besides its records: the access clock (hence the tick), the hot threshold and
 * limits, and which segment files make up which runs.
 *
 * <h2>File layout</h2>
 * One file, {@code MANIFEST}, replaced whole: written to {@code MANIFEST.tmp}, then renamed over the
 * old one, so a reader sees the old or the new state, never a mix. Big-endian.
 * <pre>
 * magic "HRALTMF1" (8), format version = 2 (4)
 * access clock (8), decay clock at that access clock (8; {@link Clock}), next file id (8),
 * evictions (8), clock at the last eviction (8)
 * hot threshold: stable class (1), normalized rank (8, IEEE 754 double)
 * hot-set limit (8), physical limit (8), stable hot bytes at the last eviction (8)
 * run count (4), then per run: run id (8), level (4), segment count (4), segment ids (8 each)
 * CRC32C of everything before it (4)
 * </pre>
 * Version 1, written before counters moved to the decay clock, has no decay clock; it reads as a
 * decay clock equal to the access clock, which is what version 1's counters were measured on. Its
 * threshold knew no bonus for fresh stable records ({@link Clock#rank}); read back, it admits every
 * fresh stable record until the next eviction sets a new one.
 * Durability: the file is forced to disk only when the tracker closes ({@code sync = true}). After a
 * process crash the page cache still holds every write; after a power loss a stale or damaged
 * manifest or segment is detected by its checksum and the tracker continues from what is intact.
 */
record Manifest(long clock, long decayClock, long nextFileId, long evictions,
    long lastEvictionClock, HotThreshold threshold, long hotSetLimit, long physicalLimit, long stableHotBytes,
    List<RunEntry> runs) {

  static final String FILE = "MANIFEST";
  private static final String TMP = "MANIFEST.tmp";
  private static final byte[] MAGIC = "HRALTMF1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final int VERSION = 2;
  private static final int VERSION_WITHOUT_DECAY_CLOCK = 1;

  /** One run: id, level and the ids of its segments in key order. */
  record RunEntry(long id, int level, long[] segmentIds) {}

  void write(Path dir, boolean sync) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(MAGIC);
    out.writeInt(VERSION);
    out.writeLong(clock);
    out.writeLong(decayClock);
    out.writeLong(nextFileId);
    out.writeLong(evictions);
    out.writeLong(lastEvictionClock);
    out.writeBoolean(threshold.stable());
    out.writeDouble(threshold.rank());
    out.writeLong(hotSetLimit);
    out.writeLong(physicalLimit);
    out.writeLong(stableHotBytes);
    out.writeInt(runs.size());
    for (RunEntry r : runs) {
      out.writeLong(r.id());
      out.writeInt(r.level());
      out.writeInt(r.segmentIds().length);
      for (long id : r.segmentIds()) {
        out.writeLong(id);
      }
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes.toByteArray());
    out.writeInt((int) crc.getValue());
    out.flush();
    Path tmp = dir.resolve(TMP);
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(bytes.toByteArray());
      while (bb.hasRemaining()) {
        ch.write(bb);
      }
      if (sync) {
        ch.force(true);
      }
    }
    Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    if (sync) {
      try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
        d.force(true);
      } catch (IOException ignored) {
        // not every file system lets a directory be opened for sync
      }
    }
  }

  /**
   * Reads the manifest of {@code dir}.
   *
   * @return null if there is none
   * @throws IOException if it exists but cannot be read or fails its checksum
   */
  static Manifest read(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    if (!Files.exists(file)) {
      return null;
    }
    byte[] all = Files.readAllBytes(file);
    if (all.length < MAGIC.length + 8 || !Arrays.equals(all, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new IOException("not a RALT manifest: " + file);
    }
    CRC32C crc = new CRC32C();
    crc.update(all, 0, all.length - 4);
    if ((int) crc.getValue() != Segment.getInt(all, all.length - 4)) {
      throw new IOException("checksum mismatch in " + file);
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(all, 0, all.length - 4));
    in.skipNBytes(MAGIC.length);
    int version = in.readInt();
    if (version != VERSION && version != VERSION_WITHOUT_DECAY_CLOCK) {
      throw new IOException("unsupported RALT manifest version " + version + " in " + file);
    }
    long clock = in.readLong();
    long decayClock = version == VERSION_WITHOUT_DECAY_CLOCK ? clock : in.readLong();
    long nextFileId = in.readLong();
    long evictions = in.readLong();
    long lastEvictionClock = in.readLong();
    HotThreshold threshold = new HotThreshold(in.readBoolean(), in.readDouble());
    long hotSetLimit = in.readLong();
    long physicalLimit = in.readLong();
    long stableHotBytes = in.readLong();
    int n = in.readInt();
    if (n < 0 || n > 1_000_000) {
      throw new IOException("implausible run count " + n + " in " + file);
    }
    List<RunEntry> runs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long id = in.readLong();
      int level = in.readInt();
      int segs = in.readInt();
      if (segs < 0 || segs > 10_000_000 || level < 0) {
        throw new IOException("implausible run entry in " + file);
      }
      long[] ids = new long[segs];
      for (int j = 0; j < segs; j++) {
        ids[j] = in.readLong();
      }
      runs.add(new RunEntry(id, level, ids));
    }
    return new Manifest(clock, decayClock, nextFileId, evictions, lastEvictionClock, threshold,
        hotSetLimit, physicalLimit, stableHotBytes, runs);
  }
}
