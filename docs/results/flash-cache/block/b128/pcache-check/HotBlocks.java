package io.hotrap.bench.workload;
public class HotBlocks {
  public static void main(String[] a) {
    int n = Integer.parseInt(a[0]);
    HotspotStream hs = AccessStream.hotspot(n, 0.05, 0.95, 7);
    for (int per : new int[] {1, 3, 4}) {
      java.util.BitSet blocks = new java.util.BitSet();
      int hot = 0;
      for (int id = 0; id < n; id++) if (hs.isHot(id)) { hot++; blocks.set(id / per); }
      System.out.println("records per block " + per + ": hot records " + hot + ", hot blocks " + blocks.cardinality() + " of " + (n + per - 1) / per);
    }
  }
}
