package io.hotrap.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Saves the segments' bitmaps, so that records marked dead stay dead across a restart instead of
 * being replayed and kept until the store marks them again.
 *
 * <p>Format, integers big-endian:
 *
 * <pre>
 * offset  size  field
 * 0       4     magic "HTLB" (0x48544C42)
 * 4       1     format version, 1
 * 5       3     zero
 * 8       4     n, the number of bitmaps
 * 12      ...   n entries, each: base (8), span in bits (4), then ceil(span / 64) words (8 each),
 *               bit i of word j standing for sequence number base + 64 j + i, set if live
 * end     4     CRC32C of every byte before it
 * </pre>
 *
 * <p>The file is written under a temporary name, forced and renamed over the old one.
 *
 * <p>Why it can only err on the safe side: a saved bit is applied to a record only if that record
 * is in its segment at open; bits of segments that are gone apply to nothing; a record outside the
 * saved span, or in a segment without an entry, or all records when the file is missing or damaged,
 * count as live. The log saves only bitmaps of segments whose records were all forced before the
 * save, so a saved dead bit can never meet a record written after a crash under a reused sequence
 * number.
 *
 * <p>Stateless.
 */
final class LivenessFile {

  static final int MAGIC = 0x48544C42;
  static final byte VERSION = 1;

  private LivenessFile() {}

  /** Replaces the file in {@code dir} by one holding {@code bitmaps}. */
  static void save(Path dir, Collection<LiveBitmap> bitmaps) throws IOException {
    long size = 12 + 4;
    for (LiveBitmap bitmap : bitmaps) {
      size += 12 + 8L * LiveBitmap.wordsFor(bitmap.span());
    }
    ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(size));
    out.putInt(MAGIC).put(VERSION).put(new byte[3]).putInt(bitmaps.size());
    for (LiveBitmap bitmap : bitmaps) {
      out.putLong(bitmap.base()).putInt(bitmap.span());
      for (long word : bitmap.words()) {
        out.putLong(word);
      }
    }
    out.putInt(PackedSegmentWriter.checksum(out.array(), 0, out.position()));
    out.flip();
    Path target = dir.resolve(SegmentFiles.LIVENESS);
    Path temp = SegmentFiles.temp(target);
    boolean success = false;
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      while (out.hasRemaining()) {
        channel.write(out);
      }
      channel.force(false);
      success = true;
    } finally {
      if (!success) {
        Files.deleteIfExists(temp);
      }
    }
    SegmentFiles.moveDurably(temp, target);
  }

  /**
   * The saved bitmaps by base; an empty map if there is no file.
   *
   * @throws IOException if the file exists but is damaged (the caller then treats every record as
   *     live) or cannot be read
   */
  static Map<Long, LiveBitmap> load(Path dir) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(dir.resolve(SegmentFiles.LIVENESS));
    } catch (NoSuchFileException e) {
      return Map.of();
    }
    if (bytes.length < 16
        || PackedSegmentWriter.checksum(bytes, 0, bytes.length - 4)
            != RecordFormat.getInt(bytes, bytes.length - 4)) {
      throw new IOException("liveness file of " + bytes.length + " bytes fails its checksum");
    }
    ByteBuffer in = ByteBuffer.wrap(bytes, 0, bytes.length - 4);
    if (in.getInt() != MAGIC || in.get() != VERSION) {
      throw new IOException("liveness file has another format");
    }
    in.position(8);
    int n = in.getInt();
    Map<Long, LiveBitmap> bitmaps = new HashMap<>();
    for (int i = 0; i < n; i++) {
      long base = in.getLong();
      int span = in.getInt();
      if (span < 0 || LiveBitmap.wordsFor(span) * 8L > in.remaining()) {
        throw new IOException("liveness entry " + i + " has span " + span);
      }
      long[] words = new long[LiveBitmap.wordsFor(span)];
      for (int w = 0; w < words.length; w++) {
        words[w] = in.getLong();
      }
      bitmaps.put(base, LiveBitmap.of(base, span, words));
    }
    if (in.hasRemaining()) {
      throw new IOException("liveness file has " + in.remaining() + " bytes after its entries");
    }
    return bitmaps;
  }
}
