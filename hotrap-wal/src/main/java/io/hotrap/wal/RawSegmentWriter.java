package io.hotrap.wal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Appends records to a raw segment, the file every record is first written to.
 *
 * <p>Format, integers big-endian:
 *
 * <pre>
 * offset  size  field
 * 0       4     magic "HTLR" (0x48544C52)
 * 4       1     format version, 1
 * 5       3     zero
 * 8       8     base: the segment's first sequence number, also its file name
 * 16      4     CRC32C of bytes [0, 16)
 * 20      ...   records in the {@link RecordFormat}, back to back, sequence numbers increasing
 * </pre>
 *
 * <p>There is no trailer: the file ends where the last write ended. A crash may leave a torn last
 * record (or zeros the file system appended), which {@link Recovery} cuts off; a segment that was
 * sealed was forced before the next one was created, so only the newest raw segment can be torn.
 * The header is forced, and the directory entry synced, before the first record is written, so a
 * segment whose records were synced is always found again.
 *
 * <p>Not thread-safe: only the log's current group-commit leader writes, one at a time.
 */
final class RawSegmentWriter implements Closeable {

  static final int MAGIC = 0x48544C52;
  static final byte VERSION = 1;
  static final int HEADER_BYTES = 20;

  private final Path file;
  private final long base;
  private final FileChannel channel;
  private long size;

  private RawSegmentWriter(Path file, long base, FileChannel channel, long size) {
    this.file = file;
    this.base = base;
    this.channel = channel;
    this.size = size;
  }

  /** Creates {@code <base>.log} in {@code dir}; fails if it exists. */
  static RawSegmentWriter create(Path dir, long base) throws IOException {
    Path file = SegmentFiles.raw(dir, base);
    FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE);
    boolean success = false;
    try {
      ByteBuffer header = ByteBuffer.wrap(header(base));
      while (header.hasRemaining()) {
        channel.write(header);
      }
      channel.force(false);
      SegmentFiles.syncDirectory(dir);
      success = true;
      return new RawSegmentWriter(file, base, channel, HEADER_BYTES);
    } finally {
      if (!success) {
        channel.close();
      }
    }
  }

  static byte[] header(long base) {
    byte[] header = new byte[HEADER_BYTES];
    RecordFormat.putInt(header, 0, MAGIC);
    header[4] = VERSION;
    RecordFormat.putLong(header, 8, base);
    RecordFormat.putInt(header, 16, headerChecksum(header));
    return header;
  }

  /** The base a header names, or -1 if the header is damaged or of another format. */
  static long parseHeader(byte[] header) {
    if (RecordFormat.getInt(header, 0) != MAGIC || header[4] != VERSION
        || RecordFormat.getInt(header, 16) != headerChecksum(header)) {
      return -1;
    }
    return RecordFormat.getLong(header, 8);
  }

  private static int headerChecksum(byte[] header) {
    CRC32C crc = new CRC32C();
    crc.update(header, 0, 16);
    return (int) crc.getValue();
  }

  /** Writes every remaining byte of {@code buffers} at the end of the file. */
  void write(ByteBuffer[] buffers) throws IOException {
    long expected = 0;
    for (ByteBuffer buffer : buffers) {
      expected += buffer.remaining();
    }
    long written = 0;
    while (written < expected) {
      written += channel.write(buffers);
    }
    size += written;
  }

  /** Forces the written records to the device (data, and the size needed to read them). */
  void force() throws IOException {
    channel.force(false);
  }

  long size() {
    return size;
  }

  long base() {
    return base;
  }

  Path file() {
    return file;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
