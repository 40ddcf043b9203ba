package io.hotrap.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotrap.core.TierMigrator.NextRound;
import org.junit.jupiter.api.Test;

/** When a migration check overrides retention ({@link TierMigrator#afterRound}). */
class RetentionOverrideTest {

  @Test
  void aRoundThatSawEveryFileAndFoundOnlyHotRecordsMakesTheNextOneIgnoreHotness() {
    assertEquals(NextRound.IGNORE_HOTNESS, TierMigrator.afterRound(0, 120, false, false));
  }

  @Test
  void aRoundThatLeftFilesBeingCompactedOutWaitsForThemInsteadOfDemotingHotRecords() {
    // The cold records may all be in the files being compacted (new data on its way down).
    assertEquals(NextRound.WAIT_FOR_COMPACTION, TierMigrator.afterRound(0, 120, false, true));
  }

  @Test
  void aRoundThatDemotedOrIgnoredHotnessOrMovedNothingGoesOnAsUsual() {
    assertEquals(NextRound.CONTINUE, TierMigrator.afterRound(5, 120, false, false));
    assertEquals(NextRound.CONTINUE, TierMigrator.afterRound(5, 120, false, true));
    assertEquals(NextRound.CONTINUE, TierMigrator.afterRound(0, 120, true, false));
    assertEquals(NextRound.CONTINUE, TierMigrator.afterRound(0, 0, false, false));
  }
}
