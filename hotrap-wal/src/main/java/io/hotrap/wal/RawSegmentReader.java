package io.hotrap.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Streams the records of a raw segment ({@link RawSegmentWriter} gives the format) through a
 * buffer, so a segment of any size is read in bounded memory.
 *
 * <p>Not thread-safe.
 */
final class RawSegmentReader implements SegmentReader {

  private static final int BUFFER_BYTES = 256 << 10;

  private final FileChannel channel;
  private final long fileBytes;
  private final long base;
  private byte[] buf = new byte[BUFFER_BYTES];
  /** File offset of buf[0]. */
  private long bufStart;
  private int bufLimit;
  /** File offset of the next record. */
  private long offset;
  private long previousSeq = -1;
  private int lastRecordBytes;
  private ReadFailure failure;

  RawSegmentReader(Path file, long base) throws IOException {
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
    if (fileBytes < RawSegmentWriter.HEADER_BYTES) {
      failure = new ReadFailure(0, "file of " + fileBytes + " bytes is shorter than the header",
          true);
      return;
    }
    byte[] header = new byte[RawSegmentWriter.HEADER_BYTES];
    readFully(header, 0);
    long named = RawSegmentWriter.parseHeader(header);
    if (named != base) {
      failure = new ReadFailure(0, named < 0 ? "damaged header"
          : "header names base " + named + ", file name " + base,
          fileBytes == RawSegmentWriter.HEADER_BYTES);
      return;
    }
    offset = RawSegmentWriter.HEADER_BYTES;
    bufStart = offset;
  }

  @Override
  public LogRecord next() throws IOException {
    if (failure != null) {
      return null;
    }
    long remaining = fileBytes - offset;
    if (remaining == 0) {
      return null;
    }
    if (remaining < RecordFormat.HEADER_BYTES) {
      return fail("partial record header of " + remaining + " bytes", true);
    }
    int at = ensure(RecordFormat.HEADER_BYTES);
    int n = RecordFormat.bodyLength(buf, at);
    if (n < 0) {
      return fail("record length " + RecordFormat.getInt(buf, at) + " out of range",
          zerosToEnd());
    }
    int size = RecordFormat.HEADER_BYTES + n;
    if (size > remaining) {
      return fail("record of " + size + " bytes runs past the end of the file", true);
    }
    at = ensure(size);
    LogRecord record = RecordFormat.decode(buf, at, n);
    if (record == null) {
      return fail(RecordFormat.describeFailure(buf, at, n), offset + size == fileBytes);
    }
    if (record.seq() < base || record.seq() <= previousSeq) {
      return fail("sequence number " + record.seq() + " out of order (base " + base
          + ", previous " + previousSeq + ")", false);
    }
    previousSeq = record.seq();
    offset += size;
    lastRecordBytes = size;
    return record;
  }

  private LogRecord fail(String reason, boolean reachesEnd) {
    failure = new ReadFailure(offset, reason, reachesEnd);
    return null;
  }

  /** Makes {@code bytes} bytes from {@code offset} available in buf; returns their index. */
  private int ensure(int bytes) throws IOException {
    int at = (int) (offset - bufStart);
    if (at + bytes <= bufLimit) {
      return at;
    }
    byte[] target = bytes > buf.length ? new byte[Math.max(bytes, buf.length * 2)] : buf;
    int keep = bufLimit - at;
    System.arraycopy(buf, at, target, 0, keep);
    buf = target;
    bufStart = offset;
    int want = (int) Math.min(target.length, fileBytes - bufStart);
    readFully(ByteBuffer.wrap(target, keep, want - keep), bufStart + keep);
    bufLimit = want;
    return 0;
  }

  private boolean zerosToEnd() throws IOException {
    byte[] scratch = new byte[64 << 10];
    for (long pos = offset; pos < fileBytes; ) {
      int length = (int) Math.min(scratch.length, fileBytes - pos);
      readFully(ByteBuffer.wrap(scratch, 0, length), pos);
      for (int i = 0; i < length; i++) {
        if (scratch[i] != 0) {
          return false;
        }
      }
      pos += length;
    }
    return true;
  }

  private void readFully(byte[] target, long position) throws IOException {
    readFully(ByteBuffer.wrap(target), position);
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
    return offset;
  }

  @Override
  public long coveredLast() {
    return -1;
  }

  @Override
  public long fileBytes() {
    return fileBytes;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
