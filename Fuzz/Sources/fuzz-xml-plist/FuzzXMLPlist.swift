// libFuzzer entry: the XML property list reader (libxml2 streaming) on arbitrary bytes.
import Adal2MSAL
import Foundation
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  if let value = try? XMLPropertyListReader(limits: .default).read(data) {
    _ = PropertyListRendering.textTree(value, label: "root")
  }
  return 0
}

/// The entry point SwiftPM links as `main` on Linux: hands over to libFuzzer's driver.
@_cdecl("fuzz_xml_plist_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    guard let data else { return 0 }
    return fuzz(UnsafeRawPointer(data), size)
  }
}
