function __adal2msal_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __adal2msal_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __adal2msal_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __adal2msal_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __adal2msal_parse_tokens -S
    set -l unparsed_tokens (__adal2msal_tokens -pc)
    switch $unparsed_tokens[1]
    case 'adal2msal'
        __adal2msal_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'migrate'
            __adal2msal_parse_subcommand 0 'adal=+' 'msal=+' 'max-input-size=' 'adal-time-zone=' 'out=' 'dry-run' 'q/quiet' 'client-id=' 'skip-access-tokens' 'prefer=' 'now=' 'for=' 'report=' 'report-format=' 'redact-usernames' 'strict' 'encryption-key-file=' 'azure-cli-dir=' 'plan-whole-up-to=' 'items-per-part=' 'version' 'h/help'
        case 'inspect'
            __adal2msal_parse_subcommand 1 'format=' 'show-secrets' 'version' 'h/help'
        case 'accounts'
            __adal2msal_parse_subcommand 1 'username=' 'identifier=' 'environment=' 'format=' 'show-secrets' 'encryption-key-file=' 'version' 'h/help'
        case 'export'
            __adal2msal_parse_subcommand 1 'format=' 'for=' 'output=' 'encryption-key-file=' 'version' 'h/help'
        case 'import'
            __adal2msal_parse_subcommand -r 1 'out=' 'dry-run' 'format=' 'encryption-key-file=' 'q/quiet' 'version' 'h/help'
        case 'help'
            __adal2msal_parse_subcommand -r 1 'version'
        end
    end
end

