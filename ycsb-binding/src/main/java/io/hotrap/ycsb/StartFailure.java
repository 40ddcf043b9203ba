package io.hotrap.ycsb;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import site.ycsb.DBException;

/**
 * Why the binding could not start for one set of {@code hotrap.*} settings, printed once however
 * many clients meet it.
 *
 * <p>YCSB makes one binding per client thread and, when a binding's {@code init()} throws, prints
 * the exception's stack trace from that thread twice, to stderr and then to stdout. A misspelt
 * property therefore printed a stack trace per thread, twice over. Now every client that meets the
 * failure throws its own {@link StartException}, all with this failure's message and the same
 * cause; the first of them to be printed prints one line,
 * {@code HotRapYcsbClient cannot start: <reason>}, and every later print of any of them prints
 * nothing. YCSB prints to stderr first, so the line lands there. Thread-safe.
 */
final class StartFailure {
  static final String PREFIX = "HotRapYcsbClient cannot start: ";

  private final Map<String, String> settings;
  private final DBException cause;
  private final boolean permanent;
  private final long number;
  private final String line;
  private final AtomicBoolean printed = new AtomicBoolean();

  /**
   * @param settings the {@code hotrap.*} properties that failed
   * @param cause what failed, with a message naming the property or the store
   * @param permanent whether the same settings always fail so (invalid properties), rather than
   *     failing this time (a store that would not open)
   * @param number this failure's place among the failures of the JVM, from 1
   */
  StartFailure(Map<String, String> settings, DBException cause, boolean permanent, long number) {
    this.settings = Map.copyOf(settings);
    this.cause = cause;
    this.permanent = permanent;
    this.number = number;
    this.line = PREFIX + oneLine(cause);
  }

  /**
   * Whether a client with {@code settings} that had seen {@code failuresSeen} failures when it
   * asked for the store gets this failure too: always for invalid settings, and for a store that
   * would not open if the failure happened while the client was waiting.
   */
  boolean answers(Map<String, String> settings, long failuresSeen) {
    return this.settings.equals(settings) && (permanent || number > failuresSeen);
  }

  /** A new exception for one client, with this failure's message and cause. */
  StartException newException() {
    return new StartException(this);
  }

  /** The line the first print prints. */
  String line() {
    return line;
  }

  DBException cause() {
    return cause;
  }

  private void printOnce(PrintStream s) {
    if (printed.compareAndSet(false, true)) {
      s.println(line);
    }
  }

  private void printOnce(PrintWriter s) {
    if (printed.compareAndSet(false, true)) {
      s.println(line);
    }
  }

  /**
   * The messages of {@code e} and its causes joined by ": ", each left out if the text already
   * holds it, with line breaks folded, so that a reason nested in a cause (RocksDB's, the file
   * system's) shows without a stack trace.
   */
  static String oneLine(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      String m = t.getMessage();
      if (m == null || m.isBlank() || text.indexOf(m.strip()) >= 0) {
        continue;
      }
      if (text.length() > 0) {
        text.append(": ");
      }
      text.append(m.strip());
    }
    return text.toString().replaceAll("\\s*\\R\\s*", "; ");
  }

  /**
   * What one client's {@code init()} throws for a {@link StartFailure}: its message and cause are
   * the failure's; printing it prints the failure's line if no client's exception printed it yet,
   * and nothing otherwise.
   */
  static final class StartException extends DBException {
    private static final long serialVersionUID = 1L;
    private final transient StartFailure failure;

    private StartException(StartFailure failure) {
      super(failure.cause.getMessage(), failure.cause);
      this.failure = failure;
    }

    /** The failure this exception reports, shared with the other clients that met it. */
    StartFailure failure() {
      return failure;
    }

    @Override
    public void printStackTrace(PrintStream s) {
      if (failure != null) {
        failure.printOnce(s);
      } else {
        super.printStackTrace(s);
      }
    }

    @Override
    public void printStackTrace(PrintWriter s) {
      if (failure != null) {
        failure.printOnce(s);
      } else {
        super.printStackTrace(s);
      }
    }
  }
}
