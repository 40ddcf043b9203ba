package io.hotrap.bench.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MountInfoTest {
  static final MountInfo TABLE = MountInfo.parse(List.of(
      "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard",
      "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
      "38 31 0:35 / /sys/fs/cgroup/blkio rw,relatime shared:15 - cgroup cgroup rw,blkio",
      "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw",
      "90 27 7:3 / /work/slow rw,noatime - ext4 /dev/loop3 rw",
      "91 27 7:4 / /work/my\\040disk rw - ext4 /dev/loop4 rw"));

  @Test
  void findsTheDeepestMountHoldingAPath() {
    assertEquals("7:3", TABLE.containing(Path.of("/work/slow/data/x")).orElseThrow().majmin());
    assertEquals("254:0", TABLE.containing(Path.of("/work/slower")).orElseThrow().majmin());
    assertEquals(Path.of("/"), TABLE.containing(Path.of("/tmp")).orElseThrow().mountPoint());
  }

  @Test
  void unescapesOctalInPaths() {
    assertEquals("7:4", TABLE.containing(Path.of("/work/my disk/a")).orElseThrow().majmin());
    assertEquals("a\\b", MountInfo.unescape("a\\134b"));
    assertEquals("a\\9", MountInfo.unescape("a\\9"));
  }

  @Test
  void prefersTheLaterOfTwoMountsOnOnePoint() {
    MountInfo overmounted = MountInfo.parse(List.of(
        "1 0 8:1 / /data rw - ext4 /dev/sda1 rw",
        "2 0 7:0 / /data rw - ext4 /dev/loop0 rw"));

    assertEquals("7:0", overmounted.containing(Path.of("/data/x")).orElseThrow().majmin());
  }

  @Test
  void namesACgroupByItsPathInTheHierarchy() {
    assertEquals(Optional.of("/hotrap-slow"),
        TABLE.cgroupPathOf(Path.of("/sys/fs/cgroup/blkio/hotrap-slow"), "blkio"));
    assertEquals(Optional.of("/"), TABLE.cgroupPathOf(Path.of("/sys/fs/cgroup/blkio"), "blkio"));
    assertEquals(Optional.empty(), TABLE.cgroupPathOf(Path.of("/sys/fs/cgroup/blkio/x"), "cpu"));
  }

  @Test
  void prefixesTheRootOfAHierarchyMountedFromASubdirectory() {
    MountInfo container = MountInfo.parse(List.of(
        "5 1 0:35 /docker/abc /sys/fs/cgroup/blkio rw - cgroup cgroup rw,blkio"));

    assertEquals(Optional.of("/docker/abc/slow"),
        container.cgroupPathOf(Path.of("/sys/fs/cgroup/blkio/slow"), "blkio"));
  }

  @Test
  void rejectsALineWithoutSeparator() {
    assertThrows(IllegalArgumentException.class,
        () -> MountInfo.parse(List.of("27 1 254:0 / / rw,relatime ext4 /dev/vda rw")));
  }
}
