// ADAL legacy cache items: keychain dumps, macOS blobs, archived items, id token claims.
