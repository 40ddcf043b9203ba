package io.hotrap.bench.harness;

import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

/** The systems the harness knows, by name (DESIGN.md §12). */
public final class Systems {

  /** Every system, in report order. */
  public static final List<String> ALL = List.of("rocksdb-fd", "rocksdb-tiered", "hotrap",
      "hotrap-no-retain", "hotrap-no-hotness-check", "hotrap-no-by-compaction",
      "hotrap-no-promotion", "hotrap-native", "hotrap-tombstones", "rocksdb-sc", "sas-cache", "sas-cache-pf",
      "sas-cache-rec",
      "rocksdb-pcache", "hotrap-mem", "hotrap-separated");

  /**
   * Directory of {@code hotrap-mem}'s memory tier: the system property {@code hotrap.bench.memoryDir},
   * else {@code /dev/shm} (a tmpfs on Linux).
   */
  static Path memoryDir() {
    return Path.of(System.getProperty("hotrap.bench.memoryDir", "/dev/shm"));
  }

  /** {@code hotrap-mem}'s memory tier holds a quarter of the fast budget. */
  static final long MEMORY_TIER_DIVISOR = 4;

  private Systems() {}

  /**
   * Opens the system {@code name} under {@code config}'s directories (in a subdirectory named
   * after it).
   *
   * @throws IllegalArgumentException for an unknown name, listing the known ones
   */
  public static BenchSystem open(String name, SystemConfig config) {
    return open(name, config, UnaryOperator.identity());
  }

  /**
   * {@link #open(String, SystemConfig)} with {@code extra} applied to a HotRAP variant's options
   * after the variant's own (for example a smaller write buffer); other systems ignore it.
   */
  public static BenchSystem open(String name, SystemConfig config,
      UnaryOperator<io.hotrap.core.HotRapOptions.Builder> extra) {
    return openVariant(name, config, extra);
  }

