package io.hotrap.cache.flash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class RegionBufferTest {

  @Test
  void itemsArePackedBackToBackAndReadBack() {
    RegionBuffer b = new RegionBuffer(64 << 10);
    b.reset(9);
    int first = b.append(Items.key(1), Items.value(1, 1, 50), 3, 9);
    int second = b.append(Items.key(2), Items.value(2, 1, 70), 4, 9);
    assertEquals(0, first);
    assertEquals(RegionBuffer.itemLength(Items.key(1).length, 50), second);
    int len = RegionBuffer.itemLength(Items.key(2).length, 70);
    assertArrayEquals(Items.value(2, 1, 70),
        RegionBuffer.decode(b.data, second, len, Items.key(2), 9));
    assertEquals(4, RegionBuffer.group(b.data, second));
    assertEquals(4096, b.writeLength());
  }

  @Test
  void theHeaderLayoutIsAsDocumented() {
    byte[] dst = new byte[64];
    RegionBuffer.encode(dst, 0, new byte[] {'k'}, new byte[] {'v', 'w'}, 0x0102, 0x0A0B);
    assertEquals(0x0A0B, RegionBuffer.getLong(dst, 4));
    assertEquals(0x0102, RegionBuffer.getLong(dst, 12));
    assertEquals(0, dst[20]);
    assertEquals(1, dst[21]);
    assertEquals(2, RegionBuffer.getInt(dst, 22));
    assertEquals('k', dst[26]);
    assertEquals('v', dst[27]);
    assertEquals('w', dst[28]);
  }

  @Test
  void everySingleByteCorruptionIsRejected() {
    byte[] key = Items.key(5);
    byte[] value = Items.value(5, 2, 40);
    int len = RegionBuffer.itemLength(key.length, value.length);
    byte[] item = new byte[len];
    RegionBuffer.encode(item, 0, key, value, 1, 77);
    for (int i = 0; i < len; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] bad = item.clone();
        bad[i] ^= (byte) (1 << bit);
        assertNull(RegionBuffer.decode(bad, 0, len, key, 77), "byte " + i + " bit " + bit);
      }
      byte[] bad = item.clone();
      bad[i] = (byte) ~bad[i];
      assertNull(RegionBuffer.decode(bad, 0, len, key, 77), "byte " + i + " inverted");
    }
  }

  @Test
  void anotherKeyGenerationOrLengthIsRejected() {
    byte[] key = Items.key(5);
    byte[] value = Items.value(5, 2, 40);
    int len = RegionBuffer.itemLength(key.length, value.length);
    byte[] item = new byte[len + 10];
    RegionBuffer.encode(item, 0, key, value, 1, 77);
    assertArrayEquals(value, RegionBuffer.decode(item, 0, len, key, 77));
    assertNull(RegionBuffer.decode(item, 0, len, Items.key(6), 77));
    assertNull(RegionBuffer.decode(item, 0, len, key, 78));
    assertNull(RegionBuffer.decode(item, 0, len + 1, key, 77));
    assertNull(RegionBuffer.decode(item, 0, len - 1, key, 77));
    assertNull(RegionBuffer.decode(item, 5, len + 10, key, 77));
  }
}
