import Adal2MSAL
import Adal2MSALSynthetic
import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension BenchCommand {
  /// Reads a large binary property list of keyed-archive items with our reader and with Foundation's
  /// `PropertyListSerialization`, each in its own child process, and prints throughput and peak memory.
  struct Plist: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "plist",
      abstract: "Binary property list reading: adal2msal's reader against Foundation (child process each).")

    @Option(help: "Number of ADAL-like keyed-archive items to generate.")
    var items = 100_000

    @Option(help: "Read this binary property list instead of generating one.")
    var file: String?

    @Option(help: .hidden)
    var child: String?

    func run() async throws {
      if let child, let file {
        try runChild(reader: child, path: file)
        return
      }
      let path: String
      if let file {
        path = file
      } else {
        path =
          FileManager.default.temporaryDirectory.appendingPathComponent("adal2msal-bench-plist-\(items).plist").path
        let started = ContinuousClock.now
        try PlistBenchInput.make(items: items).write(to: URL(fileURLWithPath: path))
        print("generated \(items) items in \(ContinuousClock.now - started): \(path)")
      }
      let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
      let megabytes = Double(size) / 1_048_576
      print(String(format: "input: %.1f MB binary plist", megabytes))
      print("each reader runs in its own child process; peak RSS is that process's VmHWM, input buffer included")
      print(
        "reader       load s  parse s (wall)  MB/s  parse s (CPU)  MB/s (CPU)  RSS after load MB  peak RSS MB  peak/file  values"
      )
      for reader in ["adal2msal", "foundation", "floor"] {
        let figures = try spawnChild(reader: reader, path: path)
        let parse = figures["parse"] ?? 0
        print(
          String(
            format: "%-11@ %7.2f  %14.2f  %4.0f  %13.2f  %10.0f  %17.0f  %11.0f  %9.2f  %@",
            reader as NSString, figures["load"] ?? 0, parse, megabytes / max(parse, 1e-9), figures["cpu"] ?? 0,
            megabytes / max(figures["cpu"] ?? 0, 1e-9),
            (figures["rssLoaded"] ?? 0) / 1024, (figures["rssPeak"] ?? 0) / 1024,
            (figures["rssPeak"] ?? 0) * 1024 / Double(max(size, 1)), String(Int(figures["values"] ?? 0)) as NSString))
        if let resolve = figures["resolve"] {
          print(String(format: "  + resolving every item as a keyed archive: %.2f s", resolve))
        }
      }
      print(
        "floor: every string object decoded into one [String], nothing else (what any reader of Swift Strings holds)")
    }

    private func spawnChild(reader: String, path: String) throws -> [String: Double] {
      let process = Process()
      process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
      process.arguments = ["plist", "--file", path, "--child", reader]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let output = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { throw BenchFailure("the \(reader) child failed") }
      var figures: [String: Double] = [:]
      for field in String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace) {
        let parts = field.split(separator: "=")
        if parts.count == 2, let value = Double(parts[1]) { figures[String(parts[0])] = value }
      }
      return figures
    }

    private func runChild(reader: String, path: String) throws {
      let loadStart = ContinuousClock.now
      let data = try Self.readFile(path)
      let load = ContinuousClock.now - loadStart
      let rssLoaded = Self.peakRSSKilobytes()
      let cpuStart = Self.processCPUSeconds()
      let start = ContinuousClock.now
      var values = 0
      var resolveSeconds: Double?
      switch reader {
      case "adal2msal":
        let document = try PropertyListReader().read(data, file: path)
        values = document.value.arrayValue?.count ?? 0
        let parsed = ContinuousClock.now
        print("cpu=\(Self.processCPUSeconds() - cpuStart)")
        let archives = KeyedArchiveReader()
        var resolved = 0
        for item in document.value.arrayValue ?? [] where try archives.read(item).rootClassName != nil { resolved += 1 }
        guard resolved == values else { throw BenchFailure("resolved \(resolved) of \(values) archives") }
        resolveSeconds = Self.seconds(ContinuousClock.now - parsed)
        print("parse=\(Self.seconds(parsed - start))")
      case "floor":
        values = PlistStringFloor.strings(in: data).count
        print("parse=\(Self.seconds(ContinuousClock.now - start)) cpu=\(Self.processCPUSeconds() - cpuStart)")
      default:
        let value = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        values = (value as? [Any])?.count ?? 0
        print("parse=\(Self.seconds(ContinuousClock.now - start)) cpu=\(Self.processCPUSeconds() - cpuStart)")
      }
      print("load=\(Self.seconds(load)) rssLoaded=\(rssLoaded) rssPeak=\(Self.peakRSSKilobytes()) values=\(values)")
      if let resolveSeconds { print("resolve=\(resolveSeconds)") }
      withExtendedLifetime(data) {}
    }

    /// Reads the file into one buffer of exactly its size (Data(contentsOf:) on Linux grows its buffer and
    /// leaves several times the file size in the peak RSS).
    static func readFile(_ path: String) throws -> Data {
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
      defer { try? handle.close() }
      let size = Int(try handle.seekToEnd())
      try handle.seek(toOffset: 0)
      var data = Data(count: size)
      let descriptor = handle.fileDescriptor
      var done = 0
      try data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) throws in
        guard let base = buffer.baseAddress else { return }
        while done < size {
          let count = read(descriptor, base + done, size - done)
          guard count > 0 else { throw BenchFailure("short read of \(path)") }
          done += count
        }
      }
      return data
    }

    /// CPU time of this process (all threads), which a loaded machine does not inflate the way it does wall time.
    static func processCPUSeconds() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
      return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func seconds(_ duration: Duration) -> Double {
      Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// This process's peak resident set size in KiB: `VmHWM` from /proc/self/status where there is one, else
    /// getrusage's ru_maxrss. (On Linux ru_maxrss of an exec'd child starts at its parent's RSS at fork time,
    /// which would charge the generator's memory to the readers; VmHWM belongs to the new address space.)
    static func peakRSSKilobytes() -> Int {
      if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
      {
        return kilobytes
      }
      var usage = rusage()
      getrusage(RUSAGE_SELF.rawValue, &usage)
      return Int(usage.ru_maxrss)
    }
  }
}

