package io.hotrap.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotrap.core.TierMigrator.NextRound;
import org.junit.jupiter.api.Test;

/** When a migration check overrides retention ({@link TierMigrator#afterRound}). */
class RetentionOverrideTest {

  @Test
  void aRoundThatSawEveryFileAndFoundOnlyHotRecordsFirstCompactsTheTier() {
    // Older versions and cold records in the upper levels are out of a round's sight until then.
    assertEquals(NextRound.COMPACT_ALL, TierMigrator.afterRound(0, 120, false, false, false));
  }

  @Test
  void aSecondRoundOfOnlyHotRecordsInOneCheckMakesTheNextOneIgnoreHotness() {
    assertEquals(NextRound.IGNORE_HOTNESS, TierMigrator.afterRound(0, 120, false, false, true));
  }

  @Test
  void aRoundThatLeftFilesBeingCompactedOutWaitsForThemInsteadOfDemotingHotRecords() {
    // The cold records may all be in the files being compacted (new data on its way down).
    assertEquals(NextRound.WAIT_FOR_COMPACTION, TierMigrator.afterRound(0, 120, false, true, false));
  }

  @Test
  void aRoundThatDemotedOrIgnoredHotnessOrMovedNothingGoesOnAsUsual() {
    assertEquals(NextRound.CONTINUE, TierMigrator.afterRound(5, 120, false, false, false));
    assertEquals(NextRound.CONTINUE, TierMigrator.afterRound(5, 120, false, true, false));
    assertEquals(NextRound.CONTINUE, TierMigrator.afterRound(0, 120, true, false, false));
    assertEquals(NextRound.CONTINUE, TierMigrator.afterRound(0, 0, false, false, false));
  }
}
