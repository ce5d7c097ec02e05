import ADALCache
import Adal2MSALSupport
import Foundation
import PropertyLists
import UnifiedCache

/// What a file is and what it holds, as `adal2msal inspect` shows it: an ADAL input (one line per item), a
/// unified cache (one line per entity; a blank file is an empty one) or any other property list or
/// NSKeyedArchiver archive (its tree).
/// Tokens are shown as SHA-256 fingerprints unless `revealSecrets` is set.
///
/// ```swift
/// print(try Inspection(file: "device-keychain.plist").render(.text))
/// ```
public struct Inspection: Sendable {
  /// How the inspection is rendered.
  public enum Format: String, Sendable, Hashable, CaseIterable {
    /// Lines for people (not yet escaped for a terminal: see `TerminalText`).
    case text
    /// A JSON object.
    case json
  }

  public var file: String
  /// Show tokens, secrets and the values of fields this tool does not model.
  public var revealSecrets: Bool
  public var limits: InputLimits
  /// How the refusal of a file that it does not show (a store) says what reads it.
  package var fileNames = RunFileNames.inspecting

  public init(file: String, revealSecrets: Bool = false, limits: InputLimits = .default) {
    self.file = file
    self.revealSecrets = revealSecrets
    self.limits = limits
  }

  /// Reads the file and renders what it is and holds.
  ///
  /// - Throws: a file that cannot be read or is none of these (`InputFileError`, `ADALCacheError`,
  ///   `UnifiedCacheError`, `PropertyListError`); an adal2msal store is refused with what reads it.
  public func render(_ format: Format) throws -> String {
    // A keychain dump's pages are given back as its items are decoded, as `migrate` reads it: held whole beside
    // the items, the 40k-item dump peaked at 2.1x its size.
    let (data, pages) = try InputFile.readReleasable(file, limits: limits)
    if Self.mayBeUnifiedCache(data), let result = try unifiedCache(data) { return render(result, format) }
    let adal: ADALReadResult
    do {
      adal = try ADALCacheReader(limits: limits).read(data, file: file, pages: pages)
    } catch {
      // An MSAL.NET v2 dictionary cache is a JSON array, as most ADAL JSON dumps are: the ADAL reader tells it.
      if case .wrongOption(.msalInput) = error.kind, (pages?.releasedPageCount ?? 0) == 0 {
        return render(try UnifiedCacheJSONReader(limits: limits).read(data, file: file), format)
      }
      // Not an ADAL input: show any property list as its tree; anything else is the ADAL reader's error.
      guard PropertyListFormat.sniff(data) != nil else { throw fileNames.advising(error, of: data) }

      // A format recognised but not supported (ADAL Android's XML) is named, not shown as a broken plist.
      if case .unsupported = error.kind { throw error }
      // The reader gives pages back only once it has recognised a dump, after which it does not fail; should
      // that change, the tree is read from the file again rather than from bytes given back.
      let whole = (pages?.releasedPageCount ?? 0) == 0 ? data : try InputFile.read(file, limits: limits)
      let inspection = try PropertyListInspection.inspect(whole, file: file, limits: limits)
      switch format {
      case .text:
        return PropertyListRendering.text(inspection, showSecrets: revealSecrets)
          + "note: not an ADAL cache (\(error.localizedDescription))\n"
      case .json: return PropertyListRendering.json(inspection, showSecrets: revealSecrets)
      }
    }
    switch format {
    case .text:
      return TerminalText.joinedLines(
        ["file: \(file)", "format: ADAL \(adal.inputKind.rawValue)"]
          + ADALInspection.textLines(adal, revealSecrets: revealSecrets))
    case .json:
      let report = ADALInspectionReport(adal, revealSecrets: revealSecrets).jsonValue
      let body: JSONObject = [
        "file": .string(file), "format": .string("adal-\(adal.inputKind.rawValue)"), "adal": report,
      ]
      return JSONText.pretty(.object(body), indent: 2) + "\n"
    }
  }

  /// A unified cache as `render` shows it.
  private func render(_ result: UnifiedCacheReadResult, _ format: Format) -> String {
    switch format {
    case .text:
      return TerminalText.joinedLines(
        ["file: \(file)", "format: MSAL unified cache JSON"]
          + UnifiedCacheInspection.textLines(result, revealSecrets: revealSecrets))
    case .json:
      let body: JSONObject = [
        "file": .string(file), "format": .string("msal-json"),
        "cache": .object(UnifiedCacheInspection.jsonObject(result, revealSecrets: revealSecrets)),
        "diagnostics": .array(result.diagnostics.map { .string($0.description) }),
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
  /// of keychain classes (most ADAL JSON dumps are arrays). A file of white space alone is an empty unified
  /// cache, as `migrate --msal` and every MSAL library read it (msal-node's samples ship a 0-byte one).
  static func mayBeUnifiedCache(_ data: Data) -> Bool {
    var bytes = data.prefix(4096)[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return true }
    return first == UInt8(ascii: "{")
  }
}

extension RunFileNames {
  /// An inspection's words: it shows every input, and refuses a store, which the store's own API reads.
  static var inspecting: RunFileNames {
    var names = RunFileNames()
    names.giveAsADALInput = "read it with `MigrationRun(adal:)`"
    names.giveAsMSALInput = "read it with `MigrationRun(msal:)`"
    names.giveAsStore = "read it with `CacheStore.open(path:options:)`"
    return names
  }
}
