package io.hotrap.jni;

/** Run in a child JVM by {@link NativeHooksTest}: prints what the loader decided in that JVM. */
final class NativeHooksProbe {
  private NativeHooksProbe() {}

  public static void main(String[] args) {
    System.out.println("available=" + NativeHooks.available());
    System.out.println("reason=" + NativeHooks.unavailableReason());
    try (DemotionSet set = new DemotionSet()) {
      System.out.println("set=created, size " + set.size());
    } catch (UnsupportedOperationException e) {
      System.out.println("set=" + e.getMessage());
    }
  }
}
