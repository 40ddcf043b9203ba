package io.hotrap.ralt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Writes one {@link Segment} file from records given in strictly ascending key order, building the
 * in-memory index as it goes.
 *
 * <h2>File layout</h2>
 * Written once, never modified. All integers big-endian.
 * <pre>
 * header   16 bytes   magic "HRALTSG1" (8), format version = 1 (4), reserved = 0 (4)
 * block*              length L of the payload (4), record count (4), payload: L bytes of
 *                     {@link AccessRecord}s in strictly ascending unsigned key order,
 *                     CRC32C of the preceding 8 + L bytes (4)
 * footer   32 bytes   magic "HRALTEND" (8), block count (4), record count (8),
 *                     offset of the footer = end of the last block (8), CRC32C of the preceding
 *                     28 footer bytes (4)
 * </pre>
 * Keys ascend across blocks too. A block holds records until the next one would pass the block size;
 * a record larger than a block gets a block of its own.
 *
 * <p>Output is written block by block; a writer that fails or is {@linkplain #abort() aborted}
 * deletes its partial file, so a half-written segment never outlives its writer. Not thread-safe.
 */
final class SegmentWriter {
  private final long id;
  private final Path path;
  private final int blockBytes;
  private final IoStats io;
  private final FileChannel out;
  private final SegmentIndexBuilder index;
  private final AccessRecord view = new AccessRecord();
  private byte[] block;
  private int blockUsed;
  private int blockRecords;
  private long fileBytes;
  private boolean done;

  SegmentWriter(long id, Path dir, int blockBytes, int bloomBitsPerKey, IoStats io)
      throws IOException {
    this.id = id;
    this.path = Segment.fileName(dir, id);
    this.blockBytes = blockBytes;
    this.io = io;
    this.index = new SegmentIndexBuilder(bloomBitsPerKey);
    this.block = new byte[blockBytes + Segment.BLOCK_OVERHEAD];
    this.out = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    boolean ok = false;
    try {
      ByteBuffer header = ByteBuffer.allocate(Segment.HEADER_BYTES);
      header.put(Segment.MAGIC).putInt(Segment.FORMAT_VERSION).putInt(0).flip();
      write(header);
      ok = true;
    } finally {
      if (!ok) {
        abort();
      }
    }
    blockUsed = 8;
  }

  /** Appends a record; its hot flag decides whether it counts as hot. */
  void add(AccessRecord r) throws IOException {
    int size = r.encodedSize();
    if (blockRecords > 0 && blockUsed + size > blockBytes + 8) {
      flushBlock();
    }
    if (blockUsed + size + 4 > block.length) {
      byte[] bigger = new byte[blockUsed + size + 4];
      System.arraycopy(block, 0, bigger, 0, blockUsed);
      block = bigger;
    }
    int at = blockUsed;
    r.encode(block, at);
    view.decode(block, at);
    if (blockRecords == 0) {
      index.startBlock(fileBytes, 0, view);
    }
    index.add(view, size);
    blockUsed += size;
    blockRecords++;
  }

  /** Bytes of the file so far, counting the block being filled. */
  long size() {
    return fileBytes + blockUsed + 4;
  }

  boolean isEmpty() {
    return index.recordCount() == 0;
  }

  private void flushBlock() throws IOException {
    int payload = blockUsed - 8;
    putInt(block, 0, payload);
    putInt(block, 4, blockRecords);
    CRC32C crc = new CRC32C();
    crc.update(block, 0, blockUsed);
    putInt(block, blockUsed, (int) crc.getValue());
    int length = blockUsed + 4;
    index.setLastBlockLength(length);
    index.saveLastKey();
    write(ByteBuffer.wrap(block, 0, length));
    blockUsed = 8;
    blockRecords = 0;
  }

  private void write(ByteBuffer bb) throws IOException {
    int n = bb.remaining();
    while (bb.hasRemaining()) {
      out.write(bb);
    }
    fileBytes += n;
    io.wrote(n);
  }

  /** Writes the last block and the footer and returns the segment; the writer is done. */
  Segment finish() throws IOException {
    boolean ok = false;
    try {
      if (blockRecords > 0) {
        flushBlock();
      }
      if (index.blocks() == 0) {
        throw new IllegalStateException("empty segment");
      }
      ByteBuffer footer = ByteBuffer.allocate(Segment.FOOTER_BYTES);
      footer.put(Segment.FOOTER_MAGIC).putInt(index.blocks()).putLong(index.recordCount())
          .putLong(fileBytes);
      CRC32C crc = new CRC32C();
      crc.update(footer.array(), 0, 28);
      footer.putInt((int) crc.getValue()).flip();
      write(footer);
      out.close();
      done = true;
      ok = true;
      return index.build(id, path, fileBytes, io);
    } finally {
      if (!ok) {
        abort();
      }
    }
  }

  /** Closes and deletes the partial file. Idempotent; never throws. */
  void abort() {
    if (done) {
      return;
    }
    done = true;
    try {
      out.close();
    } catch (IOException ignored) {
      // the file is deleted below either way
    }
    try {
      if (Files.deleteIfExists(path)) {
        io.deleted(fileBytes);
      }
    } catch (IOException ignored) {
      // an orphan file is removed when the tracker next opens
    }
  }

  private static void putInt(byte[] b, int off, int v) {
    b[off] = (byte) (v >>> 24);
    b[off + 1] = (byte) (v >>> 16);
    b[off + 2] = (byte) (v >>> 8);
    b[off + 3] = (byte) v;
  }
}
