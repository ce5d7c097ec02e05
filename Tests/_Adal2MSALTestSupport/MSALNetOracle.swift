import Foundation

/// The real MSAL.NET (Microsoft.Identity.Client 4.83.3, netstandard2.0) on Mono, driven by
/// `scripts/oracle/msalnet_oracle.cs` against a faked identity provider. Mono and the assemblies are installed by
/// `scripts/bootstrap.sh --test-oracles` (`.msalnet-oracle/lib`, or `ADAL2MSAL_MSALNET_LIB`); the program is
/// compiled once per test process. Anything missing is an error that says how to install it, never a skip.
public enum MSALNetOracle {
  public struct Missing: Error, CustomStringConvertible {
    public var what: String
    public var description: String {
      "the MSAL.NET oracle is missing \(what): run `bash scripts/bootstrap.sh --test-oracles` (or set ADAL2MSAL_MSALNET_LIB)"
    }
  }

  /// A compile of the oracle program that did not succeed.
  public struct CompileError: Error, CustomStringConvertible {
    public var output: String
    public var description: String { "mcs could not compile scripts/oracle/msalnet_oracle.cs: \(output)" }
  }

  static let mono = URL(fileURLWithPath: "/usr/bin/mono")
  static let compiler = URL(fileURLWithPath: "/usr/bin/mcs")
  static let facades = "/usr/lib/mono/4.5/Facades/netstandard.dll"

  /// The folder holding Microsoft.Identity.Client.dll and what it needs at run time.
  public static var library: URL {
    if let path = ProcessInfo.processInfo.environment["ADAL2MSAL_MSALNET_LIB"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return Fixtures.repositoryRoot.appendingPathComponent(".msalnet-oracle/lib")
  }

  static let program: Result<URL, any Error> = Result { try compile() }

  static func compile() throws -> URL {
    for tool in [mono, compiler, URL(fileURLWithPath: facades)] where !FileManager.default.fileExists(atPath: tool.path)
    {
      throw Missing(what: tool.path)
    }
    let references = ["Microsoft.Identity.Client.dll", "Microsoft.IdentityModel.Abstractions.dll"].map {
      library.appendingPathComponent($0).path
    }
    for path in references where !FileManager.default.fileExists(atPath: path) { throw Missing(what: path) }
    let output = try Fixtures.temporaryDirectory("msalnet-oracle").appendingPathComponent("msalnet_oracle.exe")
    let source = Fixtures.repositoryRoot.appendingPathComponent("scripts/oracle/msalnet_oracle.cs").path
    let result = try ProcessRunner.run(
      compiler,
      arguments: [
        "-nologo", "-warnaserror+", "-out:\(output.path)", source, "-r:System.Net.Http.dll", "-r:System.Json.dll",
        "-r:\(facades)",
      ] + references.map { "-r:\($0)" })
    guard result.exitCode == 0 else { throw CompileError(output: result.stdout + result.stderr) }
    return output
  }

  /// Runs `msalnet_oracle.exe` with `arguments` (see the program's header for its commands).
  public static func run(_ arguments: [String]) throws -> ProcessRunner.Output {
    let program = try program.get()
    var environment = ProcessInfo.processInfo.environment
    environment["MONO_PATH"] = library.path
    return try ProcessRunner.run(mono, arguments: [program.path] + arguments, environment: environment, timeout: 120)
  }

  /// What one run found: the JSON the program printed, with its counts.
  public struct Verdict {
    public var exitCode: Int32
    public var passed = 0
    public var failed = 0
    public var output = ""
    /// `label -> check -> (status, reason)`.
    public var checks: [String: [String: (status: String, reason: String)]] = [:]

    init(_ result: ProcessRunner.Output) {
      exitCode = result.exitCode
      output = result.stdout + result.stderr
      guard let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
        return
      }
      passed = object["passed"] as? Int ?? 0
      failed = object["failed"] as? Int ?? 0
      for account in object["accounts"] as? [[String: Any]] ?? [] {
        let label = account["label"] as? String ?? ""
        for (name, value) in account["checks"] as? [String: [String: String]] ?? [:] {
          checks[label, default: [:]][name] = (value["status"] ?? "", value["reason"] ?? "")
        }
      }
    }

    /// The status of every `check` across the accounts, in label order.
    public func statuses(of check: String) -> [String] {
      checks.keys.sorted().map { checks[$0]?[check]?.status ?? "absent" }
    }
  }

  /// `lifecycle CACHE ARGS`: MSAL.NET's account lifecycle on a unified cache.
  public static func lifecycle(cache: URL, arguments: URL) throws -> Verdict {
    Verdict(try run(["lifecycle", cache.path, arguments.path]))
  }

  /// `adal-blob BLOB ARGS OUT`: what MSAL.NET builds from an ADAL.NET v3 blob, written to `output`.
  public static func buildFromADALBlob(_ blob: URL, arguments: URL, output: URL) throws -> Verdict {
    Verdict(try run(["adal-blob", blob.path, arguments.path, output.path]))
  }
}
