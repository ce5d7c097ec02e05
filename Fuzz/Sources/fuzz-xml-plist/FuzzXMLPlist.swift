// libFuzzer entry: the XML property list reader (libxml2 streaming) on arbitrary bytes.
import Adal2MSAL
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  if let value = try? XMLPropertyListReader(limits: .default).read(data) {
    _ = PropertyListRendering.textTree(value, label: "root")
  }
  return 0
}
