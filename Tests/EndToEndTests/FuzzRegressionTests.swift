import Adal2MSAL
import Foundation
import Testing
import _Adal2MSALTestSupport

/// Every input that once crashed, hung or exhausted a fuzz target (Fixtures/fuzz-regressions/<target>/), read
/// again through the normal reader of that target: a result or a one-line error naming the file, never a crash.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
  /// What each fuzz target (Fuzz/Sources/<target>) runs, without the fuzzing engine.
  static let readers: [String: @Sendable (Data, String) throws -> Void] = [
    "fuzz-binary-plist": { data, _ in
      let value = try BinaryPropertyListReader().read(data)
      _ = PropertyListRendering.json(value)
    },
    "fuzz-xml-plist": { data, _ in
      let value = try XMLPropertyListReader().read(data)
      _ = PropertyListRendering.textTree(value, label: "root")
    },
    "fuzz-keyed-archive": { data, file in
      let inspection = try PropertyListInspection.inspect(data, file: file)
      _ = PropertyListRendering.text(inspection)
      _ = PropertyListRendering.json(inspection)
    },
    "fuzz-unified-json": { data, file in
      _ = UnifiedCacheJSONWriter.export(try UnifiedCacheJSONReader().read(data, file: file).contents).data
    },
    "fuzz-adal-dump": { data, file in _ = try ADALCacheReader().read(data, file: file) },
    "fuzz-pipeline": { data, file in
      let read = try ADALCacheReader().read(data, file: file)
      let options = MigrationOptions(clock: .fixed(Date(timeIntervalSince1970: 1_700_000_000)))
      let plan = Migration.plan(adal: [ADALInput(read, file: file)], options: options)
      let report = Migration.report(plan)
      _ = (report.text(), report.json(), report.markdown())
    },
  ]

  struct Input: Sendable, CustomStringConvertible {
    var target: String
    var path: String
    var description: String { "\(target)/\(URL(fileURLWithPath: path).lastPathComponent)" }
  }

  static let inputs: [Input] = {
    let root = Fixtures.url("fuzz-regressions")
    let targets = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return targets.sorted().flatMap { target in
      ((try? Fixtures.files(in: "fuzz-regressions/" + target)) ?? []).map { Input(target: target, path: $0.path) }
    }
  }()

  @Test("every regression folder is a fuzz target, and holds inputs")
  func foldersAreTargets() throws {
    let root = Fixtures.url("fuzz-regressions")
    let targets = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !$0.hasPrefix(".") }
    for target in targets {
      #expect(Self.readers[target] != nil, "Fixtures/fuzz-regressions/\(target) is not a fuzz target")
      #expect(!(try Fixtures.files(in: "fuzz-regressions/" + target)).isEmpty, "\(target) is empty")
    }
    let fuzzTargets = try FileManager.default.contentsOfDirectory(
      atPath: Fixtures.repositoryRoot.appendingPathComponent("Fuzz/Sources").path
    ).filter { $0.hasPrefix("fuzz-") }
    #expect(Set(fuzzTargets) == Set(Self.readers.keys), "a fuzz target without a regression reader, or the reverse")
  }

  @Test("reads cleanly: a result or a one-line error naming the file", arguments: inputs)
  func readsCleanly(_ input: Input) throws {
    let reader = try #require(Self.readers[input.target])
    let data = try Data(contentsOf: URL(fileURLWithPath: input.path))
    let name = input.description
    do {
      try reader(data, name)
    } catch {
      let message = (error as? LocalizedError)?.errorDescription ?? "\(error)"
      #expect(!message.isEmpty && !message.contains("\n"), "\(name): \(message)")
      // The binary and XML readers work on bytes alone; every other reader names the file.
      if !["fuzz-binary-plist", "fuzz-xml-plist"].contains(input.target) {
        #expect(message.contains(name), "\(name): the error does not name the file: \(message)")
      }
    }
  }
}
