package io.hotrap.ralt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

/**
 * One file of a sorted run of access records, with its in-memory index and Bloom filter of hot keys.
 *
 * <p>The file format is documented at {@link SegmentWriter}, which writes it.
 *
 * <h2>In memory</h2>
 * Per block: its offset, its first key and the prefix sum of the hot bytes (key + value length of
 * records flagged hot) before it — enough for {@link #hotBytesInRange} without reading the file.
 * Two Bloom filters hold the hot keys only: those that were stable when marked hot and the others
 * (the official HotRAP code keeps the same pair). Nothing else of the file is kept in memory.
 *
 * <h2>Recovery</h2>
 * {@link #recover} reads the whole file and checks every block's checksum and the footer; it keeps the
 * longest valid prefix of blocks and reports what it dropped, so a truncated or damaged file loses
 * only its tail.
 *
 * <h2>Thread safety and lifetime</h2>
 * Immutable after construction and safe to read from any thread. Reference counted: each
 * {@link Version} that lists the segment holds one reference; the file is closed and deleted when the
 * last reference is released, so iterators pinning an old version keep their files.
 */
final class Segment {
  static final byte[] MAGIC = "HRALTSG1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  static final byte[] FOOTER_MAGIC = "HRALTEND".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  static final int FORMAT_VERSION = 1;
  static final int HEADER_BYTES = 16;
  static final int BLOCK_OVERHEAD = 12;
  static final int FOOTER_BYTES = 32;

  private static final System.Logger LOG = System.getLogger(Segment.class.getName());

  final long id;
  final Path path;
  final long fileBytes;
  final long recordCount;
  final long recordBytes;
  /** Bytes of records that are fresh copies of keys hot in a deeper run (see AccessRecord). */
  final long shadowedBytes;
  final long hotCount;
  final long hotBytes;
  final byte[] firstKey;
  final byte[] lastKey;
  /** File offset of each block, plus the end of the last block. Files stay far below 2 GiB. */
  private final int[] blockOffsets;
  private final byte[] indexKeys;
  private final int[] indexKeyOffsets;
  private final long[] hotPrefix;
  private final HotKeyFilter stableFilter;
  private final HotKeyFilter unstableFilter;
  private final IoStats io;
  private final AtomicInteger refs = new AtomicInteger(1);
  private volatile FileChannel channel;
  private volatile boolean deleteOnRelease = true;

  Segment(long id, Path path, long fileBytes, long recordCount, long recordBytes,
      long shadowedBytes, long hotCount, long hotBytes, byte[] lastKey, int[] blockOffsets, byte[] indexKeys,
      int[] indexKeyOffsets, long[] hotPrefix, HotKeyFilter stableFilter,
      HotKeyFilter unstableFilter, IoStats io) {
    this.id = id;
    this.path = path;
    this.fileBytes = fileBytes;
    this.recordCount = recordCount;
    this.recordBytes = recordBytes;
    this.shadowedBytes = shadowedBytes;
    this.hotCount = hotCount;
    this.hotBytes = hotBytes;
    this.lastKey = lastKey;
    this.blockOffsets = blockOffsets;
    this.indexKeys = indexKeys;
    this.indexKeyOffsets = indexKeyOffsets;
    this.hotPrefix = hotPrefix;
    this.stableFilter = stableFilter;
    this.unstableFilter = unstableFilter;
    this.io = io;
    this.firstKey = Arrays.copyOfRange(indexKeys, indexKeyOffsets[0], indexKeyOffsets[1]);
  }

  static Path fileName(Path dir, long id) {
    return dir.resolve(String.format("seg-%016x.ralt", id));
  }

  int blockCount() {
    return blockOffsets.length - 1;
  }

  /** Whether the key may be a hot key of this segment (no false negatives). */
  boolean mightBeHot(long keyHash) {
    return stableFilter.mightContain(keyHash) || unstableFilter.mightContain(keyHash);
  }

  /** Whether the key may be a hot key that was stable when marked hot (no false negatives). */
  boolean mightBeStableHot(long keyHash) {
    return stableFilter.mightContain(keyHash);
  }

