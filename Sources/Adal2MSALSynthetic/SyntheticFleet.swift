import Foundation

/// Writes synthetic dumps to disk: one dump set in several formats, or a fleet directory of device dumps.
public enum SyntheticFleet {
  /// What was written.
  public struct Written: Sendable {
    public var files: Int = 0
    public var items: Int = 0
    public var bytes: Int = 0
    /// The largest file, in bytes.
    public var largestFile: Int = 0

    public init() {}

    mutating func add(items: Int, bytes: Int) {
      files += 1
      self.items += items
      self.bytes += bytes
      largestFile = max(largestFile, bytes)
    }

    mutating func merge(_ other: Written) {
      files += other.files
      items += other.items
      bytes += other.bytes
      largestFile = max(largestFile, other.largestFile)
    }
  }

  /// The file name of device `index` (1-based, zero-padded so that sorted order is device order).
  public static func deviceFileName(_ index: Int, format: SyntheticFormat) -> String {
    "device-\(SyntheticText.pad(index, 6)).\(format.fileExtension)"
  }

  /// The format of device `index` when `format` is nil: the four formats in turn.
  public static func format(ofDevice index: Int, _ format: SyntheticFormat?) -> SyntheticFormat {
    format ?? SyntheticFormat.allCases[(index - 1) % SyntheticFormat.allCases.count]
  }

  /// Writes `devices` device dumps into `directory` on `workers` threads. Deterministic for `seed` whatever the
  /// number of workers: device `i` is generated from stream `i` of the seed.
  public static func writeFleet(
    devices: Int, minItems: Int, maxItems: Int, format: SyntheticFormat?, seed: UInt64, directory: URL,
    workers: Int = ProcessInfo.processInfo.activeProcessorCount
  ) throws -> Written {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let width = max(1, min(workers, devices))
    let results = ResultBox(count: width)
    DispatchQueue.concurrentPerform(iterations: width) { worker in
      var written = Written()
      do {
        for index in stride(from: worker + 1, through: devices, by: width) {
          var generator = SyntheticGenerator(seed: seed, stream: index)
          let dump = generator.device(minItems: minItems, maxItems: maxItems)
          let deviceFormat = Self.format(ofDevice: index, format)
          let bytes = deviceFormat.encode(dump)
          try Data(bytes).write(to: directory.appendingPathComponent(deviceFileName(index, format: deviceFormat)))
          written.add(items: dump.items.count, bytes: bytes.count)
        }
        results.set(worker, .success(written))
      } catch {
        results.set(worker, .failure(error))
      }
    }
    var total = Written()
    for result in results.values { total.merge(try result.get()) }
    return total
  }

  /// Writes `itemCount` items as dumps of at most `itemsPerDump` items (the last may be smaller) into
  /// `directory`: the input of a run of that many items.
  public static func writeItems(
    _ itemCount: Int, itemsPerDump: Int, format: SyntheticFormat, seed: UInt64, directory: URL,
    workers: Int = ProcessInfo.processInfo.activeProcessorCount
  ) throws -> Written {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let perDump = max(1, itemsPerDump)
    let dumps = (itemCount + perDump - 1) / perDump
    let width = max(1, min(workers, dumps))
    let results = ResultBox(count: width)
    DispatchQueue.concurrentPerform(iterations: width) { worker in
      var written = Written()
      do {
        for index in stride(from: worker + 1, through: dumps, by: width) {
          var generator = SyntheticGenerator(seed: seed, stream: index)
          let count = min(perDump, itemCount - (index - 1) * perDump)
          let bytes = format.encode(generator.dump(itemCount: count))
          let name = "dump-\(SyntheticText.pad(index, 6)).\(format.fileExtension)"
          try Data(bytes).write(to: directory.appendingPathComponent(name))
          written.add(items: count, bytes: bytes.count)
        }
        results.set(worker, .success(written))
      } catch {
        results.set(worker, .failure(error))
      }
    }
    var total = Written()
    for result in results.values { total.merge(try result.get()) }
    return total
  }
}

/// One result slot per worker, filled from `concurrentPerform`.
private final class ResultBox: @unchecked Sendable {
  private let lock = NSLock()
  private var slots: [Result<SyntheticFleet.Written, any Error>?]

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ result: Result<SyntheticFleet.Written, any Error>) {
    lock.lock()
    slots[index] = result
    lock.unlock()
  }

  var values: [Result<SyntheticFleet.Written, any Error>] {
    lock.lock()
    defer { lock.unlock() }
    return slots.map { $0 ?? .success(SyntheticFleet.Written()) }
  }
}
