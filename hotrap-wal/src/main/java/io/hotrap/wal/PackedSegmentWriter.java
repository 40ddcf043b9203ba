package io.hotrap.wal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Writes a packed segment: the live records of a sealed segment, in blocks compressed by a {@link
 * Codec}. Compression and trim both produce one (§3.2.1: sealed segments compressed whole in the
 * background; KV trim rewrites a segment without its dead records).
 *
 * <p>Format, integers big-endian:
 *
 * <pre>
 * header, 32 bytes
 * offset  size  field
 * 0       4     magic "HTLP" (0x48544C50)
 * 4       1     format version, 1
 * 5       1     codec: 0 = none, 1 = LZ4, 2 = zstd
 * 6       2     zero
 * 8       8     base: first sequence number covered, also the file name
 * 16      8     last sequence number covered (base - 1 if none); kept through trims so the
 *               segment's bitmap keeps its span, as the paper's w
 * 24      4     zero
 * 28      4     CRC32C of bytes [0, 28)
 *
 * blocks, back to back from offset 32
 * 0       4     u: bytes of records in the block before compression (0 in the end block)
 * 4       4     c: bytes stored (0 in the end block)
 * 8       4     CRC32C of bytes [0, 8) of this block followed by its c stored bytes
 * 12      c     u bytes of whole records in the {@link RecordFormat}, compressed by the codec
 *
 * end block: u = 0, c = 0; nothing follows it
 * </pre>
 *
 * <p>A block holds whole records, up to the configured block size, or one larger record alone, so
 * damage costs at most the records of one block and a reader needs one block in memory. The file
 * is written under a temporary name, forced and renamed into place ({@link #finish}); a packed
 * segment under its final name is therefore always complete, and a missing end block means damage,
 * not a torn write.
 *
 * <p>Not thread-safe: used by the log's background thread alone.
 */
final class PackedSegmentWriter implements Closeable {

  static final int MAGIC = 0x48544C50;
  static final byte VERSION = 1;
  static final int HEADER_BYTES = 32;
  static final int BLOCK_HEADER_BYTES = 12;

  private final Path target;
  private final Path temp;
  private final Codec codec;
  private final FileChannel channel;
  private final byte[] block;
  private byte[] stored;
  private int blockFill;
  private long size;
  private boolean finished;

  /**
   * Starts {@code target}'s temporary sibling.
   *
   * @param last last sequence number the segment covers
   * @param blockBytes records gathered per block before compression
   */
  PackedSegmentWriter(Path target, Codec codec, long base, long last, int blockBytes)
      throws IOException {
    this.target = target;
    this.temp = SegmentFiles.temp(target);
    this.codec = codec;
    this.block = new byte[blockBytes];
    this.stored = new byte[BLOCK_HEADER_BYTES + codec.maxCompressedLength(blockBytes)];
    Files.deleteIfExists(temp);
    this.channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE);
    byte[] header = header(codec, base, last);
    writeFully(header, header.length);
  }

  static byte[] header(Codec codec, long base, long last) {
    byte[] header = new byte[HEADER_BYTES];
    RecordFormat.putInt(header, 0, MAGIC);
    header[4] = VERSION;
    header[5] = (byte) codec.id();
    RecordFormat.putLong(header, 8, base);
    RecordFormat.putLong(header, 16, last);
    RecordFormat.putInt(header, 28, checksum(header, 0, 28));
    return header;
  }

  /** Adds one encoded record. */
  void add(byte[] record, int off, int length) throws IOException {
    if (blockFill > 0 && blockFill + length > block.length) {
      flushBlock();
    }
    if (length > block.length) {
      writeBlock(record, off, length);
    } else {
      System.arraycopy(record, off, block, blockFill, length);
      blockFill += length;
    }
  }

  private void flushBlock() throws IOException {
    if (blockFill > 0) {
      writeBlock(block, 0, blockFill);
      blockFill = 0;
    }
  }

  private void writeBlock(byte[] src, int off, int length) throws IOException {
    int bound = BLOCK_HEADER_BYTES + codec.maxCompressedLength(length);
    if (bound > stored.length) {
      stored = new byte[bound];
    }
    int c = codec.compress(src, off, length, stored, BLOCK_HEADER_BYTES);
    RecordFormat.putInt(stored, 0, length);
    RecordFormat.putInt(stored, 4, c);
    RecordFormat.putInt(stored, 8, blockChecksum(stored, c));
    writeFully(stored, BLOCK_HEADER_BYTES + c);
  }

  static int blockChecksum(byte[] blockBytes, int storedLength) {
    CRC32C crc = new CRC32C();
    crc.update(blockBytes, 0, 8);
    crc.update(blockBytes, BLOCK_HEADER_BYTES, storedLength);
    return (int) crc.getValue();
  }

  static int checksum(byte[] bytes, int off, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, off, length);
    return (int) crc.getValue();
  }

  private void writeFully(byte[] bytes, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes, 0, length);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    size += length;
  }

  /**
   * Writes the last block and the end block, forces the file and renames it over the target.
   * Returns the file's size.
   */
  long finish() throws IOException {
    flushBlock();
    byte[] end = new byte[BLOCK_HEADER_BYTES];
    RecordFormat.putInt(end, 8, blockChecksum(end, 0));
    writeFully(end, end.length);
    channel.force(false);
    channel.close();
    SegmentFiles.moveDurably(temp, target);
    finished = true;
    return size;
  }

  /** Closes, and deletes the temporary file unless {@link #finish} succeeded. */
  @Override
  public void close() throws IOException {
    channel.close();
    if (!finished) {
      Files.deleteIfExists(temp);
    }
  }
}
