package io.hotrap.bench.workload;

/**
 * The read/write mix of a run phase, after HotRAP §4. A write either inserts a new record or
 * updates a loaded one; which is fixed by the mix.
 */
public enum Mix {
  /** Read only. */
  RO(1.0, false),
  /** Read-write: 75% reads, 25% inserts of new records. */
  RW(0.75, true),
  /** Write-heavy: 50% reads, 50% inserts of new records. */
  WH(0.5, true),
  /** Update-heavy: 50% reads, 50% updates of loaded records. */
  UH(0.5, false),
  /** Read-mostly: 90% reads, 10% updates of loaded records (SAS-Cache's default mix, §V-B). */
  RU(0.9, false);

  private final double readShare;
  private final boolean writesInsert;

  Mix(double readShare, boolean writesInsert) {
    this.readShare = readShare;
    this.writesInsert = writesInsert;
  }

  /** The share of run-phase operations that are reads, in [0, 1]. */
  public double readShare() {
    return readShare;
  }

  /**
   * Whether the writes of this mix insert new records (ids at or above the loaded ones) rather than
   * update loaded ones. False for {@link #RO}, which has no writes.
   */
  public boolean writesInsert() {
    return writesInsert;
  }
}
