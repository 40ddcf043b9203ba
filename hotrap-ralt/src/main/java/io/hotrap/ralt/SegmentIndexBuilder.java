package io.hotrap.ralt;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * Accumulates a {@link Segment}'s in-memory index — block offsets, first keys, prefix sums of hot
 * bytes — and the hashes of its hot keys, record by record, whether the records are being written or
 * recovered from an existing file. Not thread-safe.
 */
final class SegmentIndexBuilder {
  private final int bloomBitsPerKey;
  /** Offset of each block, plus the end of the last one. */
  private int[] blockOffsets = new int[17];
  private long[] hotPrefix = new long[17];
  private int[] keyOffsets = new int[17];
  private byte[] keys = new byte[512];
  private int keysUsed;
  private int blocks;
  private long[] stableHashes = new long[64];
  private int stableCount;
  private long[] unstableHashes = new long[64];
  private int unstableCount;
  private long hotCount;
  private long hotBytes;
  private long recordCount;
  private long recordBytes;
  private long shadowedBytes;
  private byte[] lastKeyBuf;
  private int lastKeyOff;
  private int lastKeyLen;

  SegmentIndexBuilder(int bloomBitsPerKey) {
    this.bloomBitsPerKey = bloomBitsPerKey;
  }

  /** Opens a new block at file offset {@code offset} whose first record is {@code first}. */
  void startBlock(long offset, int length, AccessRecord first) {
    if (blocks + 1 == blockOffsets.length) {
      blockOffsets = Arrays.copyOf(blockOffsets, blocks * 2 + 1);
      hotPrefix = Arrays.copyOf(hotPrefix, blocks * 2 + 1);
      keyOffsets = Arrays.copyOf(keyOffsets, blocks * 2 + 1);
    }
    if (keys.length - keysUsed < first.keyLen) {
      keys = Arrays.copyOf(keys, Math.max(keys.length * 2, keysUsed + first.keyLen));
    }
    System.arraycopy(first.keyBuf, first.keyOff, keys, keysUsed, first.keyLen);
    keyOffsets[blocks] = keysUsed;
    keysUsed += first.keyLen;
    keyOffsets[blocks + 1] = keysUsed;
    blockOffsets[blocks] = Math.toIntExact(offset);
    blockOffsets[blocks + 1] = Math.toIntExact(offset + length);
    hotPrefix[blocks + 1] = hotPrefix[blocks];
    blocks++;
  }

  /** Sets the length of the block opened last, once it is known. */
  void setLastBlockLength(int length) {
    blockOffsets[blocks] = blockOffsets[blocks - 1] + length;
  }

  /** Adds a record of the block opened last. */
  void add(AccessRecord r, int encodedSize) {
    recordCount++;
    recordBytes += encodedSize;
    if (r.shadowed) {
      shadowedBytes += encodedSize;
    }
    if (r.hot || r.stableHot) {
      if (r.hot) {
        long size = r.hotSize();
        hotPrefix[blocks] += size;
        hotBytes += size;
      }
      long hash = KeyHash.hash(r.keyBuf, r.keyOff, r.keyLen);
      if (r.stableHot) {
        if (stableCount == stableHashes.length) {
          stableHashes = Arrays.copyOf(stableHashes, stableHashes.length * 2);
        }
        stableHashes[stableCount++] = hash;
      } else {
        if (unstableCount == unstableHashes.length) {
          unstableHashes = Arrays.copyOf(unstableHashes, unstableHashes.length * 2);
        }
        unstableHashes[unstableCount++] = hash;
      }
      hotCount++;
    }
    lastKeyBuf = r.keyBuf;
    lastKeyOff = r.keyOff;
    lastKeyLen = r.keyLen;
  }

  /** Remembers a copy of the last key added (call before its bytes are overwritten). */
  byte[] lastKey() {
    return Arrays.copyOfRange(lastKeyBuf, lastKeyOff, lastKeyOff + lastKeyLen);
  }

  long recordCount() {
    return recordCount;
  }

  int blocks() {
    return blocks;
  }

  private byte[] savedLastKey;

  void saveLastKey() {
    savedLastKey = lastKey();
  }

  Segment build(long id, Path path, long fileBytes, IoStats io) {
    byte[] last = savedLastKey != null ? savedLastKey : lastKey();
    return new Segment(id, path, fileBytes, recordCount, recordBytes, shadowedBytes, hotCount,
        hotBytes, last,
        Arrays.copyOf(blockOffsets, blocks + 1),
        Arrays.copyOf(keys, keysUsed), Arrays.copyOf(keyOffsets, blocks + 1),
        Arrays.copyOf(hotPrefix, blocks + 1),
        HotKeyFilter.build(stableHashes, stableCount, bloomBitsPerKey),
        HotKeyFilter.build(unstableHashes, unstableCount, bloomBitsPerKey), io);
  }
}
