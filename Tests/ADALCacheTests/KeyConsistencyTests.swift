import Adal2MSALSupport
import Foundation
import Testing

@testable import ADALCache

/// `svce` compared with the archived fields: a difference beyond the forms ADAL wrote keys in (lowercased,
/// trimmed, the authority made canonical) is one warning per field; the same bytes, or the same normalized
/// value, are none.
@Suite struct KeyConsistencyTests {
  private let item = ADALTokenItem(
    authority: "https://login.microsoftonline.com/Contoso.onmicrosoft.com", resource: "https://graph.windows.net",
    clientID: "D3590ED6-52B3-4102-AEFF-AAD2292AB01C", kind: .accessToken, source: ADALItemSource(itemIndex: 1))

  private func mismatches(authority: String?, resource: String?, clientID: String?, memo: ReadMemo? = nil)
    -> [String]
  {
    KeyConsistency.compare(
      keyAuthority: authority, keyResource: resource, keyClientID: clientID, item: item, keyName: "svce", memo: memo
    ).map(\.message)
  }

  @Test(arguments: [nil, ReadMemo()])
  func sameOrNormalizedValuesAgree(_ memo: ReadMemo?) {
    #expect(mismatches(authority: item.authority, resource: item.resource, clientID: item.clientID, memo: memo) == [])
    #expect(
      mismatches(
        authority: "https://login.microsoftonline.com/contoso.onmicrosoft.com",
        resource: " HTTPS://graph.windows.net\n",
        clientID: "d3590ed6-52b3-4102-aeff-aad2292ab01c", memo: memo) == [])
    #expect(mismatches(authority: nil, resource: item.resource, clientID: nil, memo: memo) == [])
  }

  @Test(arguments: [nil, ReadMemo()])
  func differencesAreEachAWarning(_ memo: ReadMemo?) {
    #expect(
      mismatches(
        authority: "https://login.microsoftonline.com/fabrikam.onmicrosoft.com", resource: "https://graph.windows.ne",
        clientID: "d3590ed6-52b3-4102-aeff-aad2292ab01d", memo: memo) == [
          "svce authority 'https://login.microsoftonline.com/fabrikam.onmicrosoft.com' differs from the archived "
            + "authority 'https://login.microsoftonline.com/Contoso.onmicrosoft.com'",
          "svce resource 'https://graph.windows.ne' differs from the archived resource 'https://graph.windows.net'",
          "svce clientId 'd3590ed6-52b3-4102-aeff-aad2292ab01d' differs from the archived clientId "
            + "'D3590ED6-52B3-4102-AEFF-AAD2292AB01C'",
        ])
    #expect(
      mismatches(authority: nil, resource: nil, clientID: nil, memo: memo) == [
        "svce resource '(none)' differs from the archived resource 'https://graph.windows.net'"
      ])
    // The same length, one byte apart: compared, not taken for the same bytes.
    #expect(
      mismatches(authority: nil, resource: "https://graph.windows.neT", clientID: nil, memo: memo) == [])
    #expect(mismatches(authority: nil, resource: "https://graph.windows.nex", clientID: nil, memo: memo).count == 1)
  }
}
