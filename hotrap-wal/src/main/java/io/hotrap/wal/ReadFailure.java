package io.hotrap.wal;

/**
 * Where and why reading a segment stopped before its end.
 *
 * @param offset file offset of the first byte not read as a valid record (a record's or a block's
 *     start)
 * @param reason what was wrong there
 * @param reachesEnd true if the bad bytes run to the end of the file, the shape a torn final write
 *     leaves (a partial record, a record whose checksum fails and that ends exactly at the end of
 *     the file, or zeros to the end); false if valid-looking bytes follow, the shape of corruption
 */
record ReadFailure(long offset, String reason, boolean reachesEnd) {}
