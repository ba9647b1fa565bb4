#!/usr/bin/env sh
# Makes the secrets compose.yaml reads, once, into ./secrets/ (or the folder given): files of mode
# 600 that compose mounts under /run/secrets/. A file that exists is kept as it is, never replaced:
# run it again after deleting one to make only that one anew (the master keys and the fingerprint
# key cannot be remade without losing what they protect: back them up, away from the data).
set -eu

dir=${1:-"$(dirname "$0")/../secrets"}
umask 077
mkdir -p "$dir"
chmod 700 "$dir"

# base64 of n random bytes, on one line.
random_base64() { head -c "$1" /dev/urandom | base64 | tr -d '\n'; }
# n random bytes as URL-safe text (no + / =), for passwords that go inside URLs.
random_token() { random_base64 "$1" | tr '+/' '-_' | tr -d '='; }

# make_secret NAME VALUE: writes secrets/NAME unless it exists.
make_secret() {
  if [ -e "$dir/$1" ]; then
    echo "kept    $dir/$1"
  else
    printf '%s' "$2" > "$dir/$1"
    chmod 600 "$dir/$1"
    echo "made    $dir/$1"
  fi
}

make_secret admin_api_key "ldgr_admin_$(random_token 32)"
make_secret secrets_master_keys "k1:$(random_base64 32)"
make_secret card_fingerprint_key "$(random_base64 32)"
make_secret postgres_password "$(random_token 32)"
make_secret eventstore_admin_password "$(random_token 32)"
# The URLs hold the passwords above (read back, so that a kept password and a new URL agree),
# and verify the servers' certificates against the CA that compose's `certs` service makes.
make_secret database_url "postgres://ledger:$(cat "$dir/postgres_password")@postgres:5432/ledger?sslmode=verify-full&sslrootcert=/certs/ca/ca.crt"
make_secret eventstore_url "kurrentdb://admin:$(cat "$dir/eventstore_admin_password")@eventstore:2113?tls=true&tlsCAFile=/certs/ca/ca.crt"

# The containers read them as their own users: node (uid 1000) in the ledger, KurrentDB (uid 1001)
# its admin password; postgres reads its password as root. Compose mounts the files as they are,
# owner and mode kept.
if [ "$(id -u)" = 0 ]; then
  chown 1000:1000 "$dir"/*
  chown 1001:1001 "$dir/eventstore_admin_password"
else
  echo "note: the files belong to uid $(id -u); the ledger reads them as uid 1000 and KurrentDB its admin password as uid 1001: on Linux run 'sudo chown 1000:1000 $dir/* && sudo chown 1001:1001 $dir/eventstore_admin_password'" >&2
fi