  int compareToFirstKey(byte[] key) {
    return Arrays.compareUnsigned(key, firstKey);
  }

  int compareToLastKey(byte[] key) {
    return Arrays.compareUnsigned(key, lastKey);
  }

  boolean covers(byte[] key) {
    return compareToFirstKey(key) >= 0 && compareToLastKey(key) <= 0;
  }

  /** Index of the last block whose first key is at most {@code key}; 0 if the key precedes all. */
  int floorBlock(byte[] key) {
    int lo = 0;
    int hi = blockCount() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      int c = Arrays.compareUnsigned(key, 0, key.length, indexKeys, indexKeyOffsets[mid],
          indexKeyOffsets[mid + 1]);
      if (c >= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * Hot bytes of the blocks that may hold keys of [low, high]: never less than the hot bytes of the
   * records in the range, more by at most the two boundary blocks.
   */
  long hotBytesInRange(byte[] low, byte[] high) {
    return hotBytesInRange(low, high, false);
  }

  /**
   * {@link #hotBytesInRange(byte[], byte[])}, or with {@code boundaryOnly} the hot bytes of just
   * its boundary blocks (the first and the last, once if they are one): the most by which it can
   * exceed the exact figure.
   */
  long hotBytesInRange(byte[] low, byte[] high, boolean boundaryOnly) {
    if (compareToLastKey(low) > 0 || compareToFirstKey(high) < 0) {
      return 0;
    }
    int from = floorBlock(low);
    int to = floorBlock(high);
    if (!boundaryOnly) {
      return hotPrefix[to + 1] - hotPrefix[from];
    }
    long first = hotPrefix[from + 1] - hotPrefix[from];
    return from == to ? first : first + hotPrefix[to + 1] - hotPrefix[to];
  }

  /** Reads block {@code i}, checks its checksum and returns it whole (header at offset 0). */
  byte[] readBlock(int i) throws IOException {
    byte[] block = new byte[blockOffsets[i + 1] - blockOffsets[i]];
    ByteBuffer bb = ByteBuffer.wrap(block);
    long pos = blockOffsets[i];
    FileChannel ch = channel();
    while (bb.hasRemaining()) {
      int n = ch.read(bb, pos + bb.position());
      if (n < 0) {
        throw new CorruptSegmentException(this, "unexpected end of " + path + " in block " + i);
      }
    }
    io.read(block.length);
    if (!blockIsValid(block, 0, block.length)) {
      throw new CorruptSegmentException(this, "checksum mismatch in " + path + " block " + i);
    }
    return block;
  }

  private FileChannel channel() throws IOException {
    FileChannel ch = channel;
    if (ch == null) {
      synchronized (this) {
        ch = channel;
        if (ch == null) {
          ch = FileChannel.open(path, StandardOpenOption.READ);
          channel = ch;
        }
      }
    }
    return ch;
  }

  static boolean blockIsValid(byte[] buf, int off, int len) {
    if (len < BLOCK_OVERHEAD) {
      return false;
    }
    int payload = getInt(buf, off);
    if (payload < 0 || payload + BLOCK_OVERHEAD != len) {
      return false;
    }
    CRC32C crc = new CRC32C();
    crc.update(buf, off, 8 + payload);
    return (int) crc.getValue() == getInt(buf, off + 8 + payload);
  }

  static int getInt(byte[] b, int off) {
    return ((b[off] & 0xFF) << 24) | ((b[off + 1] & 0xFF) << 16) | ((b[off + 2] & 0xFF) << 8)
        | (b[off + 3] & 0xFF);
  }

  static long getLong(byte[] b, int off) {
    return ((long) getInt(b, off) << 32) | (getInt(b, off + 4) & 0xFFFFFFFFL);
  }

  /** Heap bytes of the index and filter. */
  long memoryBytes() {
    return 96 + blockOffsets.length * 4L + indexKeys.length
        + indexKeyOffsets.length * 4L + hotPrefix.length * 8L + stableFilter.memoryBytes()
        + unstableFilter.memoryBytes()
        + firstKey.length + lastKey.length;
  }

  boolean tryRetain() {
    while (true) {
      int r = refs.get();
      if (r <= 0) {
        return false;
      }
      if (refs.compareAndSet(r, r + 1)) {
        return true;
      }
    }
  }

  void retain() {
    if (!tryRetain()) {
      throw new IllegalStateException("segment " + id + " already released");
    }
  }

  /** Drops one reference; the last one closes the file and deletes it unless {@link #keepFile()}. */
  void release() {
    if (refs.decrementAndGet() == 0) {
      try {
        FileChannel ch = channel;
        if (ch != null) {
          ch.close();
        }
        if (deleteOnRelease && Files.deleteIfExists(path)) {
          io.deleted(fileBytes);
        }
      } catch (IOException e) {
        LOG.log(Level.WARNING, "could not delete RALT file " + path, e);
      }
    }
  }

  /** Makes the final release close the file without deleting it (closing the tracker). */
  void keepFile() {
    deleteOnRelease = false;
  }

  /**
   * Opens an existing segment, checking every block and the footer. Keeps the longest valid prefix
   * of blocks; returns null if none is valid. Never throws for damaged content.
   */
  static Segment recover(long id, Path path, int bloomBitsPerKey, IoStats io) {
    byte[] file;
    try {
      file = Files.readAllBytes(path);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "RALT file " + path + " unreadable, dropped: " + e);
      return null;
    }
    io.read(file.length);
    if (file.length < HEADER_BYTES || !Arrays.equals(file, 0, 8, MAGIC, 0, 8)
        || getInt(file, 8) != FORMAT_VERSION) {
      LOG.log(Level.WARNING, "RALT file " + path + " has no valid header, dropped");
      return null;
    }
    SegmentIndexBuilder index = new SegmentIndexBuilder(bloomBitsPerKey);
    AccessRecord r = new AccessRecord();
    int pos = HEADER_BYTES;
    int blocks = 0;
    byte[] prevLast = null;
    String problem = null;
    while (true) {
      if (file.length - pos >= FOOTER_BYTES && Arrays.equals(file, pos, pos + 8, FOOTER_MAGIC, 0, 8)) {
        CRC32C crc = new CRC32C();
        crc.update(file, pos, 28);
        boolean ok = (int) crc.getValue() == getInt(file, pos + 28) && getInt(file, pos + 8) == blocks
            && getLong(file, pos + 20) == pos && getLong(file, pos + 12) == index.recordCount();
        if (!ok) {
          problem = "footer invalid";
        } else if (pos + FOOTER_BYTES != file.length) {
          problem = (file.length - pos - FOOTER_BYTES) + " bytes after the footer";
        }
        break;
      }
      if (file.length - pos < BLOCK_OVERHEAD) {
        problem = "truncated, no footer";
        break;
      }
      int payload = getInt(file, pos);
      if (payload < 0 || payload > file.length - pos - BLOCK_OVERHEAD
          || !blockIsValid(file, pos, payload + BLOCK_OVERHEAD)) {
        problem = "block " + blocks + " at offset " + pos + " fails its checksum";
        break;
      }
      int count = getInt(file, pos + 4);
      int p = pos + 8;
      int end = p + payload;
      boolean first = true;
      boolean sorted = true;
      for (int i = 0; i < count && p < end; i++) {
        int size = r.decode(file, p);
        if (prevLast != null
            && AccessRecord.compareKeys(r.keyBuf, r.keyOff, r.keyLen, prevLast, 0, prevLast.length)
                <= 0) {
          sorted = false;
          break;
        }
        if (first) {
          index.startBlock(pos, payload + BLOCK_OVERHEAD, r);
          first = false;
        }
        index.add(r, size);
        prevLast = r.keyCopy();
        p += size;
      }
      if (!sorted || first) {
        problem = "block " + blocks + " is out of order or empty";
        break;
      }
      blocks++;
      pos = end + 4;
    }
    if (problem != null) {
      LOG.log(Level.WARNING, "RALT file " + path + ": " + problem + "; kept " + blocks
          + " valid blocks (" + index.recordCount() + " records), dropped "
          + (file.length - pos) + " bytes");
    }
    if (blocks == 0) {
      return null;
    }
    io.found(file.length);
    return index.build(id, path, file.length, io);
  }
}
