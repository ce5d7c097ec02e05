// libFuzzer entry: the ADAL reader on arbitrary bytes: keychain dumps (plist array or classes, objection
// JSON, base64 JSON), macOS blobs and archived items, recognised by content as in production.
import Adal2MSAL
import Foundation
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  read(Data(bytes: start, count: count))
  // The reader frees its records on another thread. libFuzzer's leak check runs as this returns, and it did not
  // see every reference that work still held: it took those values for leaks.
  BackgroundWork.waitForPending()
  return 0
}

private func read(_ data: Data) {
  if let result = try? ADALCacheReader(limits: .default).read(data, file: "fuzz") {
    _ = result.diagnostics.map(\.description)
  }
}

/// The entry point SwiftPM links as `main` on Linux: hands over to libFuzzer's driver.
@_cdecl("fuzz_adal_dump_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    guard let data else { return 0 }
    return fuzz(UnsafeRawPointer(data), size)
  }
}
