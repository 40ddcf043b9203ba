package io.hotrap.ralt;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Immutable settings of a {@link Ralt}, built by {@link #builder()}.
 *
 * <p>Only {@link Builder#directory(Path)} and {@link Builder#fastDiskBytes(long)} are required.
 * Every other setting has the HotRAP paper's default (§3.2, §3.7, §5), most of them as a fraction of
 * the fast disk's size ("FD"), so a tracker for a 20 MiB fast tier behaves like the paper's at that
 * scale. The builder rejects a bad or conflicting value with a message that names it.
 */
public final class RaltOptions {

  /** Paper default of α, the decay factor per tick of exponential smoothing. */
  public static final double DEFAULT_ALPHA = 0.999;
  /** Paper default of γ: a tick passes every γ·FD bytes accessed. */
  public static final double DEFAULT_GAMMA = 0.1;
  /** Paper default of β: an eviction keeps {@code (1 − β)} of the physical limit. */
  public static final double DEFAULT_BETA = 0.1;
  /**
   * Default share of the hot-set limit an eviction cuts from the hot set. The paper cuts both limits
   * by β. The physical cut sets how often evictions come, and 0.1 keeps them rare; the hot set's cut
   * is fast-tier room left to records RALT no longer calls hot until the set grows back, so the hot
   * set averages about {@code 1 − cut/2} of its limit. With a cut of 0.1, Zipf 0.99 at its ceiling
   * lost 0.6 points of hit rate at 128 MiB (RALT alone, {@code hotrap-bench ralt-zipf}: 0.786
   * against 0.792 with 0.025) for 20% less of RALT's I/O; at 16 MiB 0.5 points for the same I/O.
   */
  public static final double DEFAULT_HOT_SET_BETA = 0.025;
  /** Paper default of Bloom filter bits per hot key. */
  public static final int DEFAULT_BLOOM_BITS_PER_KEY = 20;
  /**
   * Default size of a block of access records on disk: 4 KiB, as the official code's chunks (the
   * paper says 8 KiB). Range estimates are exact up to the two boundary blocks of each run, so
   * smaller blocks make {@link Ralt#hotSizeInRange} tighter, for about 0.3 bytes more index memory
   * per hot key.
   */
  public static final int DEFAULT_BLOCK_BYTES = 4 * 1024;
  /** Paper default of the initial hot-set limit as a fraction of FD. */
  public static final double DEFAULT_INITIAL_HOT_SET_FRACTION = 0.5;
  /** Paper default of the initial physical limit as a fraction of FD. */
  public static final double DEFAULT_INITIAL_PHYSICAL_FRACTION = 0.15;
  /** Paper default of Δc, the counter increment of Algorithm 1. */
  public static final double DEFAULT_DELTA_C = 2.6;
  /** Paper default of c_max, the counter ceiling of Algorithm 1. */
  public static final double DEFAULT_C_MAX = 5;
  /** Paper default of L_hs, the smallest auto-tuned hot-set limit, as a fraction of FD. */
  public static final double DEFAULT_MIN_HOT_SET_FRACTION = 0.05;
  /** Paper default of R_hs, the largest auto-tuned hot-set limit, as a fraction of FD. */
  public static final double DEFAULT_MAX_HOT_SET_FRACTION = 0.7;
  /** Paper default of D_hs, the room for unstable records, as a fraction of R_hs. */
  public static final double DEFAULT_UNSTABLE_FRACTION_OF_MAX = 0.1;
  /**
   * Default room for unstable records as a share of the stable records' hot bytes while they are
   * steady (while they grow the room is twice their growth per decay period); D_hs caps the share.
   * With the paper's fixed D_hs a small hotspot's limit overshoots it (D_hs = 0.07·FD against a
   * 1% hotspot of 0.11·FD: 1.7×). An eviction keeps {@code (1 − hotSetBeta)} of the limit, so a share
   * below hotSetBeta/(1 − hotSetBeta) would make every eviction cut into the stable records. 0.15
   * was measured with the paper's cut of 0.1 (floor 0.11) and keeps each stage's limit within a
   * quarter of its hotspot ({@code hotrap-bench ralt-stages}); with the cut of 0.025 the same share
   * gives the same limits.
   */
  public static final double DEFAULT_UNSTABLE_SHARE_OF_STABLE = 0.15;
  /**
   * Default ceiling of the pacing stretch of R (see {@link Ralt#record(byte[], int, boolean)}):
   * at a fast hit rate of 75% and above, R is four times its base. Under a 5% hot spot the hit rate
   * is ~94% and the stretch sits at this ceiling; the ceiling bounds how long records of a hot spot
   * that moved on stay stable (c_max·4·R_hs bytes of accesses).
   */
  public static final double DEFAULT_MAX_DECAY_STRETCH = 4;
  /** Default size ratio between adjacent levels of the tracker's LSM-tree. */
  public static final int DEFAULT_LEVEL_SIZE_RATIO = 10;
  /** Default number of runs level 0 holds before they merge into level 1. */
  public static final int DEFAULT_LEVEL0_RUN_LIMIT = 4;
  /** Default number of blocks an eviction samples to estimate its score thresholds. */
  public static final int DEFAULT_EVICTION_SAMPLE_BLOCKS = 256;

  static final int MAX_BLOCK_BYTES = 1 << 20;
  static final long MIN_BUFFER_BYTES = 64 * 1024;

  private final Path directory;
  private final long fastDiskBytes;
  private final double alpha;
  private final long tickPeriodBytes;
  private final double beta;
  private final double hotSetBeta;
  private final int bloomBitsPerKey;
  private final int blockBytes;
  private final long bufferBytes;
  private final long segmentBytes;
  private final long initialHotSetLimit;
  private final long initialPhysicalLimit;
  private final boolean autoTuning;
  private final double deltaC;
  private final double cMax;
  private final long minHotSetLimit;
  private final long maxHotSetLimit;
  private final long maxUnstableHotBytes;
  private final double unstableShareOfStable;
  private final long counterDecayPeriodBytes;
  private final double maxDecayStretch;
  private final Scorer scorer;
  private final int levelSizeRatio;
  private final int level0RunLimit;
  private final int evictionSampleBlocks;

  private RaltOptions(Builder b) {
    directory = b.directory;
    fastDiskBytes = b.fastDiskBytes;
    alpha = b.alpha;
    beta = b.beta;
    hotSetBeta = b.hotSetBeta;
    bloomBitsPerKey = b.bloomBitsPerKey;
    blockBytes = b.blockBytes;
    autoTuning = b.autoTuning;
    deltaC = b.deltaC;
    cMax = b.cMax;
    scorer = b.scorer;
    levelSizeRatio = b.levelSizeRatio;
    level0RunLimit = b.level0RunLimit;
    evictionSampleBlocks = b.evictionSampleBlocks;
    tickPeriodBytes = orDefault(b.tickPeriodBytes, Math.max(1, (long) (DEFAULT_GAMMA * fastDiskBytes)));
    initialHotSetLimit =
        orDefault(b.initialHotSetLimit, (long) (DEFAULT_INITIAL_HOT_SET_FRACTION * fastDiskBytes));
    initialPhysicalLimit =
        orDefault(b.initialPhysicalLimit, (long) (DEFAULT_INITIAL_PHYSICAL_FRACTION * fastDiskBytes));
    minHotSetLimit =
        orDefault(b.minHotSetLimit, (long) (DEFAULT_MIN_HOT_SET_FRACTION * fastDiskBytes));
    maxHotSetLimit =
        orDefault(b.maxHotSetLimit, (long) (DEFAULT_MAX_HOT_SET_FRACTION * fastDiskBytes));
    maxUnstableHotBytes =
        orDefault(b.maxUnstableHotBytes, (long) (DEFAULT_UNSTABLE_FRACTION_OF_MAX * maxHotSetLimit));
    unstableShareOfStable = b.unstableShareOfStable;
    counterDecayPeriodBytes = orDefault(b.counterDecayPeriodBytes, Math.max(1, maxHotSetLimit));
    maxDecayStretch = b.maxDecayStretch;
    bufferBytes =
        orDefault(b.bufferBytes, clamp(fastDiskBytes / 128, 4L << 20, 32L << 20));
    segmentBytes =
        orDefault(b.segmentBytes, clamp(initialPhysicalLimit / 64, 64L << 10, 8L << 20));
  }

  private static long orDefault(long value, long dflt) {
    return value >= 0 ? value : dflt;
  }

  private static long clamp(long v, long lo, long hi) {
    return Math.max(lo, Math.min(hi, v));
  }

  /** A builder with every setting at its default; directory and fast-disk size must be set. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this instance's settings, so a variant differs in what the caller changes. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.directory = directory;
    b.fastDiskBytes = fastDiskBytes;
    b.alpha = alpha;
    b.tickPeriodBytes = tickPeriodBytes;
    b.beta = beta;
    b.hotSetBeta = hotSetBeta;
    b.bloomBitsPerKey = bloomBitsPerKey;
    b.blockBytes = blockBytes;
    b.bufferBytes = bufferBytes;
    b.segmentBytes = segmentBytes;
    b.initialHotSetLimit = initialHotSetLimit;
    b.initialPhysicalLimit = initialPhysicalLimit;
    b.autoTuning = autoTuning;
    b.deltaC = deltaC;
    b.cMax = cMax;
    b.maxDecayStretch = maxDecayStretch;
    b.minHotSetLimit = minHotSetLimit;
    b.maxHotSetLimit = maxHotSetLimit;
    b.maxUnstableHotBytes = maxUnstableHotBytes;
    b.unstableShareOfStable = unstableShareOfStable;
    b.counterDecayPeriodBytes = counterDecayPeriodBytes;
    b.scorer = scorer;
    b.levelSizeRatio = levelSizeRatio;
    b.level0RunLimit = level0RunLimit;
    b.evictionSampleBlocks = evictionSampleBlocks;
    return b;
  }

  /** Directory holding the tracker's files (HotRAP keeps it on the fast disk). */
  public Path directory() { return directory; }

  /** Size of the fast disk ("FD") in bytes; most defaults are fractions of it. */
  public long fastDiskBytes() { return fastDiskBytes; }

  /** α, the per-tick decay of exponential smoothing; default {@value #DEFAULT_ALPHA}. */
  public double alpha() { return alpha; }

  /** Bytes accessed per tick; default γ·FD with γ = {@value #DEFAULT_GAMMA}. */
  public long tickPeriodBytes() { return tickPeriodBytes; }

  /**
   * β: an eviction brings the tracker's files to {@code (1 − β)} of the physical limit; default
   * {@value #DEFAULT_BETA}.
   */
  public double beta() { return beta; }

  /**
   * The hot set's β: an eviction brings the hot set to {@code (1 − hotSetBeta)} of the hot-set limit;
   * default {@value #DEFAULT_HOT_SET_BETA} (see {@link #DEFAULT_HOT_SET_BETA} for why it is not β).
   */
  public double hotSetBeta() { return hotSetBeta; }

  /** Bloom filter bits per hot key; default {@value #DEFAULT_BLOOM_BITS_PER_KEY}. */
  public int bloomBitsPerKey() { return bloomBitsPerKey; }

  /** Target size of an on-disk block of records, bytes; default {@value #DEFAULT_BLOCK_BYTES}. */
  public int blockBytes() { return blockBytes; }

  /**
   * Capacity of the unsorted in-memory buffer, bytes; default FD/128 within [4 MiB, 32 MiB]. Up to
   * three buffers exist at once (one filling, queued ones, one being written). A larger buffer folds
   * more repeated accesses before they reach the disk.
   */
  public long bufferBytes() { return bufferBytes; }

  /**
   * Largest file a run is split into, bytes; merges delete their inputs file by file, so temporary
   * disk space stays within a few files. Default: initial physical limit/64 within [64 KiB, 8 MiB].
   */
  public long segmentBytes() { return segmentBytes; }

  /** Hot-set limit before the first auto-tuning, bytes; default 0.5·FD. */
  public long initialHotSetLimit() { return initialHotSetLimit; }

  /**
   * Physical-size limit before the first auto-tuning (and always, without auto-tuning), bytes;
   * default 0.15·FD. It bounds the tracker's files, merges included, to the limit plus one buffer;
   * fresh copies of keys already hot in a deeper run (at most the level-0 runs) come on top.
   */
  public long initialPhysicalLimit() { return initialPhysicalLimit; }

  /** Whether both limits follow Algorithm 1 (HotRAP §3.7); default true. */
  public boolean autoTuning() { return autoTuning; }

  /** Δc, the counter increment per repeated access, in decay periods; default {@value #DEFAULT_DELTA_C}. */
  public double deltaC() { return deltaC; }

  /** c_max, the counter ceiling, in decay periods; default {@value #DEFAULT_C_MAX}. */
  /** Ceiling of R's pacing stretch; 1 when R is fixed. */
  public double maxDecayStretch() { return maxDecayStretch; }

  public double cMax() { return cMax; }

  /** L_hs, the smallest auto-tuned hot-set limit, bytes; default 0.05·FD. */
  public long minHotSetLimit() { return minHotSetLimit; }

  /** R_hs, the largest auto-tuned hot-set limit, bytes; default 0.7·FD. */
  public long maxHotSetLimit() { return maxHotSetLimit; }

  /**
   * D_hs, the most room in the hot set for unstable records beyond a steady stable set, bytes;
   * default 0.1·R_hs. The room is {@link #unstableShareOfStable()} of the stable bytes, at most
   * this, or twice what the stable set grows per decay period, the larger (see HotSetTuner).
   */
  public long maxUnstableHotBytes() { return maxUnstableHotBytes; }

  /**
   * Room for unstable records as a share of the stable records' hot bytes while those are steady,
   * within {@link #maxUnstableHotBytes()}; default {@value #DEFAULT_UNSTABLE_SHARE_OF_STABLE}.
   */
  public double unstableShareOfStable() { return unstableShareOfStable; }

  /** R, bytes accessed per decrement of every counter; default R_hs. */
  public long counterDecayPeriodBytes() { return counterDecayPeriodBytes; }

  /** How accesses become scores; default {@link Scorer#EXPONENTIAL_SMOOTHING}. */
  public Scorer scorer() { return scorer; }

  /** Size ratio between adjacent levels; default {@value #DEFAULT_LEVEL_SIZE_RATIO}. */
  public int levelSizeRatio() { return levelSizeRatio; }

  /** Runs level 0 holds before merging into level 1; default {@value #DEFAULT_LEVEL0_RUN_LIMIT}. */
  public int level0RunLimit() { return level0RunLimit; }

  /** Blocks an eviction samples to pick its thresholds; default {@value #DEFAULT_EVICTION_SAMPLE_BLOCKS}. */
  public int evictionSampleBlocks() { return evictionSampleBlocks; }

  /** Ratio of the physical limit to the hot-set limit, kept by auto-tuning. */
  double physicalToHotRatio() {
    return initialHotSetLimit == 0 ? 0 : (double) initialPhysicalLimit / initialHotSetLimit;
  }

  @Override
  public String toString() {
    return "RaltOptions{directory=" + directory + ", fastDiskBytes=" + fastDiskBytes
        + ", alpha=" + alpha + ", tickPeriodBytes=" + tickPeriodBytes + ", beta=" + beta
        + ", hotSetBeta=" + hotSetBeta
        + ", bloomBitsPerKey=" + bloomBitsPerKey + ", blockBytes=" + blockBytes
        + ", bufferBytes=" + bufferBytes + ", segmentBytes=" + segmentBytes
        + ", initialHotSetLimit=" + initialHotSetLimit + ", initialPhysicalLimit=" + initialPhysicalLimit
        + ", autoTuning=" + autoTuning + ", deltaC=" + deltaC + ", cMax=" + cMax
        + ", minHotSetLimit=" + minHotSetLimit + ", maxHotSetLimit=" + maxHotSetLimit
        + ", maxUnstableHotBytes=" + maxUnstableHotBytes
        + ", unstableShareOfStable=" + unstableShareOfStable
        + ", counterDecayPeriodBytes=" + counterDecayPeriodBytes
        + ", maxDecayStretch=" + maxDecayStretch + ", scorer=" + scorer
        + ", levelSizeRatio=" + levelSizeRatio + ", level0RunLimit=" + level0RunLimit
        + ", evictionSampleBlocks=" + evictionSampleBlocks + '}';
  }

  /** Validating builder of {@link RaltOptions}. Not thread-safe. */
  public static final class Builder {
    private Path directory;
    private long fastDiskBytes = -1;
    private double alpha = DEFAULT_ALPHA;
    private long tickPeriodBytes = -1;
    private double beta = DEFAULT_BETA;
    private double hotSetBeta = DEFAULT_HOT_SET_BETA;
    private int bloomBitsPerKey = DEFAULT_BLOOM_BITS_PER_KEY;
    private int blockBytes = DEFAULT_BLOCK_BYTES;
    private long bufferBytes = -1;
    private long segmentBytes = -1;
    private long initialHotSetLimit = -1;
    private long initialPhysicalLimit = -1;
    private boolean autoTuning = true;
    private double deltaC = DEFAULT_DELTA_C;
    private double cMax = DEFAULT_C_MAX;
    private double maxDecayStretch = DEFAULT_MAX_DECAY_STRETCH;
    private long minHotSetLimit = -1;
    private long maxHotSetLimit = -1;
    private long maxUnstableHotBytes = -1;
    private double unstableShareOfStable = DEFAULT_UNSTABLE_SHARE_OF_STABLE;
    private long counterDecayPeriodBytes = -1;
    private Scorer scorer = Scorer.EXPONENTIAL_SMOOTHING;
    private int levelSizeRatio = DEFAULT_LEVEL_SIZE_RATIO;
    private int level0RunLimit = DEFAULT_LEVEL0_RUN_LIMIT;
    private int evictionSampleBlocks = DEFAULT_EVICTION_SAMPLE_BLOCKS;

    private Builder() {}

    public Builder directory(Path directory) {
      this.directory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    public Builder fastDiskBytes(long bytes) {
      this.fastDiskBytes = positive("fastDiskBytes", bytes);
      return this;
    }

    public Builder alpha(double alpha) {
      if (!(alpha > 0 && alpha <= 1)) {
        throw new IllegalArgumentException("alpha must be in (0, 1] but was " + alpha);
      }
      this.alpha = alpha;
      return this;
    }

    public Builder tickPeriodBytes(long bytes) {
      this.tickPeriodBytes = positive("tickPeriodBytes", bytes);
      return this;
    }

    public Builder beta(double beta) {
      if (!(beta > 0 && beta < 1)) {
        throw new IllegalArgumentException("beta must be in (0, 1) but was " + beta);
      }
      this.beta = beta;
      return this;
    }

    public Builder hotSetBeta(double beta) {
      if (!(beta > 0 && beta < 1)) {
        throw new IllegalArgumentException("hotSetBeta must be in (0, 1) but was " + beta);
      }
      this.hotSetBeta = beta;
      return this;
    }

    public Builder bloomBitsPerKey(int bits) {
      if (bits < 1 || bits > 64) {
        throw new IllegalArgumentException("bloomBitsPerKey must be in [1, 64] but was " + bits);
      }
      this.bloomBitsPerKey = bits;
      return this;
    }

    public Builder blockBytes(int bytes) {
      if (bytes < 256 || bytes > MAX_BLOCK_BYTES) {
        throw new IllegalArgumentException(
            "blockBytes must be in [256, " + MAX_BLOCK_BYTES + "] but was " + bytes);
      }
      this.blockBytes = bytes;
      return this;
    }

    public Builder bufferBytes(long bytes) {
      if (bytes < MIN_BUFFER_BYTES || bytes > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("bufferBytes must be in [" + MIN_BUFFER_BYTES + ", "
            + Integer.MAX_VALUE + "] but was " + bytes);
      }
      this.bufferBytes = bytes;
      return this;
    }

    public Builder segmentBytes(long bytes) {
      if (bytes < 4096) {
        throw new IllegalArgumentException("segmentBytes must be at least 4096 but was " + bytes);
      }
      this.segmentBytes = bytes;
      return this;
    }

    public Builder initialHotSetLimit(long bytes) {
      this.initialHotSetLimit = positive("initialHotSetLimit", bytes);
      return this;
    }

    public Builder initialPhysicalLimit(long bytes) {
      this.initialPhysicalLimit = positive("initialPhysicalLimit", bytes);
      return this;
    }

    public Builder autoTuning(boolean enabled) {
      this.autoTuning = enabled;
      return this;
    }

    public Builder deltaC(double deltaC) {
      if (!(deltaC > 0) || Double.isInfinite(deltaC)) {
        throw new IllegalArgumentException("deltaC must be positive and finite but was " + deltaC);
      }
      this.deltaC = deltaC;
      return this;
    }

    public Builder cMax(double cMax) {
      if (!(cMax > 0) || Double.isInfinite(cMax)) {
        throw new IllegalArgumentException("cMax must be positive and finite but was " + cMax);
      }
      this.cMax = cMax;
      return this;
    }

    /** L_hs. */
    public Builder minHotSetLimit(long bytes) {
      this.minHotSetLimit = positive("minHotSetLimit", bytes);
      return this;
    }

    /** R_hs. */
    public Builder maxHotSetLimit(long bytes) {
      this.maxHotSetLimit = positive("maxHotSetLimit", bytes);
      return this;
    }

    /** D_hs. */
    public Builder maxUnstableHotBytes(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("maxUnstableHotBytes must be >= 0 but was " + bytes);
      }
      this.maxUnstableHotBytes = bytes;
      return this;
    }

    /**
     * Room for unstable records as a share of the stable bytes (D_hs caps it); a value of
     * {@link Double#POSITIVE_INFINITY} gives the paper's fixed D_hs.
     */
    public Builder unstableShareOfStable(double share) {
      if (!(share >= 0)) {
        throw new IllegalArgumentException("unstableShareOfStable must be >= 0 but was " + share);
      }
      this.unstableShareOfStable = share;
      return this;
    }

    /** R's base: R when every access misses the fast tier. */
    public Builder counterDecayPeriodBytes(long bytes) {
      this.counterDecayPeriodBytes = positive("counterDecayPeriodBytes", bytes);
      return this;
    }

    /**
     * Largest factor by which pacing stretches R beyond {@link #counterDecayPeriodBytes} when most
     * accesses hit the fast tier (see {@link Ralt#record(byte[], int, boolean)}); 1 keeps R fixed.
     */
    public Builder maxDecayStretch(double stretch) {
      if (!(stretch >= 1) || Double.isInfinite(stretch)) {
        throw new IllegalArgumentException("maxDecayStretch must be finite and >= 1 but was " + stretch);
      }
      this.maxDecayStretch = stretch;
      return this;
    }

    public Builder scorer(Scorer scorer) {
      this.scorer = Objects.requireNonNull(scorer, "scorer");
      return this;
    }

    public Builder levelSizeRatio(int ratio) {
      if (ratio < 2) {
        throw new IllegalArgumentException("levelSizeRatio must be at least 2 but was " + ratio);
      }
      this.levelSizeRatio = ratio;
      return this;
    }

    public Builder level0RunLimit(int runs) {
      if (runs < 1) {
        throw new IllegalArgumentException("level0RunLimit must be at least 1 but was " + runs);
      }
      this.level0RunLimit = runs;
      return this;
    }

    public Builder evictionSampleBlocks(int blocks) {
      if (blocks < 1) {
        throw new IllegalArgumentException("evictionSampleBlocks must be at least 1 but was " + blocks);
      }
      this.evictionSampleBlocks = blocks;
      return this;
    }

    /**
     * Builds the options.
     *
     * @throws IllegalStateException if the directory or the fast-disk size is missing, or the
     *     limits conflict (L_hs above R_hs, or an initial limit outside [L_hs, R_hs] with auto-tuning)
     */
    public RaltOptions build() {
      if (directory == null) {
        throw new IllegalStateException("directory was not set");
      }
      if (fastDiskBytes < 0) {
        throw new IllegalStateException("fastDiskBytes was not set");
      }
      if (cMax < deltaC) {
        throw new IllegalStateException(
            "cMax (" + cMax + ") must not be below deltaC (" + deltaC + ")");
      }
      RaltOptions o = new RaltOptions(this);
      if (o.minHotSetLimit > o.maxHotSetLimit) {
        throw new IllegalStateException("minHotSetLimit (" + o.minHotSetLimit
            + ") exceeds maxHotSetLimit (" + o.maxHotSetLimit + ")");
      }
      if (o.initialHotSetLimit <= 0) {
        throw new IllegalStateException("initialHotSetLimit must be positive but was "
            + o.initialHotSetLimit + " (fastDiskBytes " + fastDiskBytes + " is too small)");
      }
      if (o.initialPhysicalLimit <= 0) {
        throw new IllegalStateException("initialPhysicalLimit must be positive but was "
            + o.initialPhysicalLimit + " (fastDiskBytes " + fastDiskBytes + " is too small)");
      }
      if (o.bufferBytes > Integer.MAX_VALUE) {
        throw new IllegalStateException("bufferBytes must fit an int but was " + o.bufferBytes);
      }
      return o;
    }

    private static long positive(String name, long value) {
      if (value <= 0) {
        throw new IllegalArgumentException(name + " must be positive but was " + value);
      }
      return value;
    }
  }
}