  private static BenchSystem openVariant(String name, SystemConfig config,
      UnaryOperator<io.hotrap.core.HotRapOptions.Builder> extra) {
    switch (name) {
      case "rocksdb-fd":
        return new RocksDbSystem(name, config, false);
      case "rocksdb-tiered":
        return new RocksDbSystem(name, config, true);
      case "hotrap":
        return hotrap(name, config, extra, b -> b);
      case "hotrap-no-retain":
        return hotrap(name, config, extra, b -> b.retainHotRecords(false));
      case "hotrap-no-hotness-check":
        return hotrap(name, config, extra, b -> b.hotnessCheck(false));
      case "hotrap-no-by-compaction":
        return hotrap(name, config, extra, b -> b.promoteByCompaction(false));
      case "hotrap-no-promotion":
        return hotrap(name, config, extra, b -> b.promotion(false));
      case "hotrap-native":
        return hotrap(name, config, extra, b -> b.nativeMigration(true));
      case "hotrap-tombstones":
        return hotrap(name, config, extra, b -> b.dropDemotedFiles(false));
      case "hotrap-separated":
        return hotrap(name, config, extra, b -> b.writeHotSeparation(true));
      case "rocksdb-sc":
        return flashSystem(name, config, false);
      case "sas-cache":
        return flashSystem(name, config, true);
      case "sas-cache-pf":
        return prefetchingFlashSystem(name, config);
      case "sas-cache-rec":
        return new FlashCacheSystem(name, config, FlashCacheSystem.Kind.SAS, false);
      case "rocksdb-pcache":
        return new FlashCacheSystem(name, config, FlashCacheSystem.Kind.PERSISTENT, false);
      case "hotrap-mem":
        return hotrap(name, config, extra, b -> {
          Path dir = memoryDir().resolve("hotrap-bench");
          try {
            java.nio.file.Files.createDirectories(dir);
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          return b.memoryTier(dir, config.fastBudgetBytes() / MEMORY_TIER_DIVISOR);
        });
      default:
        throw unknown(name);
    }
  }

  /**
   * {@code rocksdb-sc} or {@code sas-cache}: at block level ({@link BlockFlashCacheSystem}) where
   * the native secondary cache is available and {@value #FLASH_LEVEL_PROPERTY} is not {@code
   * record}; else the record-level stand-in ({@link FlashCacheSystem}), with a note on stderr
   * saying why.
   */
  static BenchSystem flashSystem(String name, SystemConfig config, boolean sas) {
    if (blockLevelFlash()) {
      return new BlockFlashCacheSystem(name, config, sas, false);
    }
    return new FlashCacheSystem(
        name, config, sas ? FlashCacheSystem.Kind.SAS : FlashCacheSystem.Kind.PLAIN, true);
  }

  /** {@code sas-cache} with its prefetch of new files' hot blocks; block level only. */
  static BenchSystem prefetchingFlashSystem(String name, SystemConfig config) {
    if (!blockLevelFlash()) {
      throw new IllegalStateException(name + " needs the block-level secondary cache: "
          + (BlockFlashCacheSystem.available() ? FLASH_LEVEL_PROPERTY + " is record"
              : BlockFlashCacheSystem.unavailableReason()));
    }
    return new BlockFlashCacheSystem(name, config, true, true);
  }

  /** System property: {@code block} (the default) or {@code record}, the level of the flash systems. */
  public static final String FLASH_LEVEL_PROPERTY = "hotrap.bench.flashLevel";

  private static final java.util.concurrent.atomic.AtomicBoolean FLASH_LEVEL_NOTED =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** Whether the flash systems run at block level. */
  static boolean blockLevelFlash() {
    String level = System.getProperty(FLASH_LEVEL_PROPERTY, "block");
    if (!level.equals("block") && !level.equals("record")) {
      throw new IllegalArgumentException(
          FLASH_LEVEL_PROPERTY + " must be block or record, was '" + level + "'");
    }
    if (level.equals("record")) {
      return false;
    }
    if (!BlockFlashCacheSystem.available()) {
      if (FLASH_LEVEL_NOTED.compareAndSet(false, true)) {
        System.err.println("rocksdb-sc, sas-cache: record-level stand-in; the block-level"
            + " secondary cache is unavailable: " + BlockFlashCacheSystem.unavailableReason());
      }
      return false;
    }
    return true;
  }

  private static BenchSystem hotrap(String name, SystemConfig config,
      UnaryOperator<io.hotrap.core.HotRapOptions.Builder> extra,
      UnaryOperator<io.hotrap.core.HotRapOptions.Builder> variant) {
    return new HotRapSystem(name, config, b -> extra.apply(variant.apply(b)));
  }

  /** @throws IllegalArgumentException for an unknown name, listing the known ones */
  public static void requireKnown(String name) {
    if (!ALL.contains(name)) {
      throw unknown(name);
    }
  }

  private static IllegalArgumentException unknown(String name) {
    return new IllegalArgumentException(
        "unknown system '" + name + "'; known: " + String.join(", ", ALL));
  }

  /**
   * The directory name under which {@code system} keeps its data: the HotRAP variants share one
   * loaded state (loading reads nothing, so they load alike) and so one template; the variants that
   * remove demoted records another way ({@code hotrap-native}, and {@code hotrap-tombstones}, which
   * never drops whole files) write differently while they load and keep their own.
   */
  static String loadFamily(String system) {
    if (system.equals("hotrap-native") || system.equals("hotrap-tombstones")) {
      return system;
    }
    if (system.equals("sas-cache") || system.equals("sas-cache-pf") || system.equals("sas-cache-rec")
        || system.equals("rocksdb-pcache")) {
      return "rocksdb-sc"; // RocksDB on the slow disk, loaded alike; each run's cache starts cold
    }
    return system.startsWith("hotrap") ? "hotrap" : system;
  }
}
