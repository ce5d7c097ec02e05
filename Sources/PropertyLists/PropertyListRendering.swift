public import Adal2MSALSupport
public import Foundation

/// What a property list file is and holds: its encoding, its value, and the resolved keyed archive when it
/// is one. `adal2msal inspect` shows it with `PropertyListRendering`.
public struct PropertyListInspection: Sendable {
  public var file: String
  public var document: PropertyListDocument
  public var archive: KeyedArchive?

  public init(file: String, document: PropertyListDocument, archive: KeyedArchive?) {
    self.file = file
    self.document = document
    self.archive = archive
  }

  /// Reads a property list and, when it has the shape of a keyed archive, resolves it.
  /// - Throws: `PropertyListError` naming `file`.
  public static func inspect(
    _ data: Data, file: String, limits: InputLimits = .default
  ) throws(PropertyListError) -> PropertyListInspection {
    let document = try PropertyListReader(limits: limits).read(data, file: file)
    let archive =
      KeyedArchive.isKeyedArchive(document.value)
      ? try KeyedArchiveReader(limits: limits).read(document.value, file: file) : nil
    return PropertyListInspection(file: file, document: document, archive: archive)
  }
}

/// Text and JSON views of property lists and keyed archives. Secrets (values under `SecretPolicy.isSecretKey`
/// and token-like strings) are shown as `SecretFingerprint.of(_:)` unless `showSecrets` is set.
public enum PropertyListRendering {
  /// Data up to this many bytes is shown as base64; longer data by its length and fingerprint.
  public static let maxInlineDataBytes = 64

  /// The indented text view: what the file is, then its content.
  public static func text(_ inspection: PropertyListInspection, showSecrets: Bool = false) -> String {
    var lines = ["file: \(inspection.file)", "format: \(inspection.document.format.displayName)"]
    let content: RenderNode
    if let archive = inspection.archive {
      lines.append("keyed archive: NSKeyedArchiver, root class \(archive.rootClassName ?? archive.root.kindName)")
      content = RenderNode(archive.root, showSecrets: showSecrets)
    } else {
      content = RenderNode(inspection.document.value, showSecrets: showSecrets)
    }
    var writer = TextTreeWriter()
    writer.write(label: "content", content, indent: 0)
    return TerminalText.joinedLines(lines + writer.lines)
  }

  /// `{"file": …, "format": "binary-plist", "keyedArchive": {"rootClass": …} | null, "content": …}`.
  public static func json(_ inspection: PropertyListInspection, showSecrets: Bool = false) -> String {
    var writer = JSONTreeWriter()
    writer.output += "{\"file\":"
    writer.writeString(inspection.file)
    writer.output += ",\"format\":"
    writer.writeString(inspection.document.format.rawValue)
    writer.output += ",\"keyedArchive\":"
    let content: RenderNode
    if let archive = inspection.archive {
      writer.output += "{\"rootClass\":"
      if let name = archive.rootClassName { writer.writeString(name) } else { writer.output += "null" }
      writer.output += "}"
      content = RenderNode(archive.root, showSecrets: showSecrets)
    } else {
      writer.output += "null"
      content = RenderNode(inspection.document.value, showSecrets: showSecrets)
    }
    writer.output += ",\"content\":"
    writer.write(content)
    writer.output += "}\n"
    return writer.output
  }

  /// An indented text tree of one value (for other readers that embed property lists, such as ADAL dumps).
  public static func textTree(_ value: PropertyListValue, label: String, indent: Int = 0, showSecrets: Bool = false)
    -> String
  {
    var writer = TextTreeWriter()
    writer.write(label: label, RenderNode(value, showSecrets: showSecrets), indent: indent)
    return TerminalText.joinedLines(writer.lines)
  }

  /// An indented text tree of one resolved archive value.
  public static func textTree(_ value: ArchiveValue, label: String, indent: Int = 0, showSecrets: Bool = false)
    -> String
  {
    var writer = TextTreeWriter()
    writer.write(label: label, RenderNode(value, showSecrets: showSecrets), indent: indent)
    return TerminalText.joinedLines(writer.lines)
  }

  /// One value as JSON.
  public static func json(_ value: PropertyListValue, showSecrets: Bool = false) -> String {
    var writer = JSONTreeWriter()
    writer.write(RenderNode(value, showSecrets: showSecrets))
    return writer.output
  }

  /// One resolved archive value as JSON (objects as `{"$class": …, fields…}`).
  public static func json(_ value: ArchiveValue, showSecrets: Bool = false) -> String {
    var writer = JSONTreeWriter()
    writer.write(RenderNode(value, showSecrets: showSecrets))
    return writer.output
  }

  /// `2001-01-12T13:46:40Z`, with fractional seconds only when there are some.
  public static func iso8601(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    if date.timeIntervalSinceReferenceDate.rounded() != date.timeIntervalSinceReferenceDate {
      formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    }
    return formatter.string(from: date)
  }
}
