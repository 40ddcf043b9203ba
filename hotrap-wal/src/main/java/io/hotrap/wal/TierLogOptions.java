package io.hotrap.wal;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Settings of a {@link TierLog}, immutable; build with {@link #builder()}. Each builder method
 * rejects a value out of range at once, naming it, and {@link Builder#build()} rejects missing or
 * conflicting ones.
 *
 * <p>Thread-safe (immutable).
 */
public final class TierLogOptions {

  /** 64 MiB, the paper's example segment size (§3.1). */
  public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;
  public static final long MIN_SEGMENT_BYTES = 1 << 10;
  public static final long MAX_SEGMENT_BYTES = 1L << 30;

  /** λ_t = 2.5: the paper keeps the log below 2.5 times the memory tier (§4.1). */
  public static final double DEFAULT_TRIM_TRIGGER_RATIO = 2.5;

  /**
   * λ_s defaults to this share of λ_t (2.25 for the default λ_t); the paper gives no value.
   *
   * <p>The gap trades trim writes against the log's mean size; the peak is fixed by λ_t either
   * way. {@code TrimThresholdSimulation} (hotrap-wal's tests; 64 segments per tier, one record
   * dying per append, 2.5 million appends) measured, in records rewritten by trims per record
   * appended and mean log size in tiers:
   *
   * <pre>
   * λ_s     uniform deaths   oldest-first tenth   a sticky fifth
   * 1.50    0.272  1.99      0.195  2.01          0.307  1.99
   * 2.00    0.168  2.23      0.130  2.24          0.222  2.23
   * 2.25    0.137  2.35      0.108  2.35          0.194  2.35
   * 2.40    0.123  2.42      0.091  2.42          0.180  2.43
   * </pre>
   *
   * <p>A target near the trigger rewrites the fewest bytes, because each round only takes the
   * segments with the lowest live share; the cost is more rounds (at 2.25, one every 17 seals; at
   * 2.4, one every 8) and a slightly larger mean log. 0.9 λ_t keeps most of the saving over 2.0
   * (13 to 18% fewer trim writes) with rounds still rare.
   */
  public static final double DEFAULT_TRIM_TARGET_SHARE = 0.9;

  /**
   * 0: every sealed segment is compressed. A log whose records die soon after they are sealed
   * (a memory tier that trims by a watermark) is better left raw until it is large: compressing
   * writes each record a second time.
   */
  public static final double DEFAULT_COMPRESS_ABOVE_RATIO = 0;

  /** 1 MiB of records per compressed block: large enough for zstd's window to pay off. */
  public static final int DEFAULT_BLOCK_BYTES = 1 << 20;
  public static final int MIN_BLOCK_BYTES = 1 << 10;
  public static final int MAX_BLOCK_BYTES = 64 << 20;

  /** Bytes of {@link Durability#BUFFERED} appends held before the appender writes them itself. */
  public static final long DEFAULT_MAX_BUFFERED_BYTES = 4L << 20;

  private final Path directory;
  private final long memoryTierBytes;
  private final long segmentBytes;
  private final Codec codec;
  private final double trimTriggerRatio;
  private final double trimTargetRatio;
  private final double compressAboveRatio;
  private final int blockBytes;
  private final long maxBufferedBytes;

  private TierLogOptions(Builder b) {
    this.directory = b.directory;
    this.memoryTierBytes = b.memoryTierBytes;
    this.segmentBytes = b.segmentBytes;
    this.codec = b.codec;
    this.trimTriggerRatio = b.trimTriggerRatio;
    this.trimTargetRatio = Double.isNaN(b.trimTargetRatio)
        ? DEFAULT_TRIM_TARGET_SHARE * b.trimTriggerRatio
        : b.trimTargetRatio;
    this.compressAboveRatio = b.compressAboveRatio;
    this.blockBytes = b.blockBytes;
    this.maxBufferedBytes = b.maxBufferedBytes;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Directory of the segment files; created if missing; one log per directory. */
  public Path directory() {
    return directory;
  }

  /** Size of the volatile tier the log protects, the denominator of λ; bytes. */
  public long memoryTierBytes() {
    return memoryTierBytes;
  }

  /** A segment is sealed once it holds this many bytes; default 64 MiB. */
  public long segmentBytes() {
    return segmentBytes;
  }

  /** Compression of sealed segments; default {@link Codec#LZ4}. */
  public Codec codec() {
    return codec;
  }

  /** λ_t: trim starts once log bytes exceed this many times {@link #memoryTierBytes}; 2.5. */
  public double trimTriggerRatio() {
    return trimTriggerRatio;
  }

  /** λ_s: trim stops once log bytes are at most this many times the tier; 0.9 λ_t. */
  public double trimTargetRatio() {
    return trimTargetRatio;
  }

  /**
   * Sealed segments are compressed only while the log holds more than this many times {@link
   * #memoryTierBytes()}; 0 compresses every one.
   */
  public double compressAboveRatio() {
    return compressAboveRatio;
  }

  /** Bytes of records per compressed block; 1 MiB. */
  public int blockBytes() {
    return blockBytes;
  }

  /** Bytes of buffered appends held before an appender writes them; 4 MiB. */
  public long maxBufferedBytes() {
    return maxBufferedBytes;
  }

  @Override
  public String toString() {
    return "TierLogOptions[directory=" + directory + ", memoryTierBytes=" + memoryTierBytes
        + ", segmentBytes=" + segmentBytes + ", codec=" + codec + ", trimTriggerRatio="
        + trimTriggerRatio + ", trimTargetRatio=" + trimTargetRatio + ", compressAboveRatio="
        + compressAboveRatio + ", blockBytes="
        + blockBytes + ", maxBufferedBytes=" + maxBufferedBytes + "]";
  }

  /** Validating builder; not thread-safe. */
  public static final class Builder {
    private Path directory;
    private long memoryTierBytes = -1;
    private long segmentBytes = DEFAULT_SEGMENT_BYTES;
    private Codec codec = Codec.LZ4;
    private double trimTriggerRatio = DEFAULT_TRIM_TRIGGER_RATIO;
    private double trimTargetRatio = Double.NaN;
    private double compressAboveRatio = DEFAULT_COMPRESS_ABOVE_RATIO;
    private int blockBytes = DEFAULT_BLOCK_BYTES;
    private long maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES;

    private Builder() {}

    /** Required. */
    public Builder directory(Path directory) {
      this.directory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** Required; at least 1. */
    public Builder memoryTierBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("memoryTierBytes must be at least 1 but was " + bytes);
      }
      this.memoryTierBytes = bytes;
      return this;
    }

    /** Between {@value #MIN_SEGMENT_BYTES} and {@value #MAX_SEGMENT_BYTES}. */
    public Builder segmentBytes(long bytes) {
      if (bytes < MIN_SEGMENT_BYTES || bytes > MAX_SEGMENT_BYTES) {
        throw new IllegalArgumentException("segmentBytes must be between " + MIN_SEGMENT_BYTES
            + " and " + MAX_SEGMENT_BYTES + " but was " + bytes);
      }
      this.segmentBytes = bytes;
      return this;
    }

    public Builder codec(Codec codec) {
      this.codec = Objects.requireNonNull(codec, "codec");
      return this;
    }

    /** λ_t, above 1 and at most 1000. */
    /** See {@link TierLogOptions#compressAboveRatio()}; 0 to 1000. */
    public Builder compressAboveRatio(double ratio) {
      if (!(ratio >= 0 && ratio <= 1000)) {
        throw new IllegalArgumentException(
            "compressAboveRatio must be between 0 and 1000 but was " + ratio);
      }
      this.compressAboveRatio = ratio;
      return this;
    }

    public Builder trimTriggerRatio(double ratio) {
      if (!(ratio > 1 && ratio <= 1000)) {
        throw new IllegalArgumentException(
            "trimTriggerRatio must be above 1 and at most 1000 but was " + ratio);
      }
      this.trimTriggerRatio = ratio;
      return this;
    }

    /**
     * λ_s, above 0 and below λ_t (checked by {@link #build()}). Below 1 makes sense only with
     * compression, which can make the log smaller than the tier.
     */
    public Builder trimTargetRatio(double ratio) {
      if (!(ratio > 0 && ratio <= 1000)) {
        throw new IllegalArgumentException(
            "trimTargetRatio must be above 0 and at most 1000 but was " + ratio);
      }
      this.trimTargetRatio = ratio;
      return this;
    }

    /** Between {@value #MIN_BLOCK_BYTES} and {@value #MAX_BLOCK_BYTES}. */
    public Builder blockBytes(int bytes) {
      if (bytes < MIN_BLOCK_BYTES || bytes > MAX_BLOCK_BYTES) {
        throw new IllegalArgumentException("blockBytes must be between " + MIN_BLOCK_BYTES
            + " and " + MAX_BLOCK_BYTES + " but was " + bytes);
      }
      this.blockBytes = bytes;
      return this;
    }

    /** At least 0 (0 writes every buffered append at once). */
    public Builder maxBufferedBytes(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("maxBufferedBytes must be at least 0 but was " + bytes);
      }
      this.maxBufferedBytes = bytes;
      return this;
    }

    /** Throws if the directory or the tier size is missing, or if λ_s is not below λ_t. */
    public TierLogOptions build() {
      if (directory == null) {
        throw new IllegalStateException("directory was not set");
      }
      if (memoryTierBytes < 1) {
        throw new IllegalStateException("memoryTierBytes was not set");
      }
      if (!Double.isNaN(trimTargetRatio) && trimTargetRatio >= trimTriggerRatio) {
        throw new IllegalStateException("trimTargetRatio " + trimTargetRatio
            + " must be below trimTriggerRatio " + trimTriggerRatio);
      }
      return new TierLogOptions(this);
    }
  }
}