/// The synthetic input: one array of ADAL-like `ADTokenCacheStoreItem` keyed archives with ~1 KB of tokens each.
enum PlistBenchInput {
  static func make(items: Int) -> Data {
    var random = SyntheticRandom(state: 0xADA1)
    var archives: [PropertyListValue] = []
    archives.reserveCapacity(items)
    for item in 0..<items { archives.append(archive(item, &random)) }
    var writer = BinaryPlistWriter(maxObjects: items * 64 + 64, reserveBytes: items * 1_600)
    let top = write(.array(archives), into: &writer)
    return Data(writer.finish(top: top))
  }

  /// Writes the kinds of value `archive` makes, children first, with the synthetic module's writer.
  private static func write(_ value: PropertyListValue, into writer: inout BinaryPlistWriter) -> BinaryPlistWriter.Ref {
    switch value {
    case .bool(let flag): return writer.bool(flag)
    case .integer(let number): return writer.integer(Int64(number))
    case .real(let number): return writer.real(number)
    case .string(let text): return writer.string(text.value)
    case .uid(let uid): return writer.uid(Int(uid))
    case .array(let elements): return writer.array(elements.map { write($0, into: &writer) })
    case .dictionary(let dictionary):
      let keys = dictionary.map { writer.string($0.key) }
      let values = dictionary.map { write($0.value, into: &writer) }
      return writer.dictionary(keys: keys, values: values)
    default: preconditionFailure("the benchmark's archives hold no \(value.kindName)")
    }
  }

  static func dict(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
    .dictionary(PropertyListDictionary(entries))
  }

  static func classObject(_ name: PropertyListString) -> PropertyListValue {
    dict([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))])
  }

  static func token(_ length: Int, _ random: inout SyntheticRandom) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var bytes = [UInt8](repeating: 0, count: length)
    for index in 0..<length { bytes[index] = alphabet[Int(random.next() & 63)] }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func archive(_ item: Int, _ random: inout SyntheticRandom) -> PropertyListValue {
    let accessToken = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9." + token(560, &random) + "." + token(342, &random)
    let objects: [PropertyListValue] = [
      .string("$null"),
      dict([
        ("$class", .uid(15)), ("authority", .uid(2)), ("resource", .uid(3)), ("clientId", .uid(4)),
        ("accessToken", .uid(5)), ("refreshToken", .uid(6)), ("accessTokenType", .uid(7)), ("expiresOn", .uid(8)),
        ("userInformation", .uid(10)),
      ]),
      .string("https://login.microsoftonline.com/common"), .string("https://graph.microsoft.com"),
      .string("27AD83C9-FC05-4A6C-AF01-36EDA42ED18F"), .string(PropertyListString(accessToken)),
      .string(PropertyListString(token(280, &random))),
      .string("Bearer"),
      dict([("$class", .uid(9)), ("NS.time", .real(700_000_000 + Double(item)))]),
      classObject("NSDate"),
      dict([("$class", .uid(11)), ("userId", .uid(12)), ("userIdDisplayable", .bool(true)), ("rawIdToken", .uid(13))]),
      classObject("ADUserInformation"),
      dict([("$class", .uid(14)), ("NS.string", .string("user\(item)@contoso.com"))]),
      .string(PropertyListString(token(150, &random))),
      classObject("NSMutableString"),
      classObject("ADTokenCacheStoreItem"),
    ]
    return dict([
      ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")), ("$top", dict([("root", .uid(1))])),
      ("$objects", .array(objects)),
    ])
  }
}
