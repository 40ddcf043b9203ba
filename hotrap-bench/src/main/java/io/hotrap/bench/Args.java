package io.hotrap.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code --name value} options of one subcommand. Every option a subcommand reads must be
 * declared, so a misspelt option fails instead of being ignored.
 */
public final class Args {
  private final String command;
  private final Map<String, String> values = new HashMap<>();

  private Args(String command) {
    this.command = command;
  }

  /**
   * Parses {@code args} (the subcommand's own arguments) against the options it accepts.
   *
   * @throws UsageException on an unknown option or an option without a value
   */
  public static Args parse(String command, List<String> args, String... accepted) {
    Set<String> known = new HashSet<>(List.of(accepted));
    Args parsed = new Args(command);
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (!a.startsWith("--") || !known.contains(a.substring(2))) {
        throw new UsageException(command + ": unknown option " + a
            + " (accepted: --" + String.join(", --", accepted) + ")");
      }
      if (i + 1 >= args.size()) {
        throw new UsageException(command + ": option " + a + " needs a value");
      }
      parsed.values.put(a.substring(2), args.get(++i));
    }
    return parsed;
  }

  public String getString(String name, String dflt) {
    return values.getOrDefault(name, dflt);
  }

  public long getLong(String name, long dflt) {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      return Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new UsageException(command + ": --" + name + " must be an integer but was " + v);
    }
  }

  public int getInt(String name, int dflt) {
    long v = getLong(name, dflt);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new UsageException(command + ": --" + name + " is out of range: " + v);
    }
    return (int) v;
  }

  public double getDouble(String name, double dflt) {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new UsageException(command + ": --" + name + " must be a number but was " + v);
    }
  }

  public Path getPath(String name, Path dflt) {
    String v = values.get(name);
    return v == null ? dflt : Path.of(v);
  }

  /** A command line that does not follow the usage; its message says what is wrong. */
  public static final class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }
}
