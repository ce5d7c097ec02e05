// libFuzzer entry: the binary property list reader on arbitrary bytes. Any error is fine; a crash, a hang
// or unbounded memory is a finding.
import Adal2MSAL
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  if let value = try? BinaryPropertyListReader(limits: .default).read(data) {
    _ = PropertyListRendering.json(value)
  }
  return 0
}
