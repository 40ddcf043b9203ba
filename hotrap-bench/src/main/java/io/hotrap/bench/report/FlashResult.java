package io.hotrap.bench.report;

/**
 * What a run's flash cache did over the whole run phase (DESIGN.md §14), for systems with one.
 *
 * @param lookupHitRatio LHR: lookups the flash cache served over lookups that reached it (past
 *     the bypass filter); SAS-Cache's metric
 * @param overallHitRatio gets served without reading the slow disk (memtables, block cache, flash
 *     cache) over all gets
 * @param bytesWritten bytes written to the flash cache's file; -1 when unknown
 * @param deletedFileInsertShare share of the items written to flash that belonged to SST files
 *     compaction had already deleted (SAS-Cache's IBIR); NaN when unknown
 * @param deletedFileOfferShare the same share among the items offered to flash, before insertion
 *     control; NaN when unknown
 * @param bypassedLookups gets the bypass filter sent past the flash cache
 */
public record FlashResult(double lookupHitRatio, double overallHitRatio, long bytesWritten,
    double deletedFileInsertShare, double deletedFileOfferShare, long bypassedLookups) {}
