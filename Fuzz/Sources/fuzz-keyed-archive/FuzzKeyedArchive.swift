// libFuzzer entry: a property list (either encoding) resolved as an NSKeyedArchiver archive and rendered as
// `adal2msal inspect` renders it (text and JSON), the path every keyed archive takes.
import Adal2MSAL
import Foundation
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  guard let document = try? PropertyListReader(limits: .default).read(data, file: "fuzz") else { return 0 }
  // Resolve even plists that only look partly like archives: the resolver must reject them cleanly.
  _ = try? KeyedArchiveReader(limits: .default).read(document.value, file: "fuzz")
  if let inspection = try? PropertyListInspection.inspect(data, file: "fuzz", limits: .default) {
    _ = PropertyListRendering.text(inspection)
    _ = PropertyListRendering.json(inspection)
  }
  return 0
}

/// The entry point SwiftPM links as `main` on Linux: hands over to libFuzzer's driver.
@_cdecl("fuzz_keyed_archive_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    guard let data else { return 0 }
    return fuzz(UnsafeRawPointer(data), size)
  }
}
