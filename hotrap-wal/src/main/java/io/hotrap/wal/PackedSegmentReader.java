package io.hotrap.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads a packed segment ({@link PackedSegmentWriter} gives the format) one block at a time.
 * A block is decompressed only after its checksum matched, and its records are then checked one
 * by one as in a raw segment.
 *
 * <p>Not thread-safe.
 */
final class PackedSegmentReader implements SegmentReader {

  /** Bounds a damaged block length before it is used to allocate. */
  private static final int MAX_BLOCK_BYTES = 1 << 30;

  private final FileChannel channel;
  private final long fileBytes;
  private final long base;
  private Codec codec;
  private long coveredLast = -1;
  /** Offset of the next block. */
  private long offset;
  private long blockOffset;
  private byte[] records = new byte[0];
  private int recordsLimit;
  private int recordAt;
  private long previousSeq = -1;
  private int lastRecordBytes;
  private boolean ended;
  private ReadFailure failure;

  PackedSegmentReader(Path file, long base) throws IOException {
    this.channel = FileChannel.open(file, StandardOpenOption.READ);
    this.base = base;
    boolean success = false;
    try {
      this.fileBytes = channel.size();
      readHeader();
      success = true;
    } finally {
      if (!success) {
        channel.close();
      }
    }
  }

  private void readHeader() throws IOException {
    if (fileBytes < PackedSegmentWriter.HEADER_BYTES) {
      failure = new ReadFailure(0, "file of " + fileBytes + " bytes is shorter than the header",
          false);
      return;
    }
    byte[] header = new byte[PackedSegmentWriter.HEADER_BYTES];
    readFully(ByteBuffer.wrap(header), 0);
    if (RecordFormat.getInt(header, 0) != PackedSegmentWriter.MAGIC
        || header[4] != PackedSegmentWriter.VERSION
        || RecordFormat.getInt(header, 28) != PackedSegmentWriter.checksum(header, 0, 28)) {
      failure = new ReadFailure(0, "damaged header", false);
      return;
    }
    codec = Codec.byId(header[5]);
    long named = RecordFormat.getLong(header, 8);
    long last = RecordFormat.getLong(header, 16);
    if (codec == null || named != base || last < base - 1) {
      failure = new ReadFailure(0, "header names codec " + header[5] + ", base " + named
          + ", last " + last + " for a file of base " + base, false);
      return;
    }
    coveredLast = last;
    offset = PackedSegmentWriter.HEADER_BYTES;
  }

  @Override
  public LogRecord next() throws IOException {
    while (failure == null && recordAt == recordsLimit) {
      if (ended) {
        if (offset != fileBytes) {
          failure = new ReadFailure(offset, (fileBytes - offset) + " bytes after the end block",
              false);
        }
        return null;
      }
      readBlock();
    }
    if (failure != null) {
      return null;
    }
    int remaining = recordsLimit - recordAt;
    int n = remaining < RecordFormat.HEADER_BYTES ? -1 : RecordFormat.bodyLength(records, recordAt);
    if (n < 0 || RecordFormat.HEADER_BYTES + n > remaining) {
      return fail("block holds a partial record at " + recordAt);
    }
    LogRecord record = RecordFormat.decode(records, recordAt, n);
    if (record == null) {
      return fail(RecordFormat.describeFailure(records, recordAt, n) + " at " + recordAt
          + " in the block");
    }
    if (record.seq() < base || record.seq() <= previousSeq
        || record.seq() > coveredLast) {
      return fail("sequence number " + record.seq() + " out of order (base " + base
          + ", previous " + previousSeq + ", last " + coveredLast + ")");
    }
    previousSeq = record.seq();
    lastRecordBytes = RecordFormat.HEADER_BYTES + n;
    recordAt += lastRecordBytes;
    return record;
  }

  private void readBlock() throws IOException {
    blockOffset = offset;
    if (fileBytes - offset < PackedSegmentWriter.BLOCK_HEADER_BYTES) {
      fail("file ends without its end block");
      return;
    }
    byte[] header = new byte[PackedSegmentWriter.BLOCK_HEADER_BYTES];
    readFully(ByteBuffer.wrap(header), offset);
    int u = RecordFormat.getInt(header, 0);
    int c = RecordFormat.getInt(header, 4);
    if (u < 0 || c < 0 || u > MAX_BLOCK_BYTES || c > MAX_BLOCK_BYTES
        || c > fileBytes - offset - PackedSegmentWriter.BLOCK_HEADER_BYTES) {
      fail("block lengths " + u + "/" + c + " out of range");
      return;
    }
    byte[] stored = new byte[PackedSegmentWriter.BLOCK_HEADER_BYTES + c];
    readFully(ByteBuffer.wrap(stored), offset);
    if (RecordFormat.getInt(stored, 8) != PackedSegmentWriter.blockChecksum(stored, c)) {
      fail("block checksum mismatch");
      return;
    }
    offset += stored.length;
    if (u == 0 && c == 0) {
      ended = true;
      return;
    }
    if (records.length < u) {
      records = new byte[u];
    }
    try {
      codec.decompress(stored, PackedSegmentWriter.BLOCK_HEADER_BYTES, c, records, 0, u);
    } catch (IOException e) {
      offset = blockOffset;
      fail(e.getMessage());
      return;
    }
    recordsLimit = u;
    recordAt = 0;
  }

  private LogRecord fail(String reason) {
    failure = new ReadFailure(blockOffset, reason, false);
    return null;
  }

  private void readFully(ByteBuffer target, long position) throws IOException {
    long pos = position;
    while (target.hasRemaining()) {
      int read = channel.read(target, pos);
      if (read < 0) {
        throw new IOException("file shrank while being read, at offset " + pos);
      }
      pos += read;
    }
  }

  @Override
  public ReadFailure failure() {
    return failure;
  }

  @Override
  public int lastRecordBytes() {
    return lastRecordBytes;
  }

  @Override
  public long validEnd() {
    return fileBytes;
  }

  @Override
  public long coveredLast() {
    return coveredLast;
  }

  @Override
  public long fileBytes() {
    return fileBytes;
  }

  /** The codec named in the header, or null if the header was damaged. */
  Codec codec() {
    return codec;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
