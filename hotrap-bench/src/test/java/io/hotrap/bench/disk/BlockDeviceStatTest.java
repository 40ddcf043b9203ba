package io.hotrap.bench.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockDeviceStatTest {
  @TempDir
  Path dir;

  /** A stat line as Linux 6.x writes it: 17 counters, padded with spaces. */
  private static final String LINE =
      "   52113      120  4219338    26117   418830   224106 12052576   390212        0   280372"
          + "   438006        0        0        0        0    25460    21676\n";

  @Test
  void parsesReadsAndReadMillisFromTheFirstAndFourthCounters() {
    BlockDeviceStat.Reading r = BlockDeviceStat.parse(LINE);

    assertEquals(52113, r.reads());
    assertEquals(26117, r.readMillis());
  }

  @Test
  void refusesALineThatIsNotAStatLine() {
    assertThrows(IllegalArgumentException.class, () -> BlockDeviceStat.parse("1 2 3"));
    assertThrows(NumberFormatException.class, () -> BlockDeviceStat.parse("a b c d e"));
    assertThrows(IllegalArgumentException.class, () -> BlockDeviceStat.parse("1 0 0 -4"));
  }

  @Test
  void meanReadTimeIsTheMillisecondsOverTheReadsBetweenTwoReadings() {
    BlockDeviceStat.Reading a = new BlockDeviceStat.Reading(1_000, 400);
    BlockDeviceStat.Reading b = new BlockDeviceStat.Reading(5_000, 1_200);

    assertEquals(4_000, BlockDeviceStat.reads(a, b));
    assertEquals(0.2, BlockDeviceStat.meanReadMillis(a, b), 1e-12);
  }

  @Test
  void noReadsAMissingReadingOrCountersThatWentBackAreUnknown() {
    BlockDeviceStat.Reading a = new BlockDeviceStat.Reading(1_000, 400);

    assertEquals(0, BlockDeviceStat.reads(a, a));
    assertTrue(Double.isNaN(BlockDeviceStat.meanReadMillis(a, a)));
    assertEquals(-1, BlockDeviceStat.reads(null, a));
    assertTrue(Double.isNaN(BlockDeviceStat.meanReadMillis(a, null)));
    BlockDeviceStat.Reading reset = new BlockDeviceStat.Reading(10, 3);
    assertEquals(-1, BlockDeviceStat.reads(a, reset));
    assertTrue(Double.isNaN(BlockDeviceStat.meanReadMillis(a, reset)));
    assertTrue(Double.isNaN(BlockDeviceStat.meanReadMillis(a,
        new BlockDeviceStat.Reading(2_000, 399))));
  }

  @Test
  void findsTheDeviceOfTheMountThatHoldsADirectoryThatDoesNotExistYet() throws IOException {
    Path real = dir.toRealPath();
    Path mountPoint = Files.createDirectories(real.resolve("mnt"));
    MountInfo mounts = MountInfo.parse(List.of(
        "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw",
        "90 27 7:3 / " + mountPoint + " rw,noatime - ext4 /dev/loop3 rw"));
    Path sys = Files.createDirectories(real.resolve("sys"));
    Files.createDirectories(sys.resolve("7:3"));
    Files.writeString(sys.resolve("7:3").resolve("stat"), LINE);

    BlockDeviceStat stat = BlockDeviceStat.forDirectory(mountPoint.resolve("slow/hotrap"),
        mounts, sys).orElseThrow();

    assertEquals("7:3", stat.majmin());
    assertEquals(new BlockDeviceStat.Reading(52113, 26117), stat.read());
    Files.writeString(sys.resolve("7:3").resolve("stat"), "garbage\n");
    assertNull(stat.read());
  }

  @Test
  void aMountWithoutReadableCountersIsNoDevice() throws IOException {
    Path real = dir.toRealPath();
    MountInfo mounts = MountInfo.parse(List.of(
        "27 1 0:31 / / rw,relatime - overlay overlay rw"));
    Path sys = Files.createDirectories(real.resolve("sys"));

    assertTrue(BlockDeviceStat.forDirectory(real.resolve("x"), mounts, sys).isEmpty());
    assertTrue(BlockDeviceStat.forDirectory(real, MountInfo.parse(List.of()), sys).isEmpty());
  }
}
