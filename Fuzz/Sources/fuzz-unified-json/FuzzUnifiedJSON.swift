// libFuzzer entry: the MSAL unified cache JSON reader, and the writer on whatever it accepted (the export
// path: what was read must be writable).
import Adal2MSAL
import Foundation
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  if let result = try? UnifiedCacheJSONReader(limits: .default).read(data, file: "fuzz") {
    _ = UnifiedCacheJSONWriter.export(result.contents).data
  }
  return 0
}

/// The entry point SwiftPM links as `main` on Linux: hands over to libFuzzer's driver.
@_cdecl("fuzz_unified_json_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    guard let data else { return 0 }
    return fuzz(UnsafeRawPointer(data), size)
  }
}
