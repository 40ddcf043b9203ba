package io.hotrap.cache.flash;

import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * One region being filled in memory, and the on-flash format of the items in it. The flash tier
 * packs items into a region-sized buffer and writes the buffer to the region file in one
 * sequential write once it is full (as CacheLib's Navy block cache does), so small items share
 * pages and every byte the device is given is written once.
 *
 * <h2>Item format</h2>
 * Integers are big-endian. An item of a {@code k}-byte key and a {@code v}-byte value takes
 * {@value #HEADER_BYTES}{@code  + k + v} bytes:
 * <pre>
 * offset    size  field
 * 0         4     CRC32C of bytes [4, 26 + k + v): the rest of the header, the key and the value
 * 4         8     generation of the region fill the item was written in (signed, never 0)
 * 12        8     group of the item (signed; {@link FlashCache#NO_GROUP} for none)
 * 20        2     key length k (unsigned, at most {@value #MAX_KEY_BYTES})
 * 22        4     value length v (signed, at least 0)
 * 26        k     key bytes
 * 26 + k    v     value bytes
 * </pre>
 *
 * <h2>Region format</h2>
 * A region is {@code regionBytes} long. Items follow one another from offset 0 with no padding or
 * alignment; after the last item the bytes are unspecified (zeros, or an earlier fill's leftovers),
 * since the flash index and the checkpoint say where every live item starts and how long it is.
 * A region is written from offset 0 up to its last item rounded up to {@value #PAGE_BYTES} bytes.
 * The region file {@code regions} holds region {@code i} at bytes
 * {@code [i × regionBytes, (i + 1) × regionBytes)}.
 *
 * <h2>Reading an item back</h2>
 * {@link #decode} accepts an item only if its CRC matches, its generation is the one the index
 * expects, its lengths add up to the length the index recorded and its key is the key looked up.
 * A torn or corrupt item, or a slot reused by a later fill, is therefore a miss, never another
 * key's or another fill's value. CRC32C detects every error burst of up to 32 bits and misses a
 * random corruption with a probability of 2<sup>-32</sup>; the generation and key checks come on
 * top of it.
 *
 * <h2>Concurrency</h2>
 * Not thread-safe: the owner ({@link RegionStore}) appends under its lock. Readers copy bytes
 * without the lock and then check {@link #stamp}, which changes before the buffer is refilled for
 * another region (see {@link RegionStore#read}).
 */
final class RegionBuffer {
  /** Bytes of an item's header. */
  static final int HEADER_BYTES = 26;
  /** Longest key the format can hold: its length is two bytes. */
  static final int MAX_KEY_BYTES = 0xFFFF;
  /** Unit a region's written prefix is rounded up to. */
  static final int PAGE_BYTES = 4096;
  /** The stamp of a buffer that holds no region. */
  static final long NO_STAMP = 0;

  private static final ThreadLocal<CRC32C> CRC = ThreadLocal.withInitial(CRC32C::new);

  final byte[] data;
  private int position;
  /** Generation of the region fill the buffer holds, or {@link #NO_STAMP}; set by the owner. */
  volatile long stamp = NO_STAMP;

  RegionBuffer(int regionBytes) {
    this.data = new byte[regionBytes];
  }

  /** Bytes an item of this key and value takes. */
  static int itemLength(int keyLength, int valueLength) {
    return HEADER_BYTES + keyLength + valueLength;
  }

  /** Starts a new fill: empties the buffer (the old bytes stay until overwritten). */
  void reset(long generation) {
    position = 0;
    stamp = generation;
  }

  int position() {
    return position;
  }

  int remaining() {
    return data.length - position;
  }

  /** Bytes to write for the items appended so far: the position rounded up to a page. */
  int writeLength() {
    int rounded = (position + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
    return Math.min(rounded, data.length);
  }

  /**
   * Appends an item of fill {@code generation}; the caller checked that it fits.
   *
   * @return the offset of the item in the region
   */
  int append(byte[] key, byte[] value, long group, long generation) {
    int off = position;
    int len = itemLength(key.length, value.length);
    encode(data, off, key, value, group, generation);
    position = off + len;
    return off;
  }

  /** Writes one item at {@code off} of {@code dst}; {@code dst} must have room for it. */
  static void encode(byte[] dst, int off, byte[] key, byte[] value, long group, long generation) {
    putLong(dst, off + 4, generation);
    putLong(dst, off + 12, group);
    dst[off + 20] = (byte) (key.length >>> 8);
    dst[off + 21] = (byte) key.length;
    putInt(dst, off + 22, value.length);
    System.arraycopy(key, 0, dst, off + HEADER_BYTES, key.length);
    System.arraycopy(value, 0, dst, off + HEADER_BYTES + key.length, value.length);
    CRC32C crc = CRC.get();
    crc.reset();
    crc.update(dst, off + 4, itemLength(key.length, value.length) - 4);
    putInt(dst, off, (int) crc.getValue());
  }

  /**
   * The value of the item at {@code src[off, off + length)}, or {@code null} if that is not a
   * whole, intact item of {@code key} written in fill {@code generation}.
   */
  static byte[] decode(byte[] src, int off, int length, byte[] key, long generation) {
    if (length < HEADER_BYTES || off < 0 || off > src.length - length) {
      return null;
    }
    CRC32C crc = CRC.get();
    crc.reset();
    crc.update(src, off + 4, length - 4);
    if ((int) crc.getValue() != getInt(src, off)) {
      return null;
    }
    if (getLong(src, off + 4) != generation) {
      return null;
    }
    int keyLength = ((src[off + 20] & 0xFF) << 8) | (src[off + 21] & 0xFF);
    int valueLength = getInt(src, off + 22);
    if (keyLength != key.length || valueLength < 0
        || (long) HEADER_BYTES + keyLength + valueLength != length) {
      return null;
    }
    int keyStart = off + HEADER_BYTES;
    if (!Arrays.equals(src, keyStart, keyStart + keyLength, key, 0, keyLength)) {
      return null;
    }
    int valueStart = keyStart + keyLength;
    return Arrays.copyOfRange(src, valueStart, valueStart + valueLength);
  }

  /** The group recorded in the item at {@code off}; meaningful only for an item {@link #decode} accepts. */
  static long group(byte[] src, int off) {
    return getLong(src, off + 12);
  }

  static void putInt(byte[] b, int off, int v) {
    b[off] = (byte) (v >>> 24);
    b[off + 1] = (byte) (v >>> 16);
    b[off + 2] = (byte) (v >>> 8);
    b[off + 3] = (byte) v;
  }

  static int getInt(byte[] b, int off) {
    return ((b[off] & 0xFF) << 24) | ((b[off + 1] & 0xFF) << 16) | ((b[off + 2] & 0xFF) << 8)
        | (b[off + 3] & 0xFF);
  }

  static void putLong(byte[] b, int off, long v) {
    putInt(b, off, (int) (v >>> 32));
    putInt(b, off + 4, (int) v);
  }

  static long getLong(byte[] b, int off) {
    return ((long) getInt(b, off) << 32) | (getInt(b, off + 4) & 0xFFFFFFFFL);
  }
}
