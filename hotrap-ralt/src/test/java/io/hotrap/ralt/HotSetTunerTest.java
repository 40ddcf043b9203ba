package io.hotrap.ralt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HotSetTunerTest {
  private static final RaltOptions OPTIONS =
      RaltOptions.builder().directory(Path.of("unused")).fastDiskBytes(100L << 20).build();

  private static RunMerger.EvictionTotals kept(long stable, long hot, long records) {
    RunMerger.EvictionTotals t = new RunMerger.EvictionTotals();
    t.stableHotBytes = stable;
    t.keptHotBytes = hot;
    t.keptRecordBytes = records;
    return t;
  }

  @Test
  void theHotSetLimitIsTheStableBytesPlusRoomWithinItsBounds() {
    long stable = OPTIONS.minHotSetLimit() + (1 << 20);
    HotSetTuner.Limits l = HotSetTuner.retune(OPTIONS, kept(stable, 1, 1));
    assertEquals(Math.min(OPTIONS.maxHotSetLimit(), stable + OPTIONS.maxUnstableHotBytes()), l.hotSetLimit());
    assertEquals(Math.max(OPTIONS.minHotSetLimit(), Math.min(OPTIONS.maxHotSetLimit(), OPTIONS.maxUnstableHotBytes())),
        HotSetTuner.retune(OPTIONS, kept(0, 1, 1)).hotSetLimit(), "no stable records: the room alone, at least L_hs");
    assertEquals(OPTIONS.maxHotSetLimit(), HotSetTuner.retune(OPTIONS, kept(Long.MAX_VALUE / 8, 1, 1)).hotSetLimit());
  }

  @Test
  void thePhysicalLimitHoldsTwiceAHotSetAtTheMeasuredRecordsPerHotByte() {
    long stable = OPTIONS.minHotSetLimit();
    HotSetTuner.Limits l = HotSetTuner.retune(OPTIONS, kept(stable, 1000, 100));
    assertEquals(Math.max(OPTIONS.segmentBytes(), (long) (l.hotSetLimit() * HotSetTuner.CANDIDATE_FACTOR * 0.1)),
        l.physicalLimit());
    HotSetTuner.Limits none = HotSetTuner.retune(OPTIONS, kept(stable, 0, 0));
    assertEquals(Math.max(OPTIONS.segmentBytes(),
        (long) (none.hotSetLimit() * HotSetTuner.CANDIDATE_FACTOR * OPTIONS.physicalToHotRatio())),
        none.physicalLimit());
  }
}
