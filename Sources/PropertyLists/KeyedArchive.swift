public import Adal2MSALSupport
import Foundation

/// An `NSKeyedArchiver` archive with every UID resolved: `$top`'s entries as `ArchiveValue` trees.
public struct KeyedArchive: Sendable {
  /// `$top`, in archive order.
  public var top: [(key: String, value: ArchiveValue)]
  /// `$top["root"]`, or the single `$top` entry when there is no `root` key.
  public var root: ArchiveValue
  /// `$classname` of the root object's class, when the root is a class instance (`ADTokenCacheStoreItem`,
  /// `NSDictionary`, …); nil for a plain value.
  public var rootClassName: String?

  public init(top: [(key: String, value: ArchiveValue)], root: ArchiveValue, rootClassName: String?) {
    self.top = top
    self.root = root
    self.rootClassName = rootClassName
  }

  /// Whether a property list has the shape of a keyed archive: a dictionary with an `$objects` array and a
  /// `$top` dictionary. (`$archiver` and `$version` are checked by `KeyedArchiveReader`.)
  public static func isKeyedArchive(_ value: PropertyListValue) -> Bool {
    guard case .dictionary(let dictionary) = value, case .array? = dictionary["$objects"],
      case .dictionary? = dictionary["$top"]
    else { return false }
    return true
  }
}

/// Resolves an `NSKeyedArchiver` property list into a `KeyedArchive`.
///
/// Foundation value classes become plain values (`NSString`, `NSDate`, `NSData`, `NSDictionary`, `NSArray`,
/// `NSSet`, …); any other class becomes an `ArchivedObject` named by its class object's `$classname`. Cycles,
/// dangling UIDs and shared-reference blow-ups (more resolved nodes than `InputLimits.maxObjects` or
/// `maxExpansionFactor` times the object count) are errors naming the object (`$objects[12]`).
public struct KeyedArchiveReader: Sendable {
  public var limits: InputLimits

  public init(limits: InputLimits = .default) { self.limits = limits }

  /// - Throws: `PropertyListError` naming `file` (when given) and the object.
  public func read(_ plist: PropertyListValue, file: String? = nil) throws(PropertyListError) -> KeyedArchive {
    do throws(PropertyListError) {
      return try resolve(plist)
    } catch {
      throw error.inFile(file)
    }
  }

  private func resolve(_ plist: PropertyListValue) throws(PropertyListError) -> KeyedArchive {
    func fail(_ key: String, _ message: String) -> PropertyListError {
      PropertyListError(message, at: SourceLocation(keyPath: key))
    }
    guard case .dictionary(let archive) = plist else {
      throw fail("$archiver", "not a keyed archive: not a dictionary")
    }
    guard case .string(let archiver)? = archive["$archiver"] else {
      throw fail("$archiver", "missing or not a string, expected NSKeyedArchiver")
    }
    guard archiver == "NSKeyedArchiver" else {
      throw fail("$archiver", "archiver \"\(archiver.value.prefix(40))\" is not supported, expected NSKeyedArchiver")
    }
    guard case .integer(let version)? = archive["$version"] else {
      throw fail("$version", "missing or not an integer, expected 100000")
    }
    guard version == 100_000 else { throw fail("$version", "version \(version) is not supported, expected 100000") }
    guard case .array(let objects)? = archive["$objects"] else { throw fail("$objects", "missing or not an array") }
    guard case .dictionary(let topEntries)? = archive["$top"] else { throw fail("$top", "missing or not a dictionary") }

    var resolver = KeyedArchiveResolver(objects: objects, limits: limits)
    var top: [(key: String, value: ArchiveValue)] = []
    var nodes = 0
    for (key, value) in topEntries {
      var uids: [UInt64] = []
      try KeyedArchiveResolver.collectUIDs(value, into: &uids, inline: 0, owner: nil)  // bounds inline nesting
      let (resolved, count, _) = try resolver.resolveField(value, owner: nil, depth: 0)
      nodes = try resolver.addNodes(nodes, count, owner: nil)
      top.append((key, resolved))
    }
    let rootEntry = topEntries["root"].map { ("root", $0) } ?? (topEntries.count == 1 ? topEntries.entries.first : nil)
    guard let (rootKey, rootValue) = rootEntry else {
      throw fail("$top", "no root object (expected a \"root\" key or a single entry)")
    }
    let root = top.first { $0.key == rootKey }?.value ?? .null
    var rootClassName: String?
    if case .uid(let uid) = rootValue, uid < objects.count {
      rootClassName = resolver.className(ofObject: Int(uid))
    }
    return KeyedArchive(top: top, root: root, rootClassName: rootClassName)
  }
}
