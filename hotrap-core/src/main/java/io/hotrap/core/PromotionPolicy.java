package io.hotrap.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What one promotion-by-flush check does with a frozen promotion table (HotRAP §3.3; DESIGN.md §9):
 * promote records into the fast tier, put some back into the mutable table to wait, or drop them.
 * A pure decision — no threads, no RocksDB, no RALT calls of its own: {@link Promoter} gathers what
 * RALT and the admission filter say and carries the decision out.
 *
 * <p><b>The rules.</b>
 * <ol>
 *   <li>A record put back {@value #MAX_PUT_BACKS_UNREAD} times in a row with no get reading it is
 *       dropped: a record that came back by chance is no likelier than any other to be read again,
 *       and a hot one is read while it waits. One chance is not enough: a hot set that makes a small
 *       share of the reads is read only now and then.
 *   <li>With the hotness check on, a record RALT calls stable-hot is hot. One it does not is still
 *       hot if it came back (every cached record did: the admission filter lets in only second
 *       reads), whether or not RALT has merged its two accesses yet — but only up to a room
 *       ({@link #returnRoom}, key + value bytes): what RALT's hot set can still grow to hold, and at
 *       least a tenth of its cap. Returns past the room are dropped. A record put back and not
 *       read since is here on the return an earlier check counted: it goes with a promotion but
 *       does not make one.
 *   <li>The hot records are promoted when they make at least half a table (DESIGN.md §9's half a
 *       file), the admission filter admitted at least {@value #MIN_ADMITTED_SHARE} of the read bytes
 *       around them (under reads spread over far more data than the filter's window, a few keys
 *       come back by chance, and it is the reads around them that tell them from a hot set), and no
 *       user write waits for room on the fast tier (a promotion would take that room and be
 *       demoted again by the migration that makes it).
 *   <li>Otherwise they are put back, at most half a table, those a get read first: put back, they
 *       leave the mutable table room to fill with new reads instead of being frozen again at once,
 *       and the records read while they waited are the likeliest to be read again.
 * </ol>
 */
final class PromotionPolicy {
  /** Checks a record may wait through, put back each time, with no get reading it. */
  static final int MAX_PUT_BACKS_UNREAD = 2;
  /**
   * Smallest admitted share of recent slow-tier read bytes at which a check promotes. Measured at
   * the 16 MiB standard profile (hotrap-bench run, 1 KiB records, 11x the budget in data): uniform
   * reads are admitted at 0.14 (chance returns within the filter's window, which is two hot-set
   * limits), Zipf 0.99's tail at about 0.4 (0.41 at 128 MiB). At 0.5, DESIGN.md §9's half-file
   * rule, a Zipf table was promoted only when its share happened to peak, and the fast hit rate
   * stayed under an exact LRU's (0.68 against 0.69 on the same trace); at 0.25 it was 0.78, within
   * 4 points of Belady's MIN, while uniform reads promoted 0.27 MiB in 90 s.
   */
  static final double MIN_ADMITTED_SHARE = 0.25;

  /**
   * Share of RALT's cap that one check may always take as returns, however full the hot set. The
   * room is what the hot set can still grow to hold; when the reads' hot set is larger than the cap
   * (a Zipf tail), RALT keeps only part of it hot and retention demotes the rest, so returns beyond
   * the hot set live on the fast tier until the next migration. They are still read there: at
   * 16 MiB on ro-zipf, with RALT's hot set cut to 0.975 of its limit at each eviction, the fast hit
   * rate was 0.754 without this floor and 0.769 with it (Belady 0.82); the paper's cut of 0.1,
   * which left a room of 0–10% of the cap, gave 0.760. They take the fast tier's budget beyond the
   * hot set; promotion still yields to user writes that wait for room (rule 3), so the loop of
   * promotion and demotion does not crowd writes out.
   */
  static final double MIN_RETURN_ROOM_SHARE = 0.1;

  private PromotionPolicy() {}

  /**
   * Hot bytes (key + value) of records that came back which one check may take as hot: what RALT's
   * hot set ({@code hotSetBytes}) can still grow to hold under {@code cap}, and at least
   * {@value #MIN_RETURN_ROOM_SHARE} of the cap.
   */
  static long returnRoom(long cap, long hotSetBytes) {
    return Math.max((long) (MIN_RETURN_ROOM_SHARE * cap), cap - hotSetBytes);
  }

  /** One record of the frozen table, as the policy sees it; {@code item} is the caller's handle. */
  record Candidate<T>(T item, byte[] key, long keyValueBytes, long cacheBytes, int putBacksUnread,
      boolean wasRead) {}

  enum Action { PROMOTE, PUT_BACK, NOTHING }

  /**
   * The decision: the action and its records, with what the check saw on the way (records dropped
   * unread, returns taken as hot).
   */
  record Decision<T>(Action action, List<T> records, long droppedUnread, long returned) {}

  /** What the check knows besides the table. */
  record Context(Predicate<byte[]> stableHot, long returnRoom, double admittedShare,
      boolean writersWaiting, long targetBytes) {
    /** A check with the hotness check off: every record is hot. */
    static Context withoutHotnessCheck(boolean writersWaiting, long targetBytes) {
      return new Context(null, 0, 1.0, writersWaiting, targetBytes);
    }
  }

  /** Whether a check at {@code admittedShare} may promote at all (and so needs RALT's latest). */
  static boolean mayPromote(double admittedShare) {
    return admittedShare >= MIN_ADMITTED_SHARE;
  }

  static <T> Decision<T> decide(List<Candidate<T>> table, Context context) {
    long returnRoom = context.returnRoom();
    List<Candidate<T>> hot = new ArrayList<>();
    long hotBytes = 0;
    long returned = 0;
    long unread = 0;
    for (Candidate<T> c : table) {
      if (c.putBacksUnread() >= MAX_PUT_BACKS_UNREAD && !c.wasRead()) {
        unread++;
        continue;
      }
      boolean counts = true;
      if (context.stableHot() != null && !context.stableHot().test(c.key())) {
        if (c.keyValueBytes() > returnRoom) {
          continue;
        }
        returnRoom -= c.keyValueBytes();
        returned++;
        counts = c.wasRead() || c.putBacksUnread() == 0;
      }
      hot.add(c);
      if (counts) {
        hotBytes += c.cacheBytes();
      }
    }
    if (hot.isEmpty()) {
      return new Decision<>(Action.NOTHING, List.of(), unread, returned);
    }
    if (hotBytes < context.targetBytes() / 2 || !mayPromote(context.admittedShare())
        || context.writersWaiting()) {
      return new Decision<>(Action.PUT_BACK, upToHalfATable(hot, context.targetBytes()), unread, returned);
    }
    return new Decision<>(Action.PROMOTE, items(hot), unread, returned);
  }

  /** Of {@code records}, those that fit in half a table, the ones a get read first. */
  private static <T> List<T> upToHalfATable(List<Candidate<T>> records, long targetBytes) {
    List<T> kept = new ArrayList<>();
    long room = targetBytes / 2;
    for (boolean read : new boolean[] {true, false}) {
      for (Candidate<T> c : records) {
        if (c.wasRead() == read && c.cacheBytes() <= room) {
          kept.add(c.item());
          room -= c.cacheBytes();
        }
      }
    }
    return kept;
  }

  private static <T> List<T> items(List<Candidate<T>> candidates) {
    List<T> out = new ArrayList<>(candidates.size());
    for (Candidate<T> c : candidates) {
      out.add(c.item());
    }
    return out;
  }
}
