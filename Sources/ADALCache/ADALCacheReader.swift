import Adal2MSALSupport
import Foundation
import PropertyLists

/// The one entry point for ADAL inputs. Recognises by content (never by file name):
/// - keychain dumps: a plist (XML or binary) array of item dictionaries or dictionary of classes, an
///   objection JSON dump, or a JSON array with Apple's short names and base64 values;
/// - a macOS ADAL cache blob (keyed archive);
/// - one archived item (`ADTokenCacheStoreItem` keyed archive), binary, XML, or as base64 text;
/// - ADAL Python / Azure CLI `accessTokens.json` and ADAL Node caches (`ADALPythonCacheReader`);
/// - ADAL.NET v3 blobs, raw or base64 (`ADALDotNetBlobReader`).
///
/// A problem with the input as a whole throws `ADALCacheError`; a problem with one item is a `Diagnostic`
/// in the result and the other items are read.
public struct ADALCacheReader: Sendable {
  public var limits: InputLimits

  public init(limits: InputLimits = .default) { self.limits = limits }

  public func read(_ data: Data, file: String? = nil) throws(ADALCacheError) -> ADALReadResult {
    try read(data, file: file, pages: nil)
  }

  /// `read`, giving back the pages of `data` (`InputFile.readReleasable`) as a keychain dump's items are
  /// decoded, so that the input and the decoded items do not peak together.
  package func read(_ data: Data, file: String?, pages: InputPages?) throws(ADALCacheError) -> ADALReadResult {
    guard data.count <= limits.maxInputBytes else {
      throw ADALCacheError(
        "input is \(data.count) bytes, larger than the limit of \(limits.maxInputBytes)", at: SourceLocation(file: file)
      )
    }
    if let refusal = InputFormatSniffer.refusal(data) {
      guard refusal == .unsupported(.adalDotNetV3) else { throw ADALCacheError.refusing(refusal, file: file) }
      return try ADALDotNetBlobReader(limits: limits, file: file).read(Self.dotNetBlob(data))
    }
    if PropertyListFormat.sniff(data) != nil { return try readPlist(data, file: file, pages: pages) }
    let text = data.drop {
      $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09
    }
    if let first = text.first, first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
      let root = try ADALJSON.parse(Data(text), limits: limits, file: file)
      if root.arrayValue?.isEmpty == true { return Self.emptyArray(file: file) }
      let parsed: KeychainDumpParser.Parsed
      do {
        parsed = try KeychainDumpParser(limits: limits, file: file).parse(json: root)
      } catch {
        // The dump parser recognises the ADAL Python / Node array (and refuses it as no dump); read it as such.
        guard case .unsupported(let format) = error.kind, format == .adalPythonAccessTokens || format == .adalNode,
          let entries = root.arrayValue
        else { throw error }
        return ADALPythonCacheReader(limits: limits, file: file, format: format).read(entries)
      }
      var result = ADALReadResult(inputKind: parsed.kind, diagnostics: parsed.diagnostics)
      KeychainItemRouter(limits: limits, file: file).route(parsed.records, into: &result)
      return result
    }
    if let string = String(data: Data(text), encoding: .utf8), let decoded = KeychainAttributeValues.base64(string),
      PropertyListFormat.sniff(decoded) != nil
    {
      var result = try readPlist(decoded, file: file, pages: nil)
      result.diagnostics.insert(
        Diagnostic(
          .note, code: "adal.base64-input", "the input is base64 text of a property list",
          at: SourceLocation(file: file)),
        at: 0)
      return result
    }
    throw ADALCacheError(
      "not a recognised ADAL input: \(InputFormatSniffer.describe(data)); expected a keychain dump (plist or JSON), "
        + "a macOS ADAL cache blob or an archived item",
      at: SourceLocation(file: file), kind: .unrecognised)
  }

  /// An empty JSON array: what Azure CLI (2.29 and earlier) writes to `accessTokens.json` when its last user signs
  /// out (`json.dumps` of no entries), and an empty JSON dump too. No items, nothing wrong: a note says what it is.
  private static func emptyArray(file: String?) -> ADALReadResult {
    ADALReadResult(
      inputKind: .adalPythonAccessTokens,
      diagnostics: [
        Diagnostic(
          .note, code: "adal.empty-cache",
          "an empty JSON array: no entries (Azure CLI's accessTokens.json after its last sign-out, or an empty JSON "
            + "dump)", at: SourceLocation(file: file))
      ])
  }

  /// A keychain dump's items. Its parse tree is let go once the records are made and, with `pages`, the input's
  /// pages as the records are decoded: at once those that no record's data value (`v_Data`, `gena`) lies on,
  /// then each once the records whose data values lie on it are decoded (`KeychainItemRouter`). The records
  /// are all made first: the tree's strings borrow the input's bytes too, anywhere in it (a string that
  /// repeats is stored once).
  private func readDump(_ document: consuming PropertyListDocument, file: String?, pages: InputPages?)
    throws(ADALCacheError) -> ADALReadResult
  {
    let (format, kindName) = (document.format, document.value.kindName)
    // The tree, handed over whole: the parser lets its entries go as it makes their records, which copy or
    // borrow what they need of them.
    let tree = document.value
    document.value = .array([])
    guard let parsed = try KeychainDumpParser(limits: limits, file: file).parse(plist: consume tree) else {
      throw ADALCacheError(
        "the \(format.displayName) is neither a keychain dump nor a keyed archive (root is \(Wording.indefinite(kindName)))",
        at: SourceLocation(file: file), kind: .unrecognised)
    }
    return route(consume parsed, format: format, file: file, pages: pages)
  }

  /// The items of a dump's records, giving back the input's pages as `readDump` says.
  private func route(
    _ parsed: consuming KeychainDumpParser.Parsed, format: PropertyListFormat, file: String?, pages: InputPages?
  ) -> ADALReadResult {
    if let pages {
      var ranges: [Range<Int>] = []
      ranges.reserveCapacity(parsed.records.count * 2)
      for index in parsed.records.indices {  // the two fields, not a copy of each record
        KeychainItemRouter.appendBorrowedRanges(
          data: parsed.records[index].data, generic: parsed.records[index].generic, in: pages, to: &ranges)
      }
      pages.hold(ranges)
      pages.releaseUnheld()
    }
    var result = ADALReadResult(inputKind: parsed.kind, plistFormat: format, diagnostics: parsed.diagnostics)
    KeychainItemRouter(limits: limits, file: file).route(
      parsed.records, into: &result, releasing: pages)
    // The records (40,000 of them, each borrowing its item's bytes) are freed on another core: freed here, they
    // held up the start of planning.
    let isLarge = parsed.records.count >= parallelMapMinimumChunk
    releaseInBackground(consume parsed, worthIt: isLarge)
    return result
  }

  /// The blob's bytes: the file itself, or the base64 text of it (Xamarin Android kept it so).
  private static func dotNetBlob(_ data: Data) -> Data {
    if data.starts(with: [3, 0, 0, 0]) { return data }
    let text = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace && $0 != "\u{FEFF}" }
    return Data(base64Encoded: text) ?? data
  }

  private func readPlist(_ data: Data, file: String?, pages: InputPages?) throws(ADALCacheError) -> ADALReadResult {
    // The usual dump, a binary array of item dictionaries, is read without the property list's tree, whose making
    // on one core was about a tenth of a 40k-item dry run's time; any other input is read whole below.
    let parser = KeychainDumpParser(limits: limits, file: file)
    let router = KeychainItemRouter(limits: limits, file: file)
    let flat = try FlatDictionaryArray.withEntries(of: data, limits: limits, borrowsData: true) {
      entries throws(ADALCacheError) -> ADALReadResult in
      guard entries.count <= limits.maxObjects else {
        throw ADALCacheError("the dump has more than \(limits.maxObjects) items", at: SourceLocation(file: file))
      }
      try KeychainDumpParser.requireItems(
        entries: entries.count, anyItem: KeychainDumpParser.hasItem(amongFlat: entries), emptyIsDump: true,
        subject: "the property list is an array of \(Wording.counted(entries.count, "entry", "entries"))", file: file)
      var result = ADALReadResult(inputKind: .keychainPlistArray, plistFormat: .binary)
      router.route(flat: entries, parser: parser, into: &result, releasing: pages)
      return result
    }
    if let flat { return flat }
    let document: PropertyListDocument
    do {
      // A dump's items are read from its data objects (`v_Data`) and dropped: borrowed, not copied.
      document = try PropertyListReader(limits: limits, borrowsData: true).read(data, file: file)
    } catch {
      throw ADALCacheError(error.message, at: error.location.inFile(file))
    }
    guard KeyedArchive.isKeyedArchive(document.value) else {
      return try readDump(consume document, file: file, pages: pages)
    }
    let archive: KeyedArchive
    do {
      archive = try KeyedArchiveReader(limits: limits).read(document.value, file: file)
    } catch {
      throw ADALCacheError(error.message, at: error.location.inFile(file))
    }
    if ADALMacBlobReader.isBlob(archive.root) {
      let (items, diagnostics) = try ADALMacBlobReader().read(archive.root, file: file)
      return ADALReadResult(inputKind: .macOSBlob, plistFormat: document.format, items: items, diagnostics: diagnostics)
    }
    if case .object(let object) = archive.root, ADALArchivedItemDecoder.itemClassNames.contains(object.className) {
      var result = ADALReadResult(inputKind: .archivedItem, plistFormat: document.format)
      do {
        let (item, diagnostics) = try ADALArchivedItemDecoder().decode(
          archive.root, source: ADALItemSource(file: file, itemIndex: 0))
        result.items = [item]
        result.diagnostics = diagnostics
      } catch {
        result.diagnostics = [error.diagnostic]
      }
      return result
    }
    throw ADALCacheError(
      "the keyed archive's root is \(archive.rootClassName ?? archive.root.kindName), neither an ADAL item nor a macOS ADAL cache",
      at: SourceLocation(file: file), kind: .unrecognised)
  }
}
