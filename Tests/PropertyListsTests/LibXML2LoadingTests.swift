import Foundation
import Testing

@testable import PropertyLists

/// libxml2 looked up by name when the first XML property list is read (the release binary does not load it at
/// its start): found in the library the system names, refused with a message that says what to do otherwise.
@Suite struct LibXML2LoadingTests {
  /// A plist whose reading calls every looked-up function: elements, text, an empty element, a DOCTYPE.
  static let document = Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0"><dict><key>a</key><string>b</string><key>c</key><true/></dict></plist>
    """.utf8)

  @Test func theSystemLibraryLoadsByItsNameAndReads() throws {
    let functions = try LibXML2.load(from: LibXML2.libraryNames, searchingLoaded: false).get()
    let value = try XMLPropertyListReader().read(Self.document, using: functions)
    #expect(value["a"]?.stringValue == "b")
    #expect(value["c"] == .bool(true))
    // libxml2's error callback, handed over through the looked-up function, still reports where XML breaks.
    let broken = Data("<plist><dict><key>a</key></dict".utf8)
    #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(broken, using: functions) }
  }

  @Test func aMissingLibraryIsNamedWithWhatToDo() throws {
    let error = try #require(Self.failure(LibXML2.load(from: ["/nonexistent/libxml2.so.2"], searchingLoaded: false)))
    #expect(error.description.contains("/nonexistent/libxml2.so.2"))
    #expect(error.description.contains("apt-get install libxml2"))
  }

  @Test func aLibraryWithoutTheFunctionsIsRefused() throws {
    #if canImport(Glibc)
      let other = "libm.so.6"
    #else
      let other = "/usr/lib/libSystem.B.dylib"
    #endif
    let error = try #require(Self.failure(LibXML2.load(from: [other], searchingLoaded: false)))
    #expect(error.description.contains("\(other): lacks a function the reader needs"))
  }

  /// The error of a load that failed; nil for one that found the functions.
  static func failure(_ result: Result<LibXML2, PropertyListError>) -> PropertyListError? {
    if case .failure(let error) = result { error } else { nil }
  }
}
