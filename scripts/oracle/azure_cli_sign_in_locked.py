"""Azure CLI changing its token cache under its own lock, as it does on every sign-in (msal-extensions'
CrossPlatLock around PersistedTokenCache.modify): takes the lock on TOKEN_CACHE, says "locked" on standard output,
holds it for SECONDS, writes NEW_CONTENT's bytes into TOKEN_CACHE and lets go.

    python azure_cli_sign_in_locked.py TOKEN_CACHE NEW_CONTENT SECONDS
"""
import sys
import time

from msal_extensions import CrossPlatLock


def main():
    token_cache, new_content, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    with open(new_content, "rb") as source:
        content = source.read()
    with CrossPlatLock(token_cache + ".lockfile"):
        print("locked", flush=True)
        time.sleep(seconds)
        with open(token_cache, "wb") as target:
            target.write(content)
    print("released", flush=True)


if __name__ == "__main__":
    main()
