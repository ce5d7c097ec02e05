import Dispatch

/// Work that a run hands to other threads and does not wait for: values freed there once the run is done with
/// them (`releaseInBackground`: a read's records, a plan after its report), and what is left of a computation
/// there (`BackgroundValue`) once its result was taken.
public enum BackgroundWork {
  /// Every piece of that work, from its start to its end.
  package static let pending = DispatchGroup()

  /// Returns once every piece of background work started so far has ended: each value handed over to be freed
  /// is freed, and each background computation has let go of what it captured.
  ///
  /// A run returns before that. Wait here where it matters: before measuring memory after a run, or before a
  /// leak checker looks at the heap (libFuzzer's leak check runs as each input returns; it did not see every
  /// reference that queued work still held, and took those values for leaks).
  public static func waitForPending() { pending.wait() }
}
