package io.hotrap.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class KeyRangesTest {
  @Test
  void theSuccessorOfAKeyAppendsAZeroByte() {
    assertArrayEquals(new byte[] {1, 2, 0}, KeyRanges.successor(new byte[] {1, 2}));
    assertArrayEquals(new byte[] {0}, KeyRanges.successor(new byte[0]));
  }

  @Test
  void thePrefixEndDropsTrailingFfBytesAndIncrementsTheLast() {
    assertArrayEquals(new byte[] {1, 3}, KeyRanges.prefixEnd(new byte[] {1, 2}));
    assertArrayEquals(new byte[] {2}, KeyRanges.prefixEnd(new byte[] {1, (byte) 0xFF}));
    assertArrayEquals(new byte[] {(byte) 0x80}, KeyRanges.prefixEnd(new byte[] {0x7F}));
    assertNull(KeyRanges.prefixEnd(new byte[] {(byte) 0xFF, (byte) 0xFF}));
    assertNull(KeyRanges.prefixEnd(new byte[0]));
  }
}
