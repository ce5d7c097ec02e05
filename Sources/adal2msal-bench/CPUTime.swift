import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// CPU time (user + system) from getrusage: on a shared machine it shows the work done where wall time also
/// shows the wait for a core.
enum CPUTime {
  /// This process's CPU seconds so far.
  static func ofSelf() -> Double { seconds(of: who(self: true)) }

  /// CPU seconds of the waited-for children.
  static func ofChildren() -> Double { seconds(of: who(self: false)) }

  private static func who(self: Bool) -> Int32 {
    #if canImport(Darwin)
      self ? RUSAGE_SELF : RUSAGE_CHILDREN
    #else
      self ? RUSAGE_SELF.rawValue : RUSAGE_CHILDREN.rawValue
    #endif
  }

  private static func seconds(of who: Int32) -> Double {
    var usage = rusage()
    #if canImport(Darwin)
      getrusage(who, &usage)
    #else
      getrusage(__rusage_who_t(who), &usage)
    #endif
    func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return value(usage.ru_utime) + value(usage.ru_stime)
  }
}
