// The MSAL unified cache: model, JSON reader and writer, canonical keys, environment aliases, keychain items.
