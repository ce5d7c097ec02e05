import Adal2MSALSupport
internal import CLibXML2
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The libxml2 functions the XML reader calls, looked up when the first XML property list is read rather than
/// bound when the program starts. Only XML property lists need libxml2 (and, on Debian, the ICU, zlib and liblzma
/// it loads); a release binary linked without it (`scripts/release/build.sh`) does not map them for a
/// binary dump or JSON, and runs where libxml2 is not installed. A build that links libxml2 (a debug build,
/// macOS) finds the functions already loaded.
///
/// The signatures are libxml2's (2.9 to 2.13, soname `libxml2.so.2`); a pointer found by name is called only
/// through the type written here, so each must match its C declaration.
struct LibXML2: @unchecked Sendable {  // C function pointers, set once
  typealias Reader = OpaquePointer
  typealias InitParser = @convention(c) () -> Void
  typealias ReaderForMemory =
    @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> Reader?
  typealias ReaderAction = @convention(c) (Reader?) -> Void
  typealias ReaderStatus = @convention(c) (Reader?) -> Int32
  typealias ReaderText = @convention(c) (Reader?) -> UnsafePointer<xmlChar>?
  typealias CurrentDocument = @convention(c) (Reader?) -> UnsafeMutablePointer<xmlDoc>?
  typealias FreeDocument = @convention(c) (UnsafeMutablePointer<xmlDoc>?) -> Void
  typealias SetErrorHandler = @convention(c) (Reader?, xmlStructuredErrorFunc?, UnsafeMutableRawPointer?) -> Void
  typealias CurrentNode = @convention(c) (Reader?) -> UnsafeMutablePointer<xmlNode>?
  typealias LineNumber = @convention(c) (UnsafePointer<xmlNode>?) -> Int

  let initParser: InitParser
  let readerForMemory: ReaderForMemory
  let freeTextReader: ReaderAction
  let currentDocument: CurrentDocument
  let freeDocument: FreeDocument
  let setStructuredErrorHandler: SetErrorHandler
  let read: ReaderStatus
  let nodeType: ReaderStatus
  let isEmptyElement: ReaderStatus
  let constValue: ReaderText
  let constName: ReaderText
  let currentNode: CurrentNode
  let lineNumber: LineNumber

  /// The libraries tried, in order, when the functions are not loaded already: the soname a link records.
  #if canImport(Darwin)
    static let libraryNames = ["/usr/lib/libxml2.2.dylib"]
  #else
    static let libraryNames = ["libxml2.so.2"]
  #endif

  /// The functions, or why they cannot be had: the error every XML read throws when libxml2 cannot be loaded.
  static let loaded = load(from: libraryNames, searchingLoaded: true)

  /// Held while `xmlInitParser` runs, which each `load` calls: its first call sets up libxml2's globals and is not
  /// safe to race.
  private static let initializing = NSLock()

  /// Finds every function among the loaded libraries (with `searchingLoaded`), else in the first of `libraries`
  /// that loads and has them all, and initializes the library.
  static func load(from libraries: [String], searchingLoaded: Bool) -> Result<LibXML2, PropertyListError> {
    func initialized(_ functions: LibXML2) -> Result<LibXML2, PropertyListError> {
      initializing.withLock { functions.initParser() }
      return .success(functions)
    }
    if searchingLoaded, let functions = LibXML2(lookingUpIn: nil) { return initialized(functions) }
    var reasons: [String] = []
    for name in libraries {
      guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
        reasons.append(dlerror().map { String(cString: $0) } ?? "\(name): cannot be loaded")
        continue
      }
      if let functions = LibXML2(lookingUpIn: handle) { return initialized(functions) }
      reasons.append("\(name): lacks a function the reader needs")
      dlclose(handle)
    }
    return .failure(
      PropertyListError(
        "XML property lists are read with libxml2, which could not be loaded (\(reasons.joined(separator: "; "))); "
          + "install it (Debian and Ubuntu: apt-get install libxml2) or convert the file to a binary property list",
        at: SourceLocation()))
  }
}

// In an extension, so that the struct keeps its memberwise initializer.
extension LibXML2 {
  /// Every function looked up in `handle`, or among the libraries already loaded when nil; nil if one is missing.
  private init?(lookingUpIn handle: UnsafeMutableRawPointer?) {
    func symbol<Function>(_ name: String, as _: Function.Type) -> Function? {
      #if canImport(Darwin)
        let scope = handle ?? UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
      #else
        let scope = handle  // RTLD_DEFAULT is the null handle
      #endif
      guard let address = dlsym(scope, name) else { return nil }
      return unsafeBitCast(address, to: Function.self)
    }
    guard let initParser = symbol("xmlInitParser", as: InitParser.self),
      let readerForMemory = symbol("xmlReaderForMemory", as: ReaderForMemory.self),
      let freeTextReader = symbol("xmlFreeTextReader", as: ReaderAction.self),
      let currentDocument = symbol("xmlTextReaderCurrentDoc", as: CurrentDocument.self),
      let freeDocument = symbol("xmlFreeDoc", as: FreeDocument.self),
      let setStructuredErrorHandler = symbol("xmlTextReaderSetStructuredErrorHandler", as: SetErrorHandler.self),
      let read = symbol("xmlTextReaderRead", as: ReaderStatus.self),
      let nodeType = symbol("xmlTextReaderNodeType", as: ReaderStatus.self),
      let isEmptyElement = symbol("xmlTextReaderIsEmptyElement", as: ReaderStatus.self),
      let constValue = symbol("xmlTextReaderConstValue", as: ReaderText.self),
      let constName = symbol("xmlTextReaderConstName", as: ReaderText.self),
      let currentNode = symbol("xmlTextReaderCurrentNode", as: CurrentNode.self),
      let lineNumber = symbol("xmlGetLineNo", as: LineNumber.self)
    else { return nil }
    self.init(
      initParser: initParser, readerForMemory: readerForMemory, freeTextReader: freeTextReader,
      currentDocument: currentDocument, freeDocument: freeDocument,
      setStructuredErrorHandler: setStructuredErrorHandler, read: read, nodeType: nodeType,
      isEmptyElement: isEmptyElement, constValue: constValue, constName: constName, currentNode: currentNode,
      lineNumber: lineNumber)
  }
}
