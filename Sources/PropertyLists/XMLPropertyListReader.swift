public import Adal2MSALSupport
internal import CLibXML2
public import Foundation

/// Reads XML property lists with libxml2's streaming reader.
///
/// No network, no DTD loading, no entity substitution: a DOCTYPE with an internal subset and any entity
/// reference are rejected, so external entities and entity expansion attacks cannot apply. libxml2's own
/// messages are collected (nothing is printed) and reported with their line and column.
public struct XMLPropertyListReader: Sendable {
  public var limits: InputLimits

  public init(limits: InputLimits = .default) { self.limits = limits }

  /// Reads the value inside `<plist>`.
  /// - Throws: `PropertyListError` with the line (and, for malformed XML, the column) of the problem.
  public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
    try read(data, using: LibXML2.loaded.get())
  }

  /// `read`, calling libxml2 through `xml`.
  func read(_ data: Data, using xml: LibXML2) throws(PropertyListError) -> PropertyListValue {
    try XMLPrologCheck.check(data)
    guard data.count <= Int(Int32.max) else { throw .at(offset: 0, "XML input larger than 2 GiB") }
    let collector = XMLErrorCollector()
    let reader: OpaquePointer? = data.withUnsafeBytes { raw in
      // UTF-8 only: the prolog check has refused other encodings, which keeps its byte scan valid.
      xml.readerForMemory(
        raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, "UTF-8",
        Int32(XML_PARSE_NONET.rawValue))
    }
    guard let reader else { throw .at(offset: 0, "libxml2 could not create a reader") }
    defer {
      // xmlTextReaderCurrentDoc (the DOCTYPE check) hands the document over to its caller, and the reader then
      // no longer frees it: take it in every case and free it after the reader.
      let document = xml.currentDocument(reader)
      xml.freeTextReader(reader)
      if let document { xml.freeDocument(document) }
    }
    let context = Unmanaged.passUnretained(collector).toOpaque()
    xml.setStructuredErrorHandler(reader, xmlCollectError, context)
    // The reader reads from `data`'s bytes lazily: keep them alive and in place while parsing.
    do {
      return try withExtendedLifetime(data) { () throws(PropertyListError) -> PropertyListValue in
        var parser = XMLPropertyListParser(xml: xml, reader: reader, errors: collector, limits: limits)
        return try parser.readDocument()
      }
    } catch {
      throw Self.namingTruncation(error, of: data)
    }
  }

  /// `error` of a document that does not end with `</plist>`, saying so: libxml2 calls a document cut short
  /// "Extra content at the end of the document" or "Premature end of data", which says nothing of a truncated
  /// file, the usual cause.
  static func namingTruncation(_ error: PropertyListError, of data: Data) -> PropertyListError {
    let lastBytesFirst = data.suffix(64).reversed().drop { [0x20, 0x09, 0x0A, 0x0D, 0x00].contains($0) }
    guard !lastBytesFirst.starts(with: "</plist>".utf8.reversed()) else { return error }
    var named = error
    named.message += " (the file ends before </plist>: truncated?)"
    return named
  }
}

/// The first error libxml2 reports while reading one document (warnings are ignored).
final class XMLErrorCollector {
  var first: PropertyListError?
}

private func xmlCollectError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
  guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
  let collector = Unmanaged<XMLErrorCollector>.fromOpaque(context).takeUnretainedValue()
  guard collector.first == nil else { return }
  // The first line only: libxml2 may append the raw bytes it choked on, which must not reach a report.
  let full = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
  let message = full.split(whereSeparator: \.isNewline).first.map(String.init) ?? "malformed XML"
  let line = Int(error.pointee.line)
  let column = Int(error.pointee.int2)
  collector.first = .at(
    line: line > 0 ? line : nil, column: column > 0 ? column : nil,
    "malformed XML: " + message.trimmedWhitespaceAndNewlines())
}

/// Rejects a DOCTYPE with an internal subset before libxml2 sees it: without one there can be no entity
/// declarations (external DTDs are never loaded). The scan is over bytes, so the document must be UTF-8 (or
/// ASCII): other encodings, which libxml2 would switch to from a byte order mark or the declaration, are refused.
enum XMLPrologCheck {
  static let acceptedEncodings: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii"]

  static func check(_ data: Data) throws(PropertyListError) {
    let bytes = [UInt8](data.prefix(64 * 1024))  // the prolog, in practice; later DOCTYPEs are malformed anyway
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.prefix(4).contains(0) {
      throw .at(offset: 0, "only UTF-8 XML property lists are supported (UTF-16 or UTF-32 byte order)")
    }
    try checkDeclaredEncoding(bytes)
    var index = 0
    func starts(_ text: String, at position: Int) -> Bool {
      let pattern = Array(text.utf8)
      return position + pattern.count <= bytes.count && Array(bytes[position..<(position + pattern.count)]) == pattern
    }
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "<") else {
        index += 1
        continue
      }
      if starts("<!--", at: index) {
        index = (find("-->", in: bytes, from: index + 4) ?? bytes.count) + 3
      } else if starts("<?", at: index) {
        index = (find("?>", in: bytes, from: index + 2) ?? bytes.count) + 2
      } else if starts("<!DOCTYPE", at: index) {
        var position = index
        while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
          if bytes[position] == UInt8(ascii: "[") {
            throw .at(
              offset: position, "DOCTYPE with an internal subset (entity declarations) is not allowed")
          }
          position += 1
        }
        index = position + 1
      } else if starts("<!ENTITY", at: index) {
        throw .at(offset: index, "entity declarations are not allowed")
      } else {
        return  // the root element: the prolog is over
      }
    }
    if data.count > bytes.count {
      throw .at(offset: bytes.count, "the XML prolog (before the root element) is longer than 64 KiB")
    }
  }

  /// `encoding="…"` in the XML declaration, if any, must name UTF-8 or ASCII.
  private static func checkDeclaredEncoding(_ bytes: [UInt8]) throws(PropertyListError) {
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    guard bytes[start...].starts(with: "<?xml".utf8), let end = find("?>", in: bytes, from: start) else { return }
    let declaration = String(decoding: bytes[start..<end], as: UTF8.self)
    guard let range = declaration.range(of: "encoding") else { return }
    let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return }
    let name = rest.dropFirst().prefix { $0 != quote }.lowercased()
    guard acceptedEncodings.contains(name) else {
      throw .at(offset: start, "only UTF-8 XML property lists are supported (declared encoding \"\(name.prefix(20))\")")
    }
  }

  private static func find(_ text: String, in bytes: [UInt8], from start: Int) -> Int? {
    let pattern = Array(text.utf8)
    guard start <= bytes.count - pattern.count else { return nil }
    for position in start...(bytes.count - pattern.count)
    where bytes[position..<(position + pattern.count)].elementsEqual(pattern) {
      return position
    }
    return nil
  }
}
