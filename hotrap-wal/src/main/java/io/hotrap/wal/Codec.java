package io.hotrap.wal;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * How the blocks of a packed segment are compressed (WAL-assisted tiering §3.2.1: whole sealed
 * segments, in the background, off the commit path).
 *
 * <p>The paper measured, at db_bench compressibility 0.5, ratios of 0.550 for LZ4 and 0.438 for
 * zstd (§4.5). {@code SegmentCodecBenchmark} in hotrap-bench, on 1 MiB blocks of such records,
 * measured 0.513 and 0.427 here, with LZ4 compressing about 20 times and decompressing about 15
 * times faster than zstd (on a loaded 2-core machine: about 1.9 GB/s and 10 GB/s against 85 MB/s
 * and 670 MB/s). LZ4 is the default: in the paper it recovers as fast as no compression (Table 4)
 * while zstd costs about 10% more, and here zstd's 17% smaller files cost a twentieth of the
 * compression speed on the single background thread.
 *
 * <p>Both native libraries come inside their jars and load on first use; on JDK 24 and later pass
 * {@code --enable-native-access=ALL-UNNAMED} to silence the JVM's warning. LZ4 falls back to its
 * pure Java implementation where the native one cannot load; zstd has no fallback, so {@link
 * TierLog#open} checks it is available before it accepts a log that uses it.
 *
 * <p>Every method is safe for any number of threads.
 */
public enum Codec {
  /** Blocks stored as they are. */
  NONE(0) {
    @Override
    public int maxCompressedLength(int length) {
      return length;
    }

    @Override
    public int compress(byte[] src, int srcOff, int length, byte[] dst, int dstOff) {
      System.arraycopy(src, srcOff, dst, dstOff, length);
      return length;
    }

    @Override
    public void decompress(byte[] src, int srcOff, int length, byte[] dst, int dstOff,
        int originalLength) throws IOException {
      if (length != originalLength) {
        throw new IOException("stored block of " + length + " bytes should have "
            + originalLength);
      }
      System.arraycopy(src, srcOff, dst, dstOff, length);
    }
  },

  /** LZ4's fast compressor; decompressed with the bounds-checking decompressor. */
  LZ4(1) {
    @Override
    public int maxCompressedLength(int length) {
      return Lz4.COMPRESSOR.maxCompressedLength(length);
    }

    @Override
    public int compress(byte[] src, int srcOff, int length, byte[] dst, int dstOff) {
      return Lz4.COMPRESSOR.compress(src, srcOff, length, dst, dstOff, dst.length - dstOff);
    }

    @Override
    public void decompress(byte[] src, int srcOff, int length, byte[] dst, int dstOff,
        int originalLength) throws IOException {
      int produced;
      try {
        produced = Lz4.DECOMPRESSOR.decompress(src, srcOff, length, dst, dstOff, originalLength);
      } catch (LZ4Exception e) {
        throw new IOException("LZ4 block does not decompress: " + e.getMessage(), e);
      }
      if (produced != originalLength) {
        throw new IOException("LZ4 block gave " + produced + " bytes, expected " + originalLength);
      }
    }
  },

  /** Zstandard at level 3, the library default. */
  ZSTD(2) {
    @Override
    public int maxCompressedLength(int length) {
      return Math.toIntExact(Zstd.compressBound(length));
    }

    @Override
    public int compress(byte[] src, int srcOff, int length, byte[] dst, int dstOff) {
      long size = Zstd.compressByteArray(dst, dstOff, dst.length - dstOff, src, srcOff, length,
          Zstandard.LEVEL);
      if (Zstd.isError(size)) {
        throw new IllegalStateException("zstd compression failed: " + Zstd.getErrorName(size));
      }
      return (int) size;
    }

    @Override
    public void decompress(byte[] src, int srcOff, int length, byte[] dst, int dstOff,
        int originalLength) throws IOException {
      long size = Zstd.decompressByteArray(dst, dstOff, originalLength, src, srcOff, length);
      if (Zstd.isError(size)) {
        throw new IOException("zstd block does not decompress: " + Zstd.getErrorName(size));
      }
      if (size != originalLength) {
        throw new IOException("zstd block gave " + size + " bytes, expected " + originalLength);
      }
    }
  };

  private final int id;

  Codec(int id) {
    this.id = id;
  }

  /** Upper bound of {@link #compress}'s output for {@code length} input bytes. */
  public abstract int maxCompressedLength(int length);

  /**
   * Compresses {@code length} bytes of {@code src} into {@code dst} at {@code dstOff}, which must
   * have room for {@link #maxCompressedLength}; returns the bytes written.
   */
  public abstract int compress(byte[] src, int srcOff, int length, byte[] dst, int dstOff);

  /**
   * Decompresses {@code length} bytes of {@code src} into exactly {@code originalLength} bytes of
   * {@code dst}; throws {@link IOException} if the input is damaged or decodes to another length.
   */
  public abstract void decompress(byte[] src, int srcOff, int length, byte[] dst, int dstOff,
      int originalLength) throws IOException;

  /** The byte that names this codec in a packed segment's header. */
  int id() {
    return id;
  }

  /** The codec a packed segment's header names, or null for an unknown byte. */
  static Codec byId(int id) {
    for (Codec codec : values()) {
      if (codec.id == id) {
        return codec;
      }
    }
    return null;
  }

  /**
   * Loads the native library now, so a platform without it fails when the log opens rather than
   * at the first background compression.
   *
   * @throws IllegalStateException if the codec cannot run here
   */
  void checkAvailable() {
    try {
      byte[] probe = new byte[64];
      byte[] out = new byte[maxCompressedLength(probe.length)];
      int length = compress(probe, 0, probe.length, out, 0);
      decompress(out, 0, length, new byte[probe.length], 0, probe.length);
    } catch (LinkageError | IOException | RuntimeException e) {
      throw new IllegalStateException("codec " + this + " cannot run on this platform: " + e, e);
    }
  }

  /** Holder so that LZ4's library loads only when LZ4 is used. */
  private static final class Lz4 {
    static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    static final LZ4SafeDecompressor DECOMPRESSOR =
        LZ4Factory.fastestInstance().safeDecompressor();
  }

  /** The level the paper's evaluation leaves at the library default. */
  private static final class Zstandard {
    static final int LEVEL = 3;
  }
}
