package io.hotrap.jni;

import org.junit.jupiter.api.Assumptions;

/** Skips a test, with the loader's reason, where the native library is unavailable. */
final class NativeAssumptions {
  private NativeAssumptions() {}

  static void assumeNativeHooks() {
    Assumptions.assumeTrue(
        NativeHooks.available(),
        () -> "skipped: native compaction hooks unavailable: " + NativeHooks.unavailableReason());
  }

  static void assumeSecondaryCache() {
    Assumptions.assumeTrue(
        FlashSecondaryCache.available(),
        () -> "skipped: native secondary cache unavailable: "
            + FlashSecondaryCache.unavailableReason());
  }
}
