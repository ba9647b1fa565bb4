#!/usr/bin/env bash
# Makes sure the PostgreSQL server of the given URL answers: starts the local cluster, or
# installs PostgreSQL from Debian's packages when there is none.
set -euo pipefail
url="$1"

answers() { psql "$url" -Atqc "select 1" >/dev/null 2>&1; }

# SSL with a CA made here once, so that tests can connect with sslmode=verify-full; plain
# connections keep working (pg_hba's `host` lines take both). Only for a server whose files are on
# this machine and writable by this script. The last line names the CA: `== PostgreSQL SSL CA: <file>`.
ssl_dir=/var/lib/postgresql/ledger-ssl
switch_on_ssl() {
  local data_dir owner separator
  data_dir="$(psql "$url" -Atqc "show data_directory" 2>/dev/null || true)"
  if [ -z "$data_dir" ] || [ ! -d "$data_dir" ] || ! mkdir -p "$ssl_dir" 2>/dev/null || [ ! -w "$ssl_dir" ]; then
    echo "== PostgreSQL SSL left as it is: the server's files are not on this machine, or not writable here"
    return 0
  fi
  owner="$(stat -c %U "$data_dir")"
  if [ ! -s "$ssl_dir/server.crt" ] || [ ! -s "$ssl_dir/ca.crt" ]; then
    echo "== generating a CA and a server certificate for 127.0.0.1, ::1 and localhost in $ssl_dir"
    (
      cd "$ssl_dir"
      openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.crt \
        -days 3650 -subj "/CN=ledger CI PostgreSQL CA" 2>/dev/null
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr \
        -subj "/CN=localhost" 2>/dev/null
      printf 'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >server.ext
      openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 3650 \
        -extfile server.ext 2>/dev/null
      rm -f server.csr server.ext ca.srl
      chmod 600 ca.key server.key
      chown "$owner" server.key server.crt ca.crt
    )
  fi
  psql "$url" -Atqc "alter system set ssl_cert_file = '$ssl_dir/server.crt'" >/dev/null
  psql "$url" -Atqc "alter system set ssl_key_file = '$ssl_dir/server.key'" >/dev/null
  psql "$url" -Atqc "alter system set ssl = on" >/dev/null
  psql "$url" -Atqc "select pg_reload_conf()" >/dev/null
  separator="?"; case "$url" in *\?*) separator="&" ;; esac
  for _ in $(seq 1 50); do
    if psql "$url${separator}sslmode=verify-full&sslrootcert=$ssl_dir/ca.crt" -Atqc "select 1" >/dev/null 2>&1; then
      echo "== PostgreSQL SSL CA: $ssl_dir/ca.crt"
      return 0
    fi
    sleep 0.2
  done
  echo "PostgreSQL at $url does not accept sslmode=verify-full with $ssl_dir/ca.crt" >&2
  return 1
}

if answers; then echo "== PostgreSQL answers"; switch_on_ssl; exit 0; fi

bash "$(dirname "$0")/install-postgres.sh"

version="$(ls /etc/postgresql | sort -n | tail -n 1)"
echo "== starting PostgreSQL $version"
pg_ctlcluster --skip-systemctl-redirect "$version" main start || true

# A fresh Debian cluster asks for passwords over TCP; CI connects as postgres without one.
hba="/etc/postgresql/$version/main/pg_hba.conf"
if ! answers && [ -f "$hba" ] && ! grep -q "ledger-ci" "$hba"; then
  sed -i '1i host all all 127.0.0.1/32 trust # ledger-ci\nhost all all ::1/128 trust # ledger-ci' "$hba"
  pg_ctlcluster --skip-systemctl-redirect "$version" main reload
fi

for _ in $(seq 1 30); do
  if answers; then echo "== PostgreSQL answers"; switch_on_ssl; exit 0; fi
  sleep 1
done
echo "PostgreSQL does not answer at $url" >&2
exit 1
