package io.hotrap.core;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Settings of the record-level flash cache in front of the slow tier's gets (DESIGN.md §14), given
 * to {@link HotRapOptions.Builder#flashCache(FlashCacheOptions)}. Immutable; built by
 * {@link #builder()}, whose setters reject a bad value with an {@link IllegalArgumentException} that
 * names it.
 *
 * <p><b>Fast-disk bytes.</b> The cache's region file ({@link #flashBytes()} bytes) lives on the fast
 * disk <em>in addition to</em> the fast tier's budget: a store uses up to
 * {@link HotRapOptions#fastDiskBytes()} = {@code fastBudgetBytes + flashBytes} of the fast disk
 * (plus the write-ahead log, RALT's files and the cache's small index checkpoint, as without the
 * cache). To compare at equal fast-disk bytes X, give the store {@code fastBudgetBytes = X -
 * flashBytes}; the benchmark harness does so.
 *
 * <p>The DRAM tier ({@link #dramBytes()}) is memory, not disk; it counts against neither.
 */
public final class FlashCacheOptions {
  /**
   * Smallest flash size accepted: 16 MiB, so that the cache's default region size (1 MiB at this
   * size) leaves it the regions it needs for its buffers, its clean reserve and eviction.
   */
  public static final long MIN_FLASH_BYTES = 16L << 20;
  /** The DRAM tier's default share of the flash size: a 32nd. */
  public static final int DEFAULT_DRAM_DIVISOR = 32;
  /** Name of the cache's directory under the fast path when none is given. */
  public static final String DEFAULT_DIRECTORY = "flash-cache";

  private final Path directory;
  private final long flashBytes;
  private final long dramBytes;
  private final boolean bypassFilter;
  private final boolean offHeapIndex;

  private FlashCacheOptions(Builder b) {
    this.directory = b.directory;
    this.flashBytes = b.flashBytes;
    this.dramBytes = b.dramBytes >= 0 ? b.dramBytes : b.flashBytes / DEFAULT_DRAM_DIVISOR;
    this.bypassFilter = b.bypassFilter;
    this.offHeapIndex = b.offHeapIndex;
  }

  /** A builder; {@link Builder#flashBytes} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The cache's directory on the fast disk, or null for {@code <fastPath>/}{@value
   * #DEFAULT_DIRECTORY} ({@link HotRapOptions#flashCacheDirectory()} resolves it).
   */
  public Path directory() { return directory; }

  /** Bytes of the cache's region file on the fast disk. */
  public long flashBytes() { return flashBytes; }

  /** Bytes of the cache's DRAM tier; default {@code flashBytes / 32}. */
  public long dramBytes() { return dramBytes; }

  /** Whether lookups pass SAS-Cache's cuckoo bypass filter first; default true. */
  public boolean bypassFilter() { return bypassFilter; }

  /**
   * Whether the flash index lives off the heap, in a Chronicle Map file in the cache's directory
   * ({@code FlashIndexKind.OFF_HEAP}); default false. It needs JVM options (see {@code
   * io.hotrap.cache.flash.FlashIndexKind}); without them the cache says so once and keeps its
   * index on the heap.
   */
  public boolean offHeapIndex() { return offHeapIndex; }

  @Override
  public String toString() {
    return "FlashCacheOptions{directory=" + directory + ", flashBytes=" + flashBytes
        + ", dramBytes=" + dramBytes + ", bypassFilter=" + bypassFilter
        + ", offHeapIndex=" + offHeapIndex + '}';
  }

  /** Validating builder of {@link FlashCacheOptions}. Not thread-safe. */
  public static final class Builder {
    private Path directory;
    private long flashBytes = -1;
    private long dramBytes = -1;
    private boolean bypassFilter = true;
    private boolean offHeapIndex;

    private Builder() {}

    /**
     * Directory of the cache's files, on the fast disk; created if missing. It must not be the
     * fast path itself, lie under the slow path, or under the store's own directories ({@code db},
     * {@code data}, {@code ralt}); {@link HotRapOptions.Builder#build()} checks. Default:
     * {@code <fastPath>/}{@value #DEFAULT_DIRECTORY}.
     */
    public Builder directory(Path directory) {
      this.directory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** Bytes of the region file, at least {@value #MIN_FLASH_BYTES}. Required. */
    public Builder flashBytes(long bytes) {
      if (bytes < MIN_FLASH_BYTES) {
        throw new IllegalArgumentException("flashBytes must be at least " + MIN_FLASH_BYTES
            + " but was " + bytes);
      }
      this.flashBytes = bytes;
      return this;
    }

    /** Bytes of the DRAM tier, 0 or more; 0 sends every insert straight to flash. */
    public Builder dramBytes(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("dramBytes must not be negative but was " + bytes);
      }
      this.dramBytes = bytes;
      return this;
    }

    /** Whether lookups pass the cuckoo bypass filter before the flash index. */
    public Builder bypassFilter(boolean enabled) {
      this.bypassFilter = enabled;
      return this;
    }

    /**
     * Whether the flash index lives off the heap ({@link FlashCacheOptions#offHeapIndex()}): about
     * 92 bytes of heap less per cached record, at 0.3–0.6 µs more per lookup (docs/results/NOTES.md,
     * "The flash index on and off the heap").
     */
    public Builder offHeapIndex(boolean enabled) {
      this.offHeapIndex = enabled;
      return this;
    }

    /** @throws IllegalStateException if {@link #flashBytes} was not set */
    public FlashCacheOptions build() {
      if (flashBytes < 0) {
        throw new IllegalStateException("flashBytes was not set");
      }
      return new FlashCacheOptions(this);
    }
  }
}