function __adal2msal_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __adal2msal_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __adal2msal_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __adal2msal_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__adal2msal_tokens -p)
    if test -z "$(__adal2msal_tokens -t)"
        set -l index (count (__adal2msal_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'adal2msal' -f
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal" version' -l 'version' -d 'Show the version.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_positional "adal2msal" -eq 1' -fa 'migrate' -d 'Migrate ADAL caches (and MSAL caches) into a unified cache in SQLite, or show the diff with --dry-run.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_positional "adal2msal" -eq 1' -fa 'inspect' -d 'Show what a file is and what it holds.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_positional "adal2msal" -eq 1' -fa 'accounts' -d 'List the accounts of a store, or find one by username or home account id.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_positional "adal2msal" -eq 1' -fa 'export' -d 'Write a store as the cache an MSAL library loads.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_positional "adal2msal" -eq 1' -fa 'import' -d 'Load unified-cache JSON files into a store (created if needed).'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_positional "adal2msal" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate"' -l 'adal' -d 'ADAL inputs: keychain dumps (plist or JSON), macOS cache blobs, archived items, ADAL Python / Azure CLI accessTokens.json, ADAL Node caches or ADAL.NET v3 blobs; a directory means every file in it and in its subdirectories (read on all cores; hidden entries, whose names start with a dot, are named and not read).' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate"' -l 'msal' -d 'MSAL unified-cache JSON files to migrate along (MSAL.NET, Python, Java, Node, Go); a directory means every file in it and in its subdirectories, as for --adal.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" max-input-size' -l 'max-input-size' -d 'Largest input file accepted, in bytes.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" adal-time-zone' -l 'adal-time-zone' -d 'The time zone ADAL Python / Azure CLI wrote accessTokens.json\'s expiresOn in (local time without an offset): an identifier such as Europe/Berlin or UTC, or local, this machine\'s zone (TZ). An access token that is a JWT is read by its own exp claim instead.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" out' -l 'out' -d 'The SQLite store to write (created with mode 0600 when missing). A dry run without it plans against an empty cache.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" dry-run' -l 'dry-run' -d 'Plan and report, write nothing (the target file is not created or changed); the report goes to standard output unless --report says otherwise.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" q quiet' -l 'quiet' -s 'q' -d 'Print nothing but errors and warnings: no summary and no progress.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" client-id' -l 'client-id' -d 'The application a family refresh token belongs to when no item names one.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" skip-access-tokens' -l 'skip-access-tokens' -d 'Do not migrate access tokens (they are reported as skipped).'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" prefer' -l 'prefer' -d 'Which side wins when the store and the inputs disagree on a cache key: existing or adal.' -rfka 'existing adal'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" now' -l 'now' -d 'Pin the clock for expiry decisions: ISO 8601 with its offset (2026-11-21T10:00:00Z, 2026-11-21T11:00:00+01:00), read strictly, or epoch seconds.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" for' -l 'for' -d 'The MSAL library the cache is for (dotnet, python, java, node, go, objc): the report shows each entry under the key that library will store it at. Export with the same --for.' -rfka 'dotnet python java node go objc'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" report' -l 'report' -d 'Write the full report (every entry with its action, reason and sources) to this file (mode 0600); `-` is standard output. By default it goes to standard output on a dry run and nowhere otherwise.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" report-format' -l 'report-format' -d 'Report format: text (the default; coloured on a terminal unless NO_COLOR is set), json or markdown.' -rfka 'text json markdown'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" redact-usernames' -l 'redact-usernames' -d 'Replace usernames, display names and account ids (also the uid inside client_info) in the report (and in the summary on standard error) with stable hashes, for reports that leave the team.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" strict' -l 'strict' -d 'Fail (exit 1, nothing written) on anything that would exit 2: an item not read or not modelled, a user with no MSAL identity or in an identity conflict, a skipped file.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" encryption-key-file' -l 'encryption-key-file' -d 'Seal the tokens at rest with this key (32 raw bytes, 64 hex digits or base64); or set ADAL2MSAL_ENCRYPTION_KEY.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" azure-cli-dir' -l 'azure-cli-dir' -d 'After writing, also write Azure CLI 2.30+\'s files here (mode 0600): msal_token_cache.json (the whole store, as export --for python writes it) and service_principal_entries.json (the service principals of the ADAL Python / Azure CLI inputs, merged into an existing one). An existing msal_token_cache.json must be among the --msal inputs.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" plan-whole-up-to' -l 'plan-whole-up-to' -d 'Plan a run of at most this many ADAL items whole, reading its inputs once; a larger run of more than one ADAL file is planned in parts, keeping the items of the files that fit in this many less --items-per-part and reading the others twice (a part holds whole files, so one file is always planned whole).' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" items-per-part' -l 'items-per-part' -d 'In a run planned in parts, plan, write and report at most this many ADAL items at a time (inputs whose users overlap stay together). Lower it to use less memory.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" version' -l 'version' -d 'Show the version.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal migrate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal inspect" format' -l 'format' -d 'Output format: text or json.' -rfka 'text json'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal inspect" show-secrets' -l 'show-secrets' -d 'Print tokens and secrets instead of their fingerprints, and, with --format json, the values of fields this tool does not model.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal inspect" version' -l 'version' -d 'Show the version.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal inspect" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal accounts" username' -l 'username' -d 'Only the accounts with this username (UPN), trimmed and case-insensitive.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal accounts" identifier' -l 'identifier' -d 'Only the accounts with this home_account_id (<uid>.<utid>), case-insensitive.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal accounts" environment' -l 'environment' -d 'Only accounts in the cloud of this host (any alias of it), e.g. login.microsoftonline.com.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal accounts" format' -l 'format' -d 'Output format: text (an aligned table) or json (an array of MSAL account objects).' -rfka 'text json'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal accounts" show-secrets' -l 'show-secrets' -d 'With --format json, print the values of account fields this tool does not model (shown by name and size otherwise; the text table lists none).'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal accounts" encryption-key-file' -l 'encryption-key-file' -d 'The key of an encrypted store: 32 raw bytes, 64 hex digits or base64 (or set ADAL2MSAL_ENCRYPTION_KEY).' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal accounts" version' -l 'version' -d 'Show the version.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal accounts" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal export" format' -l 'format' -d 'Output format: msal-json (the unified cache JSON).' -rfka 'msal-json'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal export" for' -l 'for' -d 'The MSAL library that will load the export: dotnet, python, java, node, go or objc.' -rfka 'dotnet python java node go objc'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal export" output' -l 'output' -d 'Write to this file (mode 0600, atomically) instead of standard output; `-` is standard output.' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal export" encryption-key-file' -l 'encryption-key-file' -d 'The key of an encrypted store: 32 raw bytes, 64 hex digits or base64 (or set ADAL2MSAL_ENCRYPTION_KEY).' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal export" version' -l 'version' -d 'Show the version.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal import" out' -l 'out' -d 'The SQLite store to write (created with mode 0600 when missing).' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal import" dry-run' -l 'dry-run' -d 'Show the summary of what would change and write nothing.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal import" format' -l 'format' -d 'Summary format: text (one line on standard error) or json (an object on standard output, for scripts: added, updated and unchanged count rows written, or on a dry run entities that would be; sectionsKept counts the top-level sections the model does not know, kept verbatim; merged counts the entries of an earlier file that a later one replaced (a later file wins for its key, each named in a note) or that repeat an entity; notReadOrModelled counts the entries and sections that could not be read or modelled; result is complete, partial or failed, as the exit status says).' -rfka 'text json'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal import" encryption-key-file' -l 'encryption-key-file' -d 'Seal the tokens with this key (32 raw bytes, 64 hex digits or base64; or set ADAL2MSAL_ENCRYPTION_KEY).' -rfka ''
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal import" q quiet' -l 'quiet' -s 'q' -d 'Print nothing but errors and warnings.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal import" version' -l 'version' -d 'Show the version.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'adal2msal' -n '__adal2msal_should_offer_completions_for_flags_or_options "adal2msal help" version' -l 'version' -d 'Show the version.'
