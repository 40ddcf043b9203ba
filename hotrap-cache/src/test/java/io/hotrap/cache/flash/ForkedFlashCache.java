package io.hotrap.cache.flash;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A flash cache with an off-heap index asked for, in a JVM of its own: for the tests that need to
 * choose the JVM's options or to kill it ({@link OffHeapIndexJvmTest}). Prints what it finds, one
 * {@code name value} pair per line, on standard output.
 *
 * <ul>
 *   <li>{@code restart <dir>}: puts {@value #ITEMS} items, closes, reopens and reads them back;
 *       prints the index kind, the hits after the restart and, if Chronicle ran, what its
 *       analytics would do.
 *   <li>{@code fill <dir>}: puts {@value #ITEMS} items, waits until they are on flash, prints
 *       {@code ready}, then waits for standard input to close (the test kills it first).
 * </ul>
 */
final class ForkedFlashCache {
  static final int ITEMS = 2000;

  private ForkedFlashCache() {}

  static FlashCache open(Path dir) {
    return Items.small(dir, 32, 32 << 10).indexKind(FlashIndexKind.OFF_HEAP).build();
  }

  static byte[] value(int i) {
    return Items.value(i, 1, 300);
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[1]);
    switch (args[0]) {
      case "restart" -> restart(dir);
      case "fill" -> fill(dir);
      default -> throw new IllegalArgumentException(args[0]);
    }
  }

  private static void restart(Path dir) throws Exception {
    try (FlashCache cache = open(dir)) {
      for (int i = 0; i < ITEMS; i++) {
        cache.put(Items.key(i), value(i));
      }
    }
    try (FlashCache cache = open(dir)) {
      int hits = 0;
      for (int i = 0; i < ITEMS; i++) {
        byte[] v = cache.get(Items.key(i));
        if (v != null) {
          if (!java.util.Arrays.equals(value(i), v)) {
            throw new AssertionError("wrong value of key " + i);
          }
          hits++;
        }
      }
      System.out.println("index " + cache.indexKind());
      System.out.println("hits " + hits);
      if (cache.indexKind() == FlashIndexKind.OFF_HEAP) { // else Chronicle must stay untouched
        System.out.println("analytics-present " + isAnalyticsPresent());
        System.out.println("analytics-enabled " + isAnalyticsEnabled());
      }
    }
  }

  private static void fill(Path dir) throws Exception {
    FlashCache cache = open(dir);
    for (int i = 0; i < ITEMS; i++) {
      cache.put(Items.key(i), value(i));
    }
    cache.awaitQuiescence();
    System.out.println("index " + cache.indexKind());
    System.out.println("ready");
    System.out.flush();
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      while (in.readLine() != null) {
        // the test kills this JVM before it closes standard input
      }
    }
    cache.close();
  }

  /** Whether Chronicle's analytics classes are on the class path (they may be, in a user's). */
  private static boolean isAnalyticsPresent() {
    try {
      Class.forName("net.openhft.chronicle.analytics.Analytics", false,
          ForkedFlashCache.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** Chronicle's own verdict on whether it would send analytics, if it runs at all. */
  private static String isAnalyticsEnabled() {
    try {
      return String.valueOf(Class.forName("net.openhft.chronicle.core.analytics.AnalyticsFacade")
          .getMethod("isEnabled").invoke(null));
    } catch (ReflectiveOperationException | LinkageError e) {
      return "unknown (" + e + ")";
    }
  }
}
