package io.hotrap.jni;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ValueHashTest {
  private static byte[] counting(int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) i;
    }
    return b;
  }

  /** XXH64, seed 0, as computed by the reference implementation (libxxhash 0.8.1). */
  @Test
  void javaMatchesReferenceVectors() {
    assertEquals(0xEF46DB3751D8E999L, ValueHash.of(new byte[0]));
    assertEquals(0xD24EC4F1A98C6E5BL, ValueHash.of("a".getBytes(UTF_8)));
    assertEquals(0x44BC2CF5AD770999L, ValueHash.of("abc".getBytes(UTF_8)));
    assertEquals(0x44D1421F26375E73L, ValueHash.of("hotrap".getBytes(UTF_8)));
    assertEquals(0xF5DA40F1B11741E9L, ValueHash.of(counting(40)));
    byte[] kib = new byte[1024];
    for (int i = 0; i < kib.length; i++) {
      kib[i] = (byte) (i % 256);
    }
    assertEquals(0x6F3914F18FE4DF57L, ValueHash.of(kib));
  }

  @Test
  void aRangeHashesLikeACopyOfIt() {
    byte[] b = counting(100);
    byte[] slice = new byte[37];
    System.arraycopy(b, 11, slice, 0, 37);
    assertEquals(ValueHash.of(slice), ValueHash.of(b, 11, 37));
    assertThrows(IndexOutOfBoundsException.class, () -> ValueHash.of(b, 90, 11));
    assertThrows(IndexOutOfBoundsException.class, () -> ValueHash.of(b, -1, 1));
  }

  @Test
  void javaAndCAgreeOnEveryLengthAndOffset() {
    NativeAssumptions.assumeNativeHooks();
    Random random = new Random(42);
    for (int length = 0; length <= 300; length++) {
      byte[] b = new byte[length + 16];
      random.nextBytes(b);
      for (int offset : new int[] {0, 1, 7, 16}) {
        int n = Math.min(length, b.length - offset);
        assertEquals(
            ValueHash.of(b, offset, n),
            NativeMethods.valueHash(b, offset, n),
            () -> "length " + n + " offset " + offset);
      }
    }
    byte[] big = new byte[1 << 20];
    random.nextBytes(big);
    assertEquals(ValueHash.of(big), NativeMethods.valueHash(big, 0, big.length));
    assertEquals(0xF5DA40F1B11741E9L, NativeMethods.valueHash(counting(40), 0, 40));
  }
}
