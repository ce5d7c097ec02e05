import Adal2MSAL
import ArgumentParser
import Foundation

extension Adal2MSALCommand {
  struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show what a file is and what it holds.",
      discussion: """
        Recognises, by content: ADAL keychain dumps (plist or JSON), macOS ADAL blobs and archived ADAL items \
        (one line per item: kind, user, client, authority, resource, expiry, token fingerprints); MSAL \
        unified-cache JSON (one line per entity); any other binary or XML property list or NSKeyedArchiver \
        archive (its decoded tree). Tokens are shown as sha256 fingerprints unless --show-secrets is given.

        Examples:
          adal2msal inspect device-keychain.plist
          adal2msal inspect msal_cache.json --format json
        """)

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
      case text, json
    }

    @Argument(help: "The file to inspect.")
    var file: String

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Flag(
      help: "Print tokens and secrets instead of their fingerprints, and the values of fields this tool does not model."
    )
    var showSecrets = false

    func run() async throws {
      let output = try await runReportingFailures { try FileInspector(file: file, reveal: showSecrets).render(format) }
      // The one place text output is made safe for a terminal (JSON escapes control characters itself).
      FileHandle.standardOutput.write(Data((format == .text ? TerminalText.escaped(output) : output).utf8))
    }
  }
}

/// Decides what a file is (ADAL input, unified cache, other property list) and renders it.
private struct FileInspector {
  let file: String
  let reveal: Bool
  let limits = InputLimits.default

  func render(_ format: Adal2MSALCommand.Inspect.OutputFormat) throws -> String {
    let data = try InputFile.read(file, limits: limits)
    if Self.looksLikeJSONObject(data), let result = try unifiedCache(data) {
      switch format {
      case .text:
        return
          (["file: \(file)", "format: MSAL unified cache JSON"]
          + UnifiedCacheInspection.textLines(result, revealSecrets: reveal)).joined(separator: "\n") + "\n"
      case .json:
        let body: JSONObject = [
          "file": .string(file), "format": .string("msal-json"),
          "cache": .object(UnifiedCacheInspection.jsonObject(result, revealSecrets: reveal)),
          "diagnostics": .array(result.diagnostics.map { .string($0.description) }),
        ]
        return JSONText.pretty(.object(body), indent: 2) + "\n"
      }
    }
    let adal: ADALReadResult
    do {
      adal = try ADALCacheReader(limits: limits).read(data, file: file)
    } catch {
      // Not an ADAL input: show any property list as its tree; anything else is the ADAL reader's error.
      guard PropertyListFormat.sniff(data) != nil else { throw error }
      // A format recognised but not supported (ADAL Android's XML) is named, not shown as a broken plist.
      if case .unsupported = error.kind { throw error }
      let inspection = try PropertyListInspection.inspect(data, file: file, limits: limits)
      switch format {
      case .text:
        return PropertyListRendering.text(inspection, showSecrets: reveal)
          + "note: not an ADAL cache (\(error.localizedDescription))\n"
      case .json: return PropertyListRendering.json(inspection, showSecrets: reveal)
      }
    }
    switch format {
    case .text:
      return
        (["file: \(file)", "format: ADAL \(adal.inputKind.rawValue)"]
        + ADALInspection.textLines(adal, revealSecrets: reveal)).joined(separator: "\n") + "\n"
    case .json:
      let report = try JSONParser().parse(Data(try ADALInspection.json(adal, revealSecrets: reveal).utf8))
      let body: JSONObject = [
        "file": .string(file), "format": .string("adal-\(adal.inputKind.rawValue)"), "adal": report,
      ]
      return JSONText.pretty(.object(body), indent: 2) + "\n"
    }
  }

  /// The unified cache in `data`; nil when it is no cache but an ADAL dump (a JSON dictionary of keychain
  /// classes or one item), which the ADAL reader then shows.
  private func unifiedCache(_ data: Data) throws -> UnifiedCacheReadResult? {
    do {
      return try UnifiedCacheJSONReader(limits: limits).read(data, file: file)
    } catch {
      if error.reason == .notACache, (try? ADALCacheReader(limits: limits).read(data, file: file)) != nil { return nil }
      throw error
    }
  }

  /// A JSON object (after an optional byte-order mark and white space): a unified cache, or an ADAL JSON dump
  /// of keychain classes (most ADAL JSON dumps are arrays).
  static func looksLikeJSONObject(_ data: Data) -> Bool {
    var bytes = data.prefix(4096)[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    return bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
  }
}
