#!/usr/bin/env bash
# Makes sure the PostgreSQL server of the given URL answers: starts the local cluster, or
# installs PostgreSQL from Debian's packages when there is none.
set -euo pipefail
url="$1"

answers() { psql "$url" -Atqc "select 1" >/dev/null 2>&1; }

if answers; then echo "== PostgreSQL answers"; exit 0; fi

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
  if answers; then echo "== PostgreSQL answers"; exit 0; fi
  sleep 1
done
echo "PostgreSQL does not answer at $url" >&2
exit 1
